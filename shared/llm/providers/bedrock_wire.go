package providers

import (
	"aiwork/shared/llm"
	"bytes"
	"encoding/json"
)

// ConverseStream's request and events, as plain structs for encoding/json.
// The request's fields are in alphabetical order, tool schemas and call
// inputs are re-encoded with their keys sorted and numbers as written, and
// nothing is HTML-escaped: the body is byte for byte the one the SDK's
// bedrockruntime client sent (testdata/bedrock-request-*.txt).

type converseRequest struct {
	InferenceConfig *converseInference `json:"inferenceConfig,omitempty"`
	Messages        []converseMessage  `json:"messages,omitempty"`
	System          []converseText     `json:"system,omitempty"`
	ToolConfig      *converseTools     `json:"toolConfig,omitempty"`
}

type converseInference struct {
	MaxTokens int `json:"maxTokens"`
}

type converseText struct {
	Text string `json:"text"`
}

type converseMessage struct {
	Content []converseBlock `json:"content,omitempty"`
	Role    string          `json:"role"`
}

// converseBlock is a content block: one of its fields is set.
type converseBlock struct {
	Text       *string          `json:"text,omitempty"` // a text block's, even empty
	ToolResult *converseResult  `json:"toolResult,omitempty"`
	ToolUse    *converseToolUse `json:"toolUse,omitempty"`
}

type converseResult struct {
	Content   []converseText `json:"content"`
	Status    string         `json:"status,omitempty"`
	ToolUseID string         `json:"toolUseId"`
}

type converseToolUse struct {
	Input     any    `json:"input"` // a JSON document (jsonDocument)
	Name      string `json:"name"`
	ToolUseID string `json:"toolUseId"`
}

type converseTools struct {
	Tools []converseTool `json:"tools"`
}

type converseTool struct {
	ToolSpec converseToolSpec `json:"toolSpec"`
}

type converseToolSpec struct {
	Description string        `json:"description,omitempty"`
	InputSchema converseInput `json:"inputSchema"`
	Name        string        `json:"name"`
}

type converseInput struct {
	JSON any `json:"json"` // a JSON document (jsonDocument)
}

// converseBody is the request body of req.
func converseBody(req llm.Request) ([]byte, error) {
	system, ts := turns(req.Messages)
	var in converseRequest
	for _, m := range ts {
		in.Messages = append(in.Messages, converseTurn(m))
	}
	if system != "" {
		in.System = []converseText{{Text: system}}
	}
	if req.MaxTokens > 0 {
		in.InferenceConfig = &converseInference{MaxTokens: req.MaxTokens}
	}
	if len(req.Tools) > 0 {
		in.ToolConfig = &converseTools{}
		for _, t := range req.Tools {
			in.ToolConfig.Tools = append(in.ToolConfig.Tools, converseTool{ToolSpec: converseToolSpec{
				Name: t.Name, Description: t.Description, InputSchema: converseInput{JSON: jsonDocument(toolSchema(t))},
			}})
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // the SDK's encoder leaves <, > and & as they are
	if err := enc.Encode(in); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// converseTurn is one turn as content blocks: tool results, the text,
// then the calls (the order Anthropic's models behind Converse want).
func converseTurn(m llm.Message) converseMessage {
	var blocks []converseBlock
	for _, r := range m.ToolResults {
		res := &converseResult{ToolUseID: r.CallID, Content: []converseText{{Text: r.Content}}}
		if r.IsError { // only then: the status is not every model's field
			res.Status = "error"
		}
		blocks = append(blocks, converseBlock{ToolResult: res})
	}
	if hasText(m) {
		blocks = append(blocks, converseBlock{Text: &m.Content})
	}
	for _, c := range m.ToolCalls {
		blocks = append(blocks, converseBlock{ToolUse: &converseToolUse{ToolUseID: c.ID, Name: c.Name, Input: jsonDocument(callInput(c))}})
	}
	return converseMessage{Role: m.Role, Content: blocks} // turns made it user or assistant
}

// jsonDocument is JSON text decoded for re-encoding as the SDK did: numbers
// kept as their literal text (float64 would round big ones), objects as
// maps, which encoding/json writes with their keys sorted.
func jsonDocument(raw json.RawMessage) any {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	_ = d.Decode(&v) // raw is a JSON object: toolSchema and callInput make sure
	return v
}

// converseEvent is the payload of a ConverseStream event; each event type
// has only its own fields.
type converseEvent struct {
	ContentBlockIndex int32 `json:"contentBlockIndex"`
	Start             struct {
		ToolUse *struct {
			Name      string `json:"name"`
			ToolUseID string `json:"toolUseId"`
		} `json:"toolUse"`
	} `json:"start"` // contentBlockStart
	Delta struct {
		Text    string `json:"text"`
		ToolUse *struct {
			Input string `json:"input"`
		} `json:"toolUse"`
	} `json:"delta"` // contentBlockDelta
	StopReason string `json:"stopReason"` // messageStop
	Usage      *struct {
		InputTokens  int `json:"inputTokens"`
		OutputTokens int `json:"outputTokens"`
	} `json:"usage"` // metadata
}
