package chatapi

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"aiwork/shared/domain"
	"aiwork/shared/llm"
)

// Tool offering limits.
const (
	// MaxMCPConnections is how many MCP connections one message may offer.
	MaxMCPConnections = 10
	// MaxOfferedTools caps the tools offered to a model in one reply (the
	// providers' own caps start at 128).
	MaxOfferedTools = 128
	// maxToolNameLen and the characters below are the strictest provider
	// rule for tool names (OpenAI, Anthropic, Bedrock: ^[a-zA-Z0-9_-]{1,64}$).
	maxToolNameLen = 64
	maxSlugLen     = 24
)

// toolset is what one reply offers a model: each tool of the chosen MCP
// connections under a model-safe name, and how to reach it.
type toolset struct {
	offered []llm.Tool
	byName  map[string]boundTool
	// note says what was left out (tools past MaxOfferedTools), for a
	// notice frame; empty when nothing was.
	note string
}

// boundTool is an offered tool and the connection that serves it.
type boundTool struct {
	conn   domain.MCPConnection
	tool   domain.MCPTool
	schema *jsonschema.Resolved // nil: the schema did not resolve; only an object is required
}

// newToolset names the connections' tools for the models. Names are
// "<server-slug>__<tool>" cut to the providers' rules; a name already taken
// (two servers, or two tools that clean to one name) gets a suffix made
// from a hash of its connection and tool, so the same connections always
// give the same names, whichever order they come in (a paused reply is
// resumed with the names the model saw).
func newToolset(conns []domain.MCPConnection) toolset {
	conns = slices.SortedFunc(slices.Values(conns), func(a, b domain.MCPConnection) int { return strings.Compare(a.ID, b.ID) })
	ts := toolset{byName: map[string]boundTool{}}
	total := 0
	for _, c := range conns {
		total += len(c.Tools)
	}
	for _, c := range conns {
		slug := cleanName(c.ServerID, maxSlugLen)
		for _, t := range c.Tools {
			if len(ts.offered) == MaxOfferedTools {
				ts.note = fmt.Sprintf("Your connected servers offer %d tools; the model is offered the first %d. Turn off servers you do not need in Tools.", total, MaxOfferedTools)
				return ts
			}
			name := uniqueName(slug, t.Name, c.ID, ts.byName)
			ts.byName[name] = boundTool{conn: c, tool: t, schema: resolveSchema(t.InputSchema)}
			ts.offered = append(ts.offered, llm.Tool{Name: name, Description: describe(c, t), InputSchema: objectSchema(t.InputSchema)})
		}
	}
	return ts
}

// uniqueName is the model-facing name of a connection's tool, unique in
// taken.
func uniqueName(slug, tool, connID string, taken map[string]boundTool) string {
	name := slug + "__" + cleanName(tool, maxToolNameLen-len(slug)-2)
	if _, clash := taken[name]; !clash {
		return name
	}
	sum := sha256.Sum256([]byte(connID + "\x00" + tool))
	tag := hex.EncodeToString(sum[:])
	for n := 4; ; n += 2 { // a longer tag in the unlikely case of a second clash
		suffix := "_" + tag[:n]
		base := name
		if len(base)+len(suffix) > maxToolNameLen {
			base = base[:maxToolNameLen-len(suffix)]
		}
		if _, clash := taken[base+suffix]; !clash {
			return base + suffix
		}
	}
}

// cleanName keeps [a-zA-Z0-9_-] (anything else becomes '_'), at most max
// bytes, never empty.
func cleanName(s string, max int) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() == max {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "tool"
	}
	return b.String()
}

// describe is the tool's description for the model, naming its server
// (two servers' tools may read alike).
func describe(c domain.MCPConnection, t domain.MCPTool) string {
	d := strings.TrimSpace(t.Description)
	if d == "" {
		d = t.Title
	}
	return fmt.Sprintf("%s (tool %q of the MCP server %s)", d, t.Name, c.Label())
}

// objectSchema is the schema offered to models: the tool's, which MCP
// requires to be an object schema, else the permissive object.
func objectSchema(s json.RawMessage) json.RawMessage {
	var probe struct {
		Type any `json:"type"`
	}
	if len(s) == 0 || json.Unmarshal(s, &probe) != nil || probe.Type != "object" {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return s
}

// resolveSchema prepares a tool's schema for validating arguments; nil
// when it does not resolve (arguments are then only required to be an
// object). References are never fetched.
func resolveSchema(s json.RawMessage) *jsonschema.Resolved {
	if len(s) == 0 {
		return nil
	}
	var schema jsonschema.Schema
	if err := json.Unmarshal(s, &schema); err != nil {
		return nil
	}
	r, err := schema.Resolve(&jsonschema.ResolveOptions{Loader: func(*url.URL) (*jsonschema.Schema, error) {
		return nil, fmt.Errorf("remote schema references are not followed")
	}})
	if err != nil {
		return nil
	}
	return r
}

// arguments parses and validates a call's arguments against its tool's
// schema; the error is what the model is told (the server is never sent
// arguments that fail).
func (b boundTool) arguments(raw string) (map[string]any, error) {
	if strings.TrimSpace(raw) == "" {
		raw = "{}"
	}
	var args map[string]any
	if err := json.Unmarshal([]byte(raw), &args); err != nil || args == nil {
		return nil, fmt.Errorf("the arguments must be a JSON object (got %s)", clip(raw, 200))
	}
	if b.schema != nil {
		if err := b.schema.Validate(args); err != nil {
			return nil, fmt.Errorf("the arguments do not match the tool's input schema: %s", clip(err.Error(), 500))
		}
	}
	return args, nil
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
