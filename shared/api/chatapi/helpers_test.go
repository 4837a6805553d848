package chatapi_test

import (
	"aiwork/shared/api/apitest"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"aiwork/shared/api/chatapi"
	"aiwork/shared/api/conversationsapi"
	"aiwork/shared/api/mcpapi"
	"aiwork/shared/api/usersapi"
	"aiwork/shared/auth"
	"aiwork/shared/chat/chattest"
	"aiwork/shared/llm"
	"aiwork/shared/local/localmcp/localmcptest"
	"aiwork/shared/routes"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// patience bounds a wait for something that normally takes milliseconds.
const patience = chattest.Patience

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
	return chattest.Connect(s.t, s.h, token, provider, model)
}

// newConversation creates a conversation through the API.
func (s *stack) newConversation(token, title string) chattest.Conversation {
	s.t.Helper()
	return chattest.NewConversation(s.t, s.h, token, title)
}

// messages reads a conversation's messages through the API.
func (s *stack) messages(token, cid string) []chattest.Message {
	s.t.Helper()
	return chattest.Messages(s.t, s.h, token, cid)
}

func (s *stack) do(method, path, token, body string) *httptest.ResponseRecorder {
	return apitest.Do(s.h, method, path, token, body, nil)
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
	req, _ := http.NewRequestWithContext(s.t.Context(), http.MethodPost, srv.URL+chatapi.Path, strings.NewReader(chattest.MustJSON(in)))
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := srv.Client().Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(func() { res.Body.Close() })
	return res
}
