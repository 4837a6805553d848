package providers_test

import (
	"fmt"
	"net/http"
	"testing"

	"aiwork/shared/llm"
	"aiwork/shared/llm/providers"
)

// Gemini through its OpenAI-compatible endpoint (/v1beta/openai/): the same
// chat.completion.chunk stream as OpenAI's, the key as a Bearer token,
// max_tokens for the reply's length, errors in a list as Google sends them.
var googleWire = wire{
	label:       providers.LabelGoogle,
	model:       "gemini-1.5-flash",
	contentType: "text/event-stream",
	newProvider: func(t *testing.T, url string) llm.Provider {
		return providers.NewGoogle(providers.Options{APIKey: testKey, BaseURL: url + "/v1beta/openai/"})
	},
	open: func() [][]byte { return nil },
	delta: func(text string) []byte {
		return geminiChunk(fmt.Sprintf(`{"content":%s,"role":"assistant"}`, mustJSON(text)), "null", "")
	},
	close: func(u llm.Usage) [][]byte {
		usage := fmt.Sprintf(`,"usage":{"completion_tokens":%d,"prompt_tokens":%d,"total_tokens":%d}`, u.OutputTokens, u.InputTokens, u.InputTokens+u.OutputTokens)
		return [][]byte{geminiChunk(`{"content":"","role":"assistant"}`, `"stop"`, usage), []byte("data: [DONE]\n\n")}
	},
	fail: func(message string) []byte {
		return sseData(fmt.Sprintf(`{"error":{"code":503,"message":%s,"status":"UNAVAILABLE"}}`, mustJSON(message)))
	},
	midStatus: 503,
	httpError: func(w http.ResponseWriter, status int, message string) {
		st := "UNAUTHENTICATED"
		if status == http.StatusTooManyRequests {
			st = "RESOURCE_EXHAUSTED"
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprintf(w, `[{"error":{"code":%d,"message":%s,"status":%q}}]`, status, mustJSON(message), st)
	},
	checkRequest: func(t *testing.T, r *http.Request, body []byte) {
		if got, want := r.URL.Path, "/v1beta/openai/chat/completions"; got != want {
			t.Errorf("path = %q, want %q", got, want)
		}
		if got, want := r.Header.Get("Authorization"), "Bearer "+testKey; got != want {
			t.Errorf("Authorization = %q, want %q", got, want)
		}
		var req struct {
			Model         string `json:"model"`
			Stream        bool   `json:"stream"`
			StreamOptions struct {
				IncludeUsage bool `json:"include_usage"`
			} `json:"stream_options"`
			MaxTokens     int           `json:"max_tokens"`
			MaxCompletion int           `json:"max_completion_tokens"`
			Messages      []llm.Message `json:"messages"`
		}
		decodeBody(t, body, &req)
		if req.Model != "gemini-1.5-flash" || !req.Stream || !req.StreamOptions.IncludeUsage || req.MaxTokens != 321 || req.MaxCompletion != 0 {
			t.Errorf("request = %s, want model gemini-1.5-flash, stream, include_usage, max_tokens 321", body)
		}
		wantMessages(t, req.Messages, testConversation)
	},
}

func TestGoogle(t *testing.T) {
	t.Parallel()
	runWire(t, googleWire)
}

// geminiChunk is a chunk as Gemini's OpenAI-compatible endpoint sends it.
func geminiChunk(delta, finish, usage string) []byte {
	return sseData(fmt.Sprintf(`{"choices":[{"delta":%s,"finish_reason":%s,"index":0}],"created":1760000000,"id":"r1","model":"gemini-1.5-flash","object":"chat.completion.chunk"%s}`, delta, finish, usage))
}
