package chatapi_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"aiwork/shared/api/chatapi"
	"aiwork/shared/chat/chattest"
	"aiwork/shared/httpx"
	"aiwork/shared/llm"
)

func TestMessageRefusals(t *testing.T) {
	t.Parallel()
	up := chattest.Replies(llm.Usage{}, "never")
	s := newStack(t, 10*time.Second, map[string]llm.Provider{"openai": up})
	_, token := s.user()
	_, otherToken := s.user()
	conn := s.connect(token, "openai", "gpt-4o-mini")
	others := s.connect(otherToken, "anthropic", "claude-3-opus")

	tests := []struct {
		name   string
		token  string
		body   string
		status int
		detail string // a part of the detail, when it matters
	}{
		{"no token", "", chattest.MustJSON(msg{ConnectionID: conn, Message: "hi"}), 401, ""},
		{"bad token", token + "x", chattest.MustJSON(msg{ConnectionID: conn, Message: "hi"}), 401, ""},
		{"another user's connection", token, chattest.MustJSON(msg{ConnectionID: others, Message: "hi"}), 404, "Connection not found"},
		{"unknown connection", token, chattest.MustJSON(msg{ConnectionID: "nope", Message: "hi"}), 404, "Connection not found"},
		{"no connection id", token, `{"message":"hi"}`, 400, "connection_id"},
		{"empty message", token, chattest.MustJSON(msg{ConnectionID: conn, Message: ""}), 400, "Message is required"},
		{"whitespace message", token, chattest.MustJSON(msg{ConnectionID: conn, Message: " \n\t "}), 400, "Message is required"},
		{"model of another provider", token, chattest.MustJSON(msg{ConnectionID: conn, Message: "hi", Model: "claude-3-opus"}), 400, "This connection is for gpt-4o-mini; connect again to use claude-3-opus."},
		{"another model of the provider", token, chattest.MustJSON(msg{ConnectionID: conn, Message: "hi", Model: "gpt-4-turbo"}), 400, "This connection is for gpt-4o-mini; connect again to use gpt-4-turbo."},
		{"bad context role", token, chattest.MustJSON(msg{ConnectionID: conn, Message: "hi", Context: []llm.Message{{Role: "user", Content: "a"}, {Role: "tool", Content: "b"}}}), 400, "context[1].role"},
		{"context over the cap", token, chattest.MustJSON(msg{ConnectionID: conn, Message: "hi", Context: []llm.Message{{Role: "user", Content: strings.Repeat("a", chatapi.MaxContextChars)}}}), 413, "too long"},
		{"body over 512 KiB", token, chattest.MustJSON(msg{ConnectionID: conn, Message: strings.Repeat("b", chatapi.MaxBodyBytes)}), 413, "512 KiB"},
		{"malformed body", token, `{"connection_id":`, 400, "Malformed JSON"},
		{"no body", token, ``, 400, "body is required"},
		{"two answers", token, `{"connection_id":"` + conn + `","approval":{"token":"t","decision":"approve"},"elicitation":{"token":"t","action":"decline"}}`, 400, "not several"},
		{"a sign-in and an answer", token, `{"connection_id":"` + conn + `","signin":{"id":"s"},"elicitation":{"token":"t","action":"decline"}}`, 400, "not several"},
		{"approval without token or id", token, `{"connection_id":"` + conn + `","approval":{"token":" ","decision":"approve"}}`, 400, "approval.token or approval.id is required"},
		{"approval with a bad decision", token, `{"connection_id":"` + conn + `","approval":{"id":"a","decision":"maybe"}}`, 400, "approval.decision"},
		{"elicitation id too long", token, `{"connection_id":"` + conn + `","elicitation":{"id":"` + strings.Repeat("e", 201) + `","action":"accept"}}`, 400, "elicitation.token or elicitation.id is required"},
		{"elicitation with a bad action", token, `{"connection_id":"` + conn + `","elicitation":{"token":"t","action":"later"}}`, 400, "elicitation.action"},
		{"signin without token or id", token, `{"connection_id":"` + conn + `","signin":{}}`, 400, "signin.token or signin.id is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := s.do("POST", chatapi.Path, tt.token, tt.body)
			e := chattest.WantError(t, w, tt.status)
			if !strings.Contains(e.Detail, tt.detail) {
				t.Errorf("detail = %q, want it to mention %q", e.Detail, tt.detail)
			}
			if ct := w.Header().Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type = %q, want a JSON error, not a stream", ct)
			}
		})
	}
	if n := len(up.Requests()); n != 0 {
		t.Errorf("the upstream was called %d times for refused requests", n)
	}
}

