package providers

import (
	"aiwork/shared/llm"
	"encoding/json"
)

// The Messages API's request and stream events, as plain structs for
// encoding/json. The request's fields are in the order the Anthropic SDK
// sent them, so the body is byte for byte the one it sent.

type anthropicRequest struct {
	MaxTokens int                `json:"max_tokens"`
	Messages  []anthropicMessage `json:"messages"`
	Model     string             `json:"model"`
	System    []anthropicBlock   `json:"system,omitempty"`
	Tools     []anthropicTool    `json:"tools,omitempty"`
	Stream    bool               `json:"stream"`
}

type anthropicMessage struct {
	Content []anthropicBlock `json:"content"`
	Role    string           `json:"role"`
}

// anthropicBlock is a text, tool_use or tool_result block: each has only
// its own fields set.
type anthropicBlock struct {
	ToolUseID string           `json:"tool_use_id,omitempty"`
	IsError   *bool            `json:"is_error,omitempty"`
	Content   []anthropicBlock `json:"content,omitempty"`
	ID        string           `json:"id,omitempty"`
	Input     json.RawMessage  `json:"input,omitempty"`
	Name      string           `json:"name,omitempty"`
	Text      *string          `json:"text,omitempty"` // a text block's, even empty
	Type      string           `json:"type"`
}

type anthropicTool struct {
	InputSchema json.RawMessage `json:"input_schema"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
}

func textBlock(s string) anthropicBlock { return anthropicBlock{Type: "text", Text: &s} }

// anthropicParams is the request of req: system messages as the system
// parameter, the turns merged so the roles alternate.
func anthropicParams(req llm.Request) anthropicRequest {
	system, ts := turns(req.Messages)
	p := anthropicRequest{Model: req.Model, MaxTokens: req.MaxTokens, Stream: true,
		Messages: make([]anthropicMessage, 0, len(ts))}
	if p.MaxTokens <= 0 {
		p.MaxTokens = defaultMaxTokens
	}
	if system != "" {
		p.System = []anthropicBlock{textBlock(system)}
	}
	for _, m := range ts {
		p.Messages = append(p.Messages, anthropicTurn(m))
	}
	for _, t := range req.Tools {
		p.Tools = append(p.Tools, anthropicTool{Name: t.Name, Description: t.Description, InputSchema: toolSchema(t)})
	}
	return p
}

// anthropicTurn is one turn as content blocks: tool results first (the API
// wants them before any text of the turn), the text, then the calls.
func anthropicTurn(m llm.Message) anthropicMessage {
	var blocks []anthropicBlock
	for _, r := range m.ToolResults {
		b := anthropicBlock{Type: "tool_result", ToolUseID: r.CallID, IsError: &r.IsError}
		if r.Content != "" { // an empty text block is refused; no content is not
			b.Content = []anthropicBlock{textBlock(r.Content)}
		}
		blocks = append(blocks, b)
	}
	if hasText(m) {
		blocks = append(blocks, textBlock(m.Content))
	}
	for _, c := range m.ToolCalls {
		blocks = append(blocks, anthropicBlock{Type: "tool_use", ID: c.ID, Name: c.Name, Input: callInput(c)})
	}
	return anthropicMessage{Role: m.Role, Content: blocks}
}

// anthropicEvent is what the adapter reads of any stream event; each type
// fills its own fields.
type anthropicEvent struct {
	Type    string `json:"type"`
	Index   int64  `json:"index"`
	Message struct {
		Usage anthropicUsage `json:"usage"`
	} `json:"message"` // message_start
	ContentBlock struct {
		Type string `json:"type"`
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"content_block"` // content_block_start
	Delta struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		PartialJSON string `json:"partial_json"`
		StopReason  string `json:"stop_reason"` // message_delta's
	} `json:"delta"`
	Usage anthropicUsage `json:"usage"` // message_delta
	Error struct {
		Type string `json:"type"`
	} `json:"error"`
}

type anthropicUsage struct {
	InputTokens              int `json:"input_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	OutputTokens             int `json:"output_tokens"`
}

// over is u with the counts this report has: message_delta's counts are
// cumulative, so each replaces the one before.
func (r anthropicUsage) over(u llm.Usage) llm.Usage {
	if in := r.InputTokens + r.CacheCreationInputTokens + r.CacheReadInputTokens; in > 0 {
		u.InputTokens = in
	}
	if r.OutputTokens > 0 {
		u.OutputTokens = r.OutputTokens
	}
	return u
}
