package providers_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"aiwork/shared/llm"
)

// The OpenAI adapter on the shapes of SSE a provider or a proxy in front of
// it may send: each reply is read whole, and one that ends before its
// finish reason is reported cut.
func TestSSEShapes(t *testing.T) {
	t.Parallel()
	chunk := func(text string) string {
		return fmt.Sprintf(`{"choices":[{"index":0,"delta":{"content":%s}}]}`, mustJSON(text))
	}
	end := `{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`
	big := strings.Repeat("é", 1<<20) // a 2 MB line
	cases := []struct {
		name string
		body string
		want []string
		cut  bool // the reply ends with a cut stream's error after want
	}{
		{"plain", "data: " + chunk("a") + "\n\ndata: " + chunk("b") + "\n\ndata: " + end + "\n\ndata: [DONE]\n\n", []string{"a", "b"}, false},
		{"keep-alive comments", ": keep-alive\n\ndata: " + chunk("a") + "\n\n: ping\n\ndata: " + chunk("b") + "\n\ndata: " + end + "\n\n", []string{"a", "b"}, false},
		{"CRLF line ends", "data: " + chunk("a") + "\r\n\r\ndata: " + end + "\r\n\r\ndata: [DONE]\r\n\r\n", []string{"a"}, false},
		{"no space after the colon", "data:" + chunk("a") + "\n\ndata:" + end + "\n\n", []string{"a"}, false},
		{"named events, id and retry fields", "event: chunk\nid: 7\nretry: 10\ndata: " + chunk("a") + "\n\ndata: " + end + "\n\n", []string{"a"}, false},
		{"data on two lines", "data: {\"choices\":[{\"index\":0,\ndata: \"delta\":{\"content\":\"a\"},\"finish_reason\":\"stop\"}]}\n\n", []string{"a"}, false},
		{"nothing read after [DONE]", "data: " + chunk("a") + "\n\ndata: " + end + "\n\ndata: [DONE]\n\ndata: " + chunk("late") + "\n\n", []string{"a"}, false},
		{"a long line", "data: " + chunk(big) + "\n\ndata: " + end + "\n\n", []string{big}, false},
		{"an event cut before its blank line is dropped", "data: " + chunk("a") + "\n\ndata: " + chunk("b"), []string{"a"}, true},
		{"[DONE] without a finish reason", "data: " + chunk("a") + "\n\ndata: [DONE]\n\n", []string{"a"}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				_, _ = w.Write([]byte(tc.body))
			})
			var got []string
			_, err := openaiWire.newProvider(t, up.URL).Stream(t.Context(), request("gpt-4o"), func(e llm.Event) error {
				if e.Text != "" {
					got = append(got, e.Text)
				}
				return nil
			})
			if kind := errorKind(err); tc.cut && kind != kindCut {
				t.Errorf("err = %v, shown as %q; want a cut stream", err, kind)
			} else if !tc.cut && err != nil {
				t.Fatalf("Stream: %v", err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("deltas = %.80q, want %.80q", got, tc.want)
			}
		})
	}
}
