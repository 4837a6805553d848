package chatapi_test

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"aiwork/shared/api/chatapi"
	"aiwork/shared/api/conversationsapi"
	"aiwork/shared/api/mcpapi"
	"aiwork/shared/api/usersapi"
	"aiwork/shared/auth"
	"aiwork/shared/llm"
	"aiwork/shared/local/localmcp/localmcptest"
	"aiwork/shared/routes"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// patience bounds a wait for something that normally takes milliseconds:
// generous, so a busy machine never fails a test that would pass; waits end
// as soon as their condition holds, so it costs nothing when all is well.
const patience = 30 * time.Second

func TestMain(m *testing.M) {
	code := storetest.Main(m)
	localmcptest.Stop()
	os.Exit(code)
}

var secret = []byte(strings.Repeat("c", 32))

// stack is the chat and mcp route groups, mounted the way the devserver
// mounts them, on a fresh table, with the LLM upstreams played by fakes:
// an LLM provider is the one thing a test cannot reach.
type stack struct {
	t      *testing.T
	h      http.Handler
	st     *store.Store
	tokens *auth.Tokens
}

func newStack(t *testing.T, stall time.Duration, upstreams map[string]llm.Provider) *stack {
	t.Helper()
	return newStackWith(t, chatapi.Options{StallTimeout: stall}, upstreams)
}

// newStackWith is newStack with the chat options (limits, clock) given,
// and the users group mounted too, reading the same limits and clock.
func newStackWith(t *testing.T, opts chatapi.Options, upstreams map[string]llm.Provider) *stack {
	t.Helper()
	return newStackTokens(t, opts, upstreams, func(*store.Store) *auth.Tokens { return auth.NewTokens(secret, time.Hour) })
}

// newSessionStack is newStackWith checking each token's session, as
// deployed: users come from sessionUser.
func newSessionStack(t *testing.T, opts chatapi.Options, upstreams map[string]llm.Provider) *stack {
	t.Helper()
	return newStackTokens(t, opts, upstreams, func(st *store.Store) *auth.Tokens {
		return auth.NewTokens(secret, time.Hour).WithSessions(st)
	})
}

func newStackTokens(t *testing.T, opts chatapi.Options, upstreams map[string]llm.Provider, newTokens func(*store.Store) *auth.Tokens) *stack {
	t.Helper()
	return newStackMCP(t, opts, upstreams, newTokens, mcpapi.Options{})
}

// newStackMCP is newStackTokens with the mcp group's options (connects to
// real MCP servers).
func newStackMCP(t *testing.T, opts chatapi.Options, upstreams map[string]llm.Provider, newTokens func(*store.Store) *auth.Tokens, mcpOpts mcpapi.Options) *stack {
	t.Helper()
	return mountStack(t, storetest.New(t), opts, upstreams, newTokens, mcpOpts)
}

