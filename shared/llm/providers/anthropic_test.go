package providers_test

import (
	"fmt"
	"net/http"
	"testing"

	"aiwork/shared/llm"
	"aiwork/shared/llm/providers"
)

// Anthropic Messages streaming: SSE events message_start (input usage),
// content_block_start, content_block_delta (text_delta), ping,
// content_block_stop, message_delta (output usage), message_stop.
var anthropicWire = wire{
	label:       providers.LabelAnthropic,
	model:       "claude-3-5-sonnet-latest",
	contentType: "text/event-stream; charset=utf-8",
	newProvider: func(t *testing.T, url string) llm.Provider {
		return providers.NewAnthropic(providers.Options{APIKey: testKey, BaseURL: url})
	},
	midStatus: 529,
	open: func() [][]byte {
		return [][]byte{
			sseEvent("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-3-5-sonnet-20241022","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":31,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1}}}`),
			sseEvent("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`),
			sseEvent("ping", `{"type": "ping"}`),
		}
	},
	delta: func(text string) []byte {
		return sseEvent("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":%s}}`, mustJSON(text)))
	},
	close: func(u llm.Usage) [][]byte {
		return [][]byte{
			sseEvent("content_block_stop", `{"type":"content_block_stop","index":0}`),
			sseEvent("message_delta", fmt.Sprintf(`{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":%d}}`, u.OutputTokens)),
			sseEvent("message_stop", `{"type":"message_stop"}`),
		}
	},
	fail: func(message string) []byte {
		return sseEvent("error", fmt.Sprintf(`{"type":"error","error":{"type":"overloaded_error","message":%s}}`, mustJSON(message)))
	},
	httpError: func(w http.ResponseWriter, status int, message string) {
		typ := "authentication_error"
		if status == http.StatusTooManyRequests {
			typ = "rate_limit_error"
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Request-Id", "req_test")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"type":"error","error":{"type":%q,"message":%s},"request_id":"req_test"}`, typ, mustJSON(message))
	},
	checkRequest: func(t *testing.T, r *http.Request, body []byte) {
		if got, want := r.URL.Path, "/v1/messages"; got != want {
			t.Errorf("path = %q, want %q", got, want)
		}
		if got := r.Header.Get("X-Api-Key"); got != testKey {
			t.Errorf("x-api-key = %q, want the key", got)
		}
		if r.Header.Get("Anthropic-Version") == "" {
			t.Error("no anthropic-version header")
		}
		type block struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		var req struct {
			Model     string  `json:"model"`
			Stream    bool    `json:"stream"`
			MaxTokens int     `json:"max_tokens"`
			System    []block `json:"system"`
			Messages  []struct {
				Role    string  `json:"role"`
				Content []block `json:"content"`
			} `json:"messages"`
		}
		decodeBody(t, body, &req)
		if req.Model != "claude-3-5-sonnet-latest" || !req.Stream || req.MaxTokens != 321 {
			t.Errorf("request = %s, want the model, stream, max_tokens 321", body)
		}
		if len(req.System) != 1 || req.System[0] != (block{"text", "Answer briefly."}) {
			t.Errorf("system = %+v, want the system message as one text block", req.System)
		}
		var got []llm.Message
		for _, m := range req.Messages {
			if len(m.Content) != 1 || m.Content[0].Type != "text" {
				t.Fatalf("content = %+v, want one text block", m.Content)
			}
			got = append(got, llm.Message{Role: m.Role, Content: m.Content[0].Text})
		}
		wantMessages(t, got, testConversation[1:])
	},
}

func TestAnthropic(t *testing.T) {
	t.Parallel()
	runWire(t, anthropicWire)
}
