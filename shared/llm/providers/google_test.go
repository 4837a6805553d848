package providers_test

import (
	"fmt"
	"net/http"
	"testing"

	"aiwork/shared/llm"
	"aiwork/shared/llm/providers"
)

// Gemini API streamGenerateContent?alt=sse: SSE "data:" lines, each a
// GenerateContentResponse with candidates[].content.parts[].text and
// usageMetadata, separated by CRLF pairs as Google sends them.
var googleWire = wire{
	label:       providers.LabelGoogle,
	model:       "gemini-1.5-flash",
	contentType: "text/event-stream",
	newProvider: func(t *testing.T, url string) llm.Provider {
		g, err := providers.NewGoogle(t.Context(), providers.Options{APIKey: testKey, BaseURL: url + "/"})
		if err != nil {
			t.Fatal(err)
		}
		return g
	},
	open: func() [][]byte { return nil },
	delta: func(text string) []byte {
		return geminiData(fmt.Sprintf(`{"candidates":[{"content":{"parts":[{"text":%s}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":31,"totalTokenCount":31},"modelVersion":"gemini-1.5-flash-002","responseId":"r1"}`, mustJSON(text)))
	},
	close: func(u llm.Usage) [][]byte {
		return [][]byte{geminiData(fmt.Sprintf(`{"candidates":[{"content":{"parts":[{"text":""}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":%d,"candidatesTokenCount":%d,"totalTokenCount":%d},"modelVersion":"gemini-1.5-flash-002","responseId":"r1"}`,
			u.InputTokens, u.OutputTokens, u.InputTokens+u.OutputTokens))}
	},
	fail: func(message string) []byte {
		return geminiData(fmt.Sprintf(`{"error":{"code":503,"message":%s,"status":"UNAVAILABLE"}}`, mustJSON(message)))
	},
	midStatus: 503,
	httpError: func(w http.ResponseWriter, status int, message string) {
		st := "UNAUTHENTICATED"
		if status == http.StatusTooManyRequests {
			st = "RESOURCE_EXHAUSTED"
		}
		w.Header().Set("Content-Type", "application/json; charset=UTF-8")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"error":{"code":%d,"message":%s,"status":%q}}`, status, mustJSON(message), st)
	},
	checkRequest: func(t *testing.T, r *http.Request, body []byte) {
		if got, want := r.URL.Path, "/v1beta/models/gemini-1.5-flash:streamGenerateContent"; got != want {
			t.Errorf("path = %q, want %q", got, want)
		}
		if got := r.URL.Query().Get("alt"); got != "sse" {
			t.Errorf("alt = %q, want sse", got)
		}
		if got := r.Header.Get("X-Goog-Api-Key"); got != testKey {
			t.Errorf("x-goog-api-key = %q, want the key", got)
		}
		type content struct {
			Role  string `json:"role"`
			Parts []struct {
				Text string `json:"text"`
			} `json:"parts"`
		}
		var req struct {
			Contents          []content `json:"contents"`
			SystemInstruction content   `json:"systemInstruction"`
			GenerationConfig  struct {
				MaxOutputTokens int `json:"maxOutputTokens"`
			} `json:"generationConfig"`
		}
		decodeBody(t, body, &req)
		if len(req.SystemInstruction.Parts) != 1 || req.SystemInstruction.Parts[0].Text != "Answer briefly." {
			t.Errorf("systemInstruction = %+v, want the system message", req.SystemInstruction)
		}
		if req.GenerationConfig.MaxOutputTokens != 321 {
			t.Errorf("maxOutputTokens = %d, want 321", req.GenerationConfig.MaxOutputTokens)
		}
		var got []llm.Message
		for _, c := range req.Contents {
			if len(c.Parts) != 1 {
				t.Fatalf("parts = %+v, want one", c.Parts)
			}
			got = append(got, llm.Message{Role: c.Role, Content: c.Parts[0].Text})
		}
		want := []llm.Message{
			{Role: "user", Content: "Hello there."},
			{Role: "model", Content: "Hi! How can I help?"},
			{Role: "user", Content: "Say hello in French."},
		}
		wantMessages(t, got, want)
	},
}

func TestGoogle(t *testing.T) {
	t.Parallel()
	runWire(t, googleWire)
}

func geminiData(data string) []byte { return []byte("data: " + data + "\r\n\r\n") }