// mountStack is newStackMCP on a given store (one reached through a fault
// proxy, say).
func mountStack(t *testing.T, st *store.Store, opts chatapi.Options, upstreams map[string]llm.Provider, newTokens func(*store.Store) *auth.Tokens, mcpOpts mcpapi.Options) *stack {
	t.Helper()
	tokens := newTokens(st)
	reg := llm.NewRegistry(0)
	real := map[string]bool{}
	for id, p := range upstreams {
		reg.Use(id, p)
		real[id] = true
	}
	h, err := routes.Mount(map[string]http.Handler{
		"mcp":   mcpapi.New(st, tokens, real, mcpOpts).Handler(),
		"chat":  chatFunction(t, chatapi.New(st, tokens, reg, opts), conversationsapi.New(st, tokens, conversationsapi.Options{Now: opts.Now})),
		"users": usersapi.New(st, tokens, usersapi.Options{ChatLimits: opts.Limits, Now: opts.Now}).Handler(),
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &stack{t: t, h: h, st: st, tokens: tokens}
}

// chatFunction is the chat function's handler: the chat group and the
// conversations it keeps replies with, as its Lambda mounts them.
func chatFunction(t *testing.T, chat *chatapi.Service, conversations *conversationsapi.Service) http.Handler {
	t.Helper()
	h, err := routes.Function("chat", map[string]http.Handler{"chat": chat.Handler(), "conversations": conversations.Handler()})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// user answers a new user's token.
func (s *stack) user() (uid, token string) {
	s.t.Helper()
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	uid = "u-" + hex.EncodeToString(b)
	token, err := s.tokens.Issue(uid)
	storetest.Must(s.t, err, "token")
	return uid, token
}

// connect opens a chat connection through the API and answers its id.
func (s *stack) connect(token, provider, model string) string {
	s.t.Helper()
	w := s.do("POST", "/api/v1/mcp-connections/"+provider, token, `{"model":"`+model+`"}`)
	if w.Code != http.StatusOK {
		s.t.Fatalf("connect %s: %d %s", provider, w.Code, w.Body)
	}
	var c struct{ ID string }
	if err := json.Unmarshal(w.Body.Bytes(), &c); err != nil || c.ID == "" {
		s.t.Fatalf("connect body %s: %v", w.Body, err)
	}
	return c.ID
}

func (s *stack) do(method, path, token, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	w := httptest.NewRecorder()
	s.h.ServeHTTP(w, req)
	return w
}

// send posts a message to the stream.
func (s *stack) send(token string, in any) *httptest.ResponseRecorder {
	s.t.Helper()
	b, err := json.Marshal(in)
	if err != nil {
		s.t.Fatal(err)
	}
	return s.do("POST", chatapi.Path, token, string(b))
}

// sendWithin is send failing the test when no answer comes in time.
func (s *stack) sendWithin(token string, in any, d time.Duration) *httptest.ResponseRecorder {
	s.t.Helper()
	b, err := json.Marshal(in)
	if err != nil {
		s.t.Fatal(err)
	}
	ch := make(chan *httptest.ResponseRecorder, 1)
	go func() { ch <- s.do("POST", chatapi.Path, token, string(b)) }()
	select {
	case w := <-ch:
		return w
	case <-time.After(d):
		s.t.Fatalf("no complete answer within %v", d)
		return nil
	}
}

type msg struct {
	ConnectionID string        `json:"connection_id"`
	Message      string        `json:"message"`
	Model        string        `json:"model,omitempty"`
	Context      []llm.Message `json:"context"`
	// ConversationID keeps the message with a conversation.
	ConversationID string `json:"conversation_id,omitempty"`
}

type errorJSON struct {
	Detail string `json:"detail"`
	Code   string `json:"code"`
}

func wantError(t *testing.T, w *httptest.ResponseRecorder, status int) errorJSON {
	t.Helper()
	if w.Code != status {
		t.Fatalf("status = %d, want %d; body %s", w.Code, status, w.Body)
	}
	var e errorJSON
	if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || e.Detail == "" || e.Code == "" {
		t.Fatalf("error body %s: %v", w.Body, err)
	}
	return e
}

// upstream is a fake LLM provider: script plays its reply. It records each
// request and closes ended when a call's context is cancelled.
type upstream struct {
	script func(ctx context.Context, req llm.Request, emit func(string) error) (llm.Usage, error)
	// events, when set, plays the reply as events (tool calls) instead.
	events func(ctx context.Context, req llm.Request, emit func(llm.Event) error) (llm.Usage, error)
	mu     sync.Mutex
	reqs   []llm.Request
	ended  chan struct{}
	once   sync.Once
}

var _ llm.Provider = (*upstream)(nil)

func newUpstream(script func(ctx context.Context, req llm.Request, emit func(string) error) (llm.Usage, error)) *upstream {
	return &upstream{script: script, ended: make(chan struct{})}
}

func (u *upstream) Stream(ctx context.Context, req llm.Request, emit func(llm.Event) error) (llm.Usage, error) {
	u.mu.Lock()
	u.reqs = append(u.reqs, req)
	u.mu.Unlock()
	end := func() { u.once.Do(func() { close(u.ended) }) }
	stop := context.AfterFunc(ctx, end)
	var usage llm.Usage
	var err error
	if u.events != nil {
		usage, err = u.events(ctx, req, emit)
	} else {
		usage, err = u.script(ctx, req, func(s string) error { return emit(llm.Event{Text: s}) })
	}
	// The handler cancels the context once the call is over: only a
	// cancel seen during the call counts.
	stop()
	if ctx.Err() != nil {
		end()
	}
	return usage, err
}

func (u *upstream) requests() []llm.Request {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]llm.Request(nil), u.reqs...)
}

// replies is an upstream that emits the deltas and answers the usage.
func replies(usage llm.Usage, deltas ...string) *upstream {
	return newUpstream(func(ctx context.Context, _ llm.Request, emit func(string) error) (llm.Usage, error) {
		for _, d := range deltas {
			if err := emit(d); err != nil {
				return llm.Usage{}, err
			}
		}
		return usage, nil
	})
}

// fails is an upstream that emits the deltas, then fails with err.
func fails(err error, deltas ...string) *upstream {
	return newUpstream(func(ctx context.Context, _ llm.Request, emit func(string) error) (llm.Usage, error) {
		for _, d := range deltas {
			if err := emit(d); err != nil {
				return llm.Usage{}, err
			}
		}
		return llm.Usage{}, err
	})
}

// holds is an upstream that emits first, then waits for release (or for
// its context to end), then emits rest.
func holds(release <-chan struct{}, first string, rest ...string) *upstream {
	return newUpstream(func(ctx context.Context, _ llm.Request, emit func(string) error) (llm.Usage, error) {
		if err := emit(first); err != nil {
			return llm.Usage{}, err
		}
		select {
		case <-release:
		case <-ctx.Done():
			return llm.Usage{}, ctx.Err()
		}
		for _, d := range rest {
			if err := emit(d); err != nil {
				return llm.Usage{}, err
			}
		}
		return llm.Usage{InputTokens: 10, OutputTokens: 3}, nil
	})
}

// frames splits an SSE body into its frames, each with its final blank line.
func frames(body string) []string {
	var out []string
	for body != "" {
		i := strings.Index(body, "\n\n")
		if i < 0 {
			out = append(out, body)
			break
		}
		out = append(out, body[:i+2])
		body = body[i+2:]
	}
	return out
}

// readFrame reads one SSE frame, failing the test after timeout: a server
// that buffers its stream fails instead of hanging.
func readFrame(t *testing.T, r *bufio.Reader, timeout time.Duration) string {
	t.Helper()
	type result struct {
		frame string
		err   error
	}
	ch := make(chan result, 1)
	go func() {
		var b strings.Builder
		for {
			line, err := r.ReadString('\n')
			b.WriteString(line)
			if err != nil {
				ch <- result{b.String(), err}
				return
			}
			if line == "\n" {
				ch <- result{b.String(), nil}
				return
			}
		}
	}()
	select {
	case res := <-ch:
		if res.err != nil && res.err != io.EOF {
			t.Fatalf("read frame: %v (got %q)", res.err, res.frame)
		}
		return res.frame
	case <-time.After(timeout):
		t.Fatalf("no frame within %v: the stream is buffered", timeout)
		return ""
	}
}

func contentFrame(text string) string {
	b, _ := json.Marshal(map[string]string{"content": text})
	return "data: " + string(b) + "\n\n"
}

func errorFrame(detail string) string {
	b, _ := json.Marshal(map[string]string{"detail": detail})
	return "event: error\ndata: " + string(b) + "\n\n"
}

const doneFrame = "data: [DONE]\n\n"

// serveCounted serves the stack on a real connection (closed when the test
// ends); ended receives once per request its handler finished.
func (s *stack) serveCounted() (*httptest.Server, <-chan struct{}) {
	ended := make(chan struct{}, 8)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.h.ServeHTTP(w, r)
		ended <- struct{}{}
	}))
	s.t.Cleanup(srv.Close)
	return srv, ended
}

// openStream sends in over a real connection and answers the response as
// it arrives (its body closed when the test ends), for tests that read a
// stream frame by frame.
func (s *stack) openStream(token string, in msg) *http.Response {
	s.t.Helper()
	srv := httptest.NewServer(s.h)
	s.t.Cleanup(srv.Close)
	req, _ := http.NewRequestWithContext(s.t.Context(), http.MethodPost, srv.URL+chatapi.Path, strings.NewReader(mustJSON(in)))
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := srv.Client().Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(func() { res.Body.Close() })
	return res
}
