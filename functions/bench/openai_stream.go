package main

import (
	"encoding/json"
	"io"
	"net/http"
)

// openAIStream writes a chat completion as OpenAI streams it (server-sent
// chunks), for the bench's stand-in models (capacity, tools, chat length).
type openAIStream struct {
	w  io.Writer
	rc *http.ResponseController
	id string
}

// startOpenAIStream answers 200 with an event stream whose chunks carry id.
func startOpenAIStream(w http.ResponseWriter, id string) *openAIStream {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	s := &openAIStream{w: w, rc: http.NewResponseController(w), id: id}
	_ = s.rc.Flush()
	return s
}

func (s *openAIStream) send(v map[string]any) error {
	v["id"], v["object"], v["created"], v["model"] = s.id, "chat.completion.chunk", 1700000000, "gpt-4o-mini"
	b, _ := json.Marshal(v)
	if _, err := io.WriteString(s.w, "data: "+string(b)+"\n\n"); err != nil {
		return err
	}
	return s.rc.Flush()
}

func (s *openAIStream) delta(delta map[string]any, finish any) error {
	return s.send(map[string]any{"choices": []map[string]any{{"index": 0, "delta": delta, "finish_reason": finish}}})
}

// content streams a piece of the reply's text; an error once the reader left.
func (s *openAIStream) content(text string) error {
	return s.delta(map[string]any{"content": text}, nil)
}

// toolCall asks for the tool name with the JSON arguments args, as two
// chunks (the call, then its arguments).
func (s *openAIStream) toolCall(name, args string) {
	_ = s.delta(map[string]any{"role": "assistant", "tool_calls": []map[string]any{{"index": 0, "id": "call_1", "type": "function",
		"function": map[string]any{"name": name, "arguments": ""}}}}, nil)
	_ = s.delta(map[string]any{"tool_calls": []map[string]any{{"index": 0, "function": map[string]any{"arguments": args}}}}, nil)
}

// end finishes the reply for reason with its usage, then [DONE].
func (s *openAIStream) end(reason string, completionTokens int) {
	_ = s.delta(map[string]any{}, reason)
	_ = s.send(map[string]any{"choices": []any{}, "usage": map[string]int{"prompt_tokens": 20, "completion_tokens": completionTokens,
		"total_tokens": completionTokens + 20}})
	_, _ = io.WriteString(s.w, "data: [DONE]\n\n")
	_ = s.rc.Flush()
}
