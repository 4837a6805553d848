package providers

import (
	"aiwork/shared/llm"
	"encoding/json"
)

// Chat Completions' request and stream chunks, as plain structs for
// encoding/json.

// openAIRequest is a streamed Chat Completions request. The fields are in
// the order the openai-go SDK sent them, so the body is byte for byte the
// one it sent, tool schemas aside (they go as written, not key-sorted).
type openAIRequest struct {
	Messages            []openAIMessage `json:"messages"`
	Model               string          `json:"model"`
	MaxCompletionTokens int             `json:"max_completion_tokens,omitempty"`
	MaxTokens           int             `json:"max_tokens,omitempty"`
	StreamOptions       struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	Tools  []openAITool `json:"tools,omitempty"`
	Stream bool         `json:"stream"`
}

type openAIMessage struct {
	// Content is left out only of an assistant turn of calls without text.
	Content    *string          `json:"content,omitempty"`
	ToolCalls  []openAIToolCall `json:"tool_calls,omitempty"`
	ToolCallID string           `json:"tool_call_id,omitempty"`
	Role       string           `json:"role"`
	Name       string           `json:"name,omitempty"`
}

type openAIToolCall struct {
	ID       string `json:"id"`
	Function struct {
		Arguments string `json:"arguments"`
		Name      string `json:"name"`
	} `json:"function"`
	Type  string       `json:"type"`
	Extra *googleExtra `json:"extra_content,omitempty"`
}

type openAITool struct {
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
	Type string `json:"type"`
}

// params is the request of req.
func (a *OpenAI) params(req llm.Request) openAIRequest {
	p := openAIRequest{Model: req.Model, Messages: a.messages(req.Messages), Stream: true}
	p.StreamOptions.IncludeUsage = true
	if a.legacyMaxTokens {
		p.MaxTokens = max(req.MaxTokens, 0)
	} else {
		p.MaxCompletionTokens = max(req.MaxTokens, 0)
	}
	for _, t := range req.Tools {
		var tool openAITool
		tool.Type, tool.Function.Name, tool.Function.Description = "function", t.Name, t.Description
		tool.Function.Parameters = toolSchema(t)
		p.Tools = append(p.Tools, tool)
	}
	return p
}

// messages maps the conversation: an assistant turn's calls go in its
// tool_calls, and each tool result is a tool message of its own.
func (a *OpenAI) messages(in []llm.Message) []openAIMessage {
	msgs := make([]openAIMessage, 0, len(in))
	for _, m := range in {
		switch {
		case m.Role == "assistant" && len(m.ToolCalls) > 0:
			am := openAIMessage{Role: "assistant"}
			if m.Content != "" {
				am.Content = &m.Content
			}
			for _, c := range m.ToolCalls {
				tc := openAIToolCall{ID: c.ID, Type: "function"}
				tc.Function.Name, tc.Function.Arguments = c.Name, c.Arguments
				if c.Signature != "" {
					tc.Extra = &googleExtra{Google: googleSignature{ThoughtSignature: c.Signature}}
				}
				am.ToolCalls = append(am.ToolCalls, tc)
			}
			msgs = append(msgs, am)
		case m.Role == "tool":
			for _, r := range m.ToolResults {
				tm := openAIMessage{Role: "tool", Content: &r.Content, ToolCallID: r.CallID}
				if a.toolResultNames {
					tm.Name = r.Name
				}
				msgs = append(msgs, tm)
			}
		case m.Role == "system" || m.Role == "assistant":
			msgs = append(msgs, openAIMessage{Role: m.Role, Content: &m.Content})
		default:
			msgs = append(msgs, openAIMessage{Role: "user", Content: &m.Content})
		}
	}
	return msgs
}

// openAIChunk is what the relay reads of a chat.completion.chunk: the first
// choice's delta, its finish reason and the usage the last chunk carries.
type openAIChunk struct {
	Choices []struct {
		Index int64 `json:"index"`
		Delta struct {
			Content   string                `json:"content"`
			ToolCalls []openAIToolCallPiece `json:"tool_calls"`
		} `json:"delta"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int64 `json:"prompt_tokens"`
		CompletionTokens int64 `json:"completion_tokens"`
	} `json:"usage"`
	// Error is set on an error sent in the middle of the stream.
	Error json.RawMessage `json:"error"`
}

// openAIToolCallPiece is one piece of a streamed tool call.
type openAIToolCallPiece struct {
	Index    int64  `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
	Extra *googleExtra `json:"extra_content"`
}

// Gemini's thought signature travels beside a tool call as
// extra_content.google.thought_signature, out and back: a Gemini 3 model
// refuses a tool round whose calls come back without theirs.
type (
	googleExtra struct {
		Google googleSignature `json:"google"`
	}
	googleSignature struct {
		ThoughtSignature string `json:"thought_signature"`
	}
)
