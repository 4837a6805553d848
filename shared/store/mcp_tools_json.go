package store

import (
	"encoding/json"
	"fmt"

	"aiwork/shared/domain"
)

// A connection's tools are stored as one JSON string (tools_json): as a
// list of maps, a dozen tools with their schemas are a hundred attributes
// that DynamoDB's engine checks and encodes one by one on every write and
// read. Connections written before keep the list (tools) until their tools
// are next refreshed; reads take either.
const attrToolsJSON = "tools_json"

// toolJSON is one stored tool; the schema is kept byte for byte, as a string.
type toolJSON struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	ReadOnly    bool   `json:"read_only,omitempty"`
	Destructive bool   `json:"destructive,omitempty"`
	HintAbsent  bool   `json:"destructive_hint_absent,omitempty"`
	InputSchema string `json:"input_schema,omitempty"`
	// UIResourceURI and Visibility: the tool's view and who may call it
	// (MCP Apps).
	UIResourceURI string   `json:"ui_resource_uri,omitempty"`
	Visibility    []string `json:"visibility,omitempty"`
}

// toolsJSON encodes tools for tools_json ("[]" for none, so a refresh
// that found none still replaces an older list).
func toolsJSON(tools []domain.MCPTool) (string, error) {
	out := make([]toolJSON, len(tools))
	for i, t := range tools {
		out[i] = toolJSON{Name: t.Name, Title: t.Title, Description: t.Description, ReadOnly: t.ReadOnly,
			Destructive: t.Destructive, HintAbsent: t.DestructiveHintAbsent, InputSchema: string(t.InputSchema),
			UIResourceURI: t.UIResourceURI, Visibility: t.Visibility}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return "", fmt.Errorf("encode tools: %w", err)
	}
	return string(b), nil
}

// connTools is a stored connection's tools: tools_json when it has one,
// else the older list of maps.
func connTools(stored string, old []mcpToolAtt) []domain.MCPTool {
	if stored == "" {
		return toolsFromAtts(old)
	}
	var in []toolJSON
	if err := json.Unmarshal([]byte(stored), &in); err != nil || len(in) == 0 {
		return nil
	}
	out := make([]domain.MCPTool, len(in))
	for i, t := range in {
		out[i] = domain.MCPTool{Name: t.Name, Title: t.Title, Description: t.Description, ReadOnly: t.ReadOnly,
			Destructive: t.Destructive, DestructiveHintAbsent: t.HintAbsent, UIResourceURI: t.UIResourceURI, Visibility: t.Visibility}
		if t.InputSchema != "" {
			out[i].InputSchema = json.RawMessage(t.InputSchema)
		}
	}
	return out
}
