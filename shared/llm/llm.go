// Package llm streams chat replies from model providers behind one
// interface: OpenAI, Anthropic, Google Gemini, Meta Llama on Bedrock, and a
// local demo model used when a provider has no key. A reply is a stream of
// events: text deltas, complete tool calls and the reason it stopped.
package llm

import (
	"context"
	"encoding/json"
	"fmt"
)

// Message is one turn of a conversation. Only Role and Content come from a
// client (the JSON names); tool calls and results are made by the server's
// tool loop and never decoded from a request.
type Message struct {
	Role    string `json:"role"` // user | assistant | system | tool
	Content string `json:"content"`
	// ToolCalls are the calls an assistant turn made (with its Content,
	// possibly empty, said before them).
	ToolCalls []ToolCall `json:"-"`
	// ToolResults answer the previous assistant turn's calls: a turn of
	// role "tool" carries them, in the calls' order, and no Content.
	ToolResults []ToolResult `json:"-"`
}

// Tool is a function a model may call.
type Tool struct {
	// Name as the model sees it: at most 64 of [a-zA-Z0-9_-] (the strictest
	// provider's rule; the chat engine namespaces and cuts MCP tool names
	// so).
	Name        string
	Description string
	// InputSchema is a JSON Schema object ({"type":"object",...}).
	InputSchema json.RawMessage
}

// ToolCall is a model's complete request to call a tool.
type ToolCall struct {
	ID   string // the provider's call id, echoed in the result
	Name string
	// Arguments is the JSON object text the model produced, complete
	// (assembled from every delta); not validated here.
	Arguments string
	// Signature is opaque data the provider attached to the call and wants
	// back with it in the next request (Gemini's thought signature); "" for
	// most.
	Signature string
}

// ToolResult is a tool call's outcome as it goes back to the model: data in
// the provider's tool-result slot, never instructions in the user's text.
type ToolResult struct {
	CallID  string
	Name    string // the called tool's Name (Gemini's and Bedrock's shapes want it)
	Content string
	IsError bool
}

// Request is one reply to stream.
type Request struct {
	// Model is the provider's API model id (already mapped from SPEC's name).
	Model     string
	Messages  []Message
	MaxTokens int
	// Tools the model may call; none: a plain reply.
	Tools []Tool
}

// Usage is what a reply consumed.
type Usage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

// Stop reasons, normalised across providers.
const (
	StopEnd       = "end"        // the model finished its turn
	StopToolCalls = "tool_calls" // the model wants its tool calls answered
	StopMaxTokens = "max_tokens" // cut at the token limit
	StopOther     = "other"      // content filter, unknown
)

// Event is one thing a reply stream says; exactly one field is set.
type Event struct {
	// Text is a delta of the reply's text.
	Text string
	// ToolCall is a complete call, emitted once its arguments are whole (a
	// provider streams them in pieces; the adapter assembles them).
	ToolCall *ToolCall
	// Stop is why the turn ended (Stop* constants), emitted once, last.
	Stop string
}

// Provider streams a reply, calling emit with each event as it arrives. It
// stops when ctx is cancelled (the client went away) and returns what the
// upstream reported as usage. An error from emit ends the stream and is
// returned.
type Provider interface {
	Stream(ctx context.Context, req Request, emit func(Event) error) (Usage, error)
}

// TextOnly adapts a text callback to Stream's events, ignoring the others:
// for callers that offer no tools.
func TextOnly(emit func(delta string) error) func(Event) error {
	return func(e Event) error {
		if e.Text == "" {
			return nil
		}
		return emit(e.Text)
	}
}

// UpstreamError is a provider's HTTP failure, with a detail fit for users.
type UpstreamError struct {
	Provider string
	Status   int
	Detail   string
}

func (e *UpstreamError) Error() string {
	if e.Status == 0 {
		return fmt.Sprintf("%s: %s", e.Provider, e.Detail)
	}
	return fmt.Sprintf("%s answered %d: %s", e.Provider, e.Status, e.Detail)
}