// The context cap counts characters, not bytes: a conversation right at
// the cap goes through.
func TestMessageContextAtTheCap(t *testing.T) {
	t.Parallel()
	s := newStack(t, 10*time.Second, map[string]llm.Provider{"openai": chattest.Replies(llm.Usage{}, "ok")})
	_, token := s.user()
	conn := s.connect(token, "openai", "gpt-4o")
	msgText := "é?"
	w := s.send(token, msg{ConnectionID: conn, Message: msgText, Context: []llm.Message{{Role: "user", Content: strings.Repeat("é", chatapi.MaxContextChars-2)}}})
	if w.Code != http.StatusOK {
		t.Fatalf("status = %d, body %s", w.Code, w.Body)
	}
}

func TestMessageStreamsFrames(t *testing.T) {
	t.Parallel()
	deltas := []string{"Bon", "", "jour", ` "le" monde`, "\n\n```go\nx := 1\n```"}
	up := chattest.Replies(llm.Usage{InputTokens: 1200, OutputTokens: 300}, deltas...)
	s := newStack(t, 10*time.Second, map[string]llm.Provider{"openai": up})
	_, token := s.user()
	conn := s.connect(token, "openai", "gpt-4o-mini")

	w := s.send(token, msg{ConnectionID: conn, Message: "Say hello", Context: []llm.Message{
		{Role: "system", Content: "Be brief."},
		{Role: "user", Content: "Hi"},
		{Role: "assistant", Content: ""}, // a failed turn: dropped
		{Role: "assistant", Content: "Hello!"},
	}})
	if w.Code != http.StatusOK {
		t.Fatalf("status = %d, body %s", w.Code, w.Body)
	}
	if mt, _, _ := mime.ParseMediaType(w.Header().Get("Content-Type")); mt != "text/event-stream" {
		t.Errorf("Content-Type = %q, want text/event-stream", w.Header().Get("Content-Type"))
	}
	if cc := w.Header().Get("Cache-Control"); !strings.Contains(cc, "no-cache") {
		t.Errorf("Cache-Control = %q", cc)
	}
	got := chattest.Frames(w.Body.String())
	want := []string{chattest.ContentFrame("Bon"), chattest.ContentFrame("jour"), chattest.ContentFrame(` "le" monde`), chattest.ContentFrame("\n\n```go\nx := 1\n```")}
	if len(got) != len(want)+2 || !slices.Equal(got[:len(want)], want) {
		t.Fatalf("frames = %q, want %q then usage and [DONE]", got, want)
	}
	if got[len(got)-1] != chattest.DoneFrame {
		t.Errorf("last frame = %q, want [DONE]", got[len(got)-1])
	}
	usage := got[len(want)]
	if !strings.HasPrefix(usage, "data: ") || !strings.HasSuffix(usage, "\n\n") {
		t.Fatalf("usage frame = %q", usage)
	}
	var uf struct {
		Usage struct {
			InputTokens  int      `json:"input_tokens"`
			OutputTokens int      `json:"output_tokens"`
			CostUSD      *float64 `json:"cost_usd"`
		} `json:"usage"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimPrefix(usage, "data: "), "\n\n")), &uf); err != nil {
		t.Fatalf("usage frame %q: %v", usage, err)
	}
	// gpt-4o-mini: $0.15 in, $0.60 out per million tokens.
	if uf.Usage.InputTokens != 1200 || uf.Usage.OutputTokens != 300 || uf.Usage.CostUSD == nil || math.Abs(*uf.Usage.CostUSD-0.00036) > 1e-12 {
		t.Errorf("usage = %+v (cost %v), want 1200 in, 300 out, $0.00036", uf.Usage, uf.Usage.CostUSD)
	}

	reqs := up.Requests()
	if len(reqs) != 1 {
		t.Fatalf("upstream calls = %d, want 1", len(reqs))
	}
	wantMsgs := []llm.Message{{Role: "system", Content: "Be brief."}, {Role: "user", Content: "Hi"}, {Role: "assistant", Content: "Hello!"}, {Role: "user", Content: "Say hello"}}
	if r := reqs[0]; r.Model != "gpt-4o-mini" || r.MaxTokens != 4096 || !reflect.DeepEqual(r.Messages, wantMsgs) {
		t.Errorf("upstream request = %+v, want gpt-4o-mini, 4096 tokens, %+v", r, wantMsgs)
	}
}

// The message's model, when given, must be the connection's (a connection
// made for a cheap model cannot be used for a dear one); either way the
// upstream gets the model's API id.
func TestMessageModelChoice(t *testing.T) {
	t.Parallel()
	up := chattest.Replies(llm.Usage{}, "ok")
	s := newStack(t, 10*time.Second, map[string]llm.Provider{"meta": up})
	_, token := s.user()
	conn := s.connect(token, "meta", "llama-3.1-8b-instruct")
	for _, model := range []string{"", "llama-3.1-8b-instruct"} {
		if w := s.send(token, msg{ConnectionID: conn, Message: "hi", Model: model}); w.Code != http.StatusOK || !strings.HasSuffix(w.Body.String(), chattest.DoneFrame) {
			t.Fatalf("model %q: %d %s", model, w.Code, w.Body)
		}
	}
	w := s.send(token, msg{ConnectionID: conn, Message: "hi", Model: "llama-3.1-70b-instruct"})
	if e := chattest.WantError(t, w, http.StatusBadRequest); e.Detail != "This connection is for llama-3.1-8b-instruct; connect again to use llama-3.1-70b-instruct." {
		t.Errorf("detail = %q", e.Detail)
	}
	var got []string
	for _, r := range up.Requests() {
		got = append(got, r.Model)
	}
	if want := []string{"meta.llama3-1-8b-instruct-v1:0", "meta.llama3-1-8b-instruct-v1:0"}; !slices.Equal(got, want) {
		t.Errorf("API model ids = %q, want %q (the refused message never reaches the upstream)", got, want)
	}
}

func TestMessageUpstreamErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		err    error
		detail string
	}{
		{"401", &llm.UpstreamError{Provider: "Anthropic", Status: 401, Detail: "invalid x-api-key"},
			"Anthropic refused the API key (HTTP 401). Check the provider key configured on the server."},
		{"429", &llm.UpstreamError{Provider: "Anthropic", Status: 429, Detail: "rate limited"},
			"Anthropic is rate limiting requests (HTTP 429). Wait a moment and try again."},
		{"500", &llm.UpstreamError{Provider: "Anthropic", Status: 500, Detail: "boom"},
			"Anthropic is having trouble (HTTP 500). Try again shortly."},
		{"400", &llm.UpstreamError{Provider: "Anthropic", Status: 400, Detail: "prompt is too long"},
			"Anthropic refused the request (HTTP 400): prompt is too long"},
		{"mid-stream", &llm.UpstreamError{Provider: "Anthropic", Detail: "Overloaded"},
			"Anthropic: Overloaded"},
		{"not an upstream error", errors.New("dial tcp: connection refused"),
			"The model provider failed to answer. Please try again."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newStack(t, 10*time.Second, map[string]llm.Provider{"anthropic": chattest.Fails(tt.err, "Par")})
			_, token := s.user()
			conn := s.connect(token, "anthropic", "claude-3-5-sonnet")
			w := s.send(token, msg{ConnectionID: conn, Message: "hi"})
			if w.Code != http.StatusOK {
				t.Fatalf("status = %d", w.Code)
			}
			got := chattest.Frames(w.Body.String())
			want := []string{chattest.ContentFrame("Par"), chattest.ErrorFrame(tt.detail)}
			if !slices.Equal(got, want) {
				t.Errorf("frames = %q, want %q (no [DONE])", got, want)
			}
		})
	}
}

func TestMessageStall(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	t.Cleanup(func() { close(release) }) // frees a handler that failed to cancel
	stuck := chattest.Holds(release, "Bon", "never")
	s := newStack(t, 200*time.Millisecond, map[string]llm.Provider{"google": stuck})
	_, token := s.user()
	conn := s.connect(token, "google", "gemini-1.5-flash")
	start := time.Now()
	w := s.sendWithin(token, msg{ConnectionID: conn, Message: "hi"}, patience)
	if el := time.Since(start); el < 200*time.Millisecond || el > patience {
		t.Errorf("stream ended after %v, want about the 200ms stall timeout", el)
	}
	if got, want := chattest.Frames(w.Body.String()), []string{chattest.ContentFrame("Bon"), chattest.ErrorFrame("Stream timeout")}; !slices.Equal(got, want) {
		t.Errorf("frames = %q, want %q", got, want)
	}
	select {
	case <-stuck.Ended:
	default:
		t.Error("the upstream call was not cancelled")
	}
}

// An upstream that never sends a first chunk times out the same way.
func TestMessageStallBeforeFirstChunk(t *testing.T) {
	t.Parallel()
	silent := chattest.NewUpstream(func(ctx context.Context, _ llm.Request, _ func(string) error) (llm.Usage, error) {
		select {
		case <-ctx.Done():
			return llm.Usage{}, ctx.Err()
		case <-time.After(patience):
			return llm.Usage{}, nil
		}
	})
	s := newStack(t, 150*time.Millisecond, map[string]llm.Provider{"meta": silent})
	_, token := s.user()
	conn := s.connect(token, "meta", "llama-3.1-70b-instruct")
	w := s.sendWithin(token, msg{ConnectionID: conn, Message: "hi"}, patience)
	if got, want := chattest.Frames(w.Body.String()), []string{chattest.ErrorFrame("Stream timeout")}; !slices.Equal(got, want) {
		t.Errorf("frames = %q, want %q", got, want)
	}
}

// The stall timeout counts from the last chunk: a slow but steady stream
// runs longer than the timeout (5 × 300 ms against 1 s; the gap leaves a
// busy machine 700 ms of scheduling slack per chunk).
func TestMessageSteadyStreamOutlivesStallTimeout(t *testing.T) {
	t.Parallel()
	slow := chattest.NewUpstream(func(ctx context.Context, _ llm.Request, emit func(string) error) (llm.Usage, error) {
		for i := range 5 {
			select {
			case <-time.After(300 * time.Millisecond):
			case <-ctx.Done():
				return llm.Usage{}, ctx.Err()
			}
			if err := emit(fmt.Sprint(i)); err != nil {
				return llm.Usage{}, err
			}
		}
		return llm.Usage{}, nil
	})
	s := newStack(t, time.Second, map[string]llm.Provider{"openai": slow})
	_, token := s.user()
	conn := s.connect(token, "openai", "gpt-4o")
	w := s.sendWithin(token, msg{ConnectionID: conn, Message: "hi"}, patience)
	got := chattest.Frames(w.Body.String())
	if len(got) != 7 || got[4] != chattest.ContentFrame("4") || got[6] != chattest.DoneFrame {
		t.Errorf("frames = %q, want 5 chunks, usage, [DONE]", got)
	}
}

// A client that goes away cancels the upstream call.
func TestMessageClientDisconnect(t *testing.T) {
	t.Parallel()
	held := chattest.Holds(make(chan struct{}), "Bon", "never")
	s := newStack(t, 30*time.Second, map[string]llm.Provider{"openai": held})
	_, token := s.user()
	conn := s.connect(token, "openai", "gpt-4o-mini")
	srv := httptest.NewServer(s.h)
	defer srv.Close()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res := chattest.Post(t, ctx, srv.URL, token, msg{ConnectionID: conn, Message: "hi"})
	defer res.Body.Close()
	if got := chattest.ReadFrame(t, bufio.NewReader(res.Body), patience); got != chattest.ContentFrame("Bon") {
		t.Fatalf("first frame = %q", got)
	}
	select {
	case <-held.Ended:
		t.Fatal("the upstream was cancelled before the client left")
	default:
	}
	cancel()
	select {
	case <-held.Ended:
	case <-time.After(patience):
		t.Fatal("the upstream call was not cancelled within 2s of the client leaving")
	}
}

// Through the devserver's stack (access log, route mount, a real HTTP
// server and client), the first chunk reaches the client while the
// upstream still holds the rest: nothing is buffered on the way.
func TestMessageNotBufferedThroughDevserver(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	up := chattest.Holds(release, "first", " second", " third")
	s := newStack(t, 30*time.Second, map[string]llm.Provider{"openai": up})
	_, token := s.user()
	conn := s.connect(token, "openai", "gpt-4o-mini")
	srv := httptest.NewServer(httpx.AccessLog(s.h))
	defer srv.Close()

	res := chattest.Post(t, context.Background(), srv.URL, token, msg{ConnectionID: conn, Message: "hi"})
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status = %d", res.StatusCode)
	}
	if mt, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type")); mt != "text/event-stream" {
		t.Errorf("Content-Type = %q", res.Header.Get("Content-Type"))
	}
	r := bufio.NewReader(res.Body)
	if got := chattest.ReadFrame(t, r, patience); got != chattest.ContentFrame("first") {
		t.Fatalf("first frame = %q", got)
	}
	close(release)
	rest, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	got := chattest.Frames(string(rest))
	if len(got) != 4 || got[0] != chattest.ContentFrame(" second") || got[1] != chattest.ContentFrame(" third") || !strings.HasPrefix(got[2], `data: {"usage":`) || got[3] != chattest.DoneFrame {
		t.Errorf("rest = %q", got)
	}
}
