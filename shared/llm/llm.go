// Package llm streams chat replies from model providers behind one
// interface: OpenAI, Anthropic, Google Gemini, Meta Llama on Bedrock, and a
// local demo model used when a provider has no key.
package llm

import (
	"context"
	"fmt"
)

// Message is one turn of a conversation.
type Message struct {
	Role    string `json:"role"` // user | assistant | system
	Content string `json:"content"`
}

// Request is one reply to stream.
type Request struct {
	// Model is the provider's API model id (already mapped from SPEC's name).
	Model     string
	Messages  []Message
	MaxTokens int
}

// Usage is what a reply consumed.
type Usage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

// Provider streams a reply, calling emit with each text delta as it arrives.
// It stops when ctx is cancelled (the client went away) and returns what the
// upstream reported as usage.
type Provider interface {
	Stream(ctx context.Context, req Request, emit func(delta string) error) (Usage, error)
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
