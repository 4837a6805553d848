package conversationsapi_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"aiwork/shared/api/apitest"
	"aiwork/shared/api/chatapi"
	"aiwork/shared/api/conversationsapi"
	"aiwork/shared/api/mcpapi"
	"aiwork/shared/auth"
	"aiwork/shared/chat"
	"aiwork/shared/chat/chattest"
	"aiwork/shared/llm"
	"aiwork/shared/routes"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

const patience = chattest.Patience

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

var secret = []byte(strings.Repeat("v", 32))

// stack is the conversations group where the chat function mounts it,
// beside the chat group whose replies it keeps, and the mcp group that
// connects users to their models, on a fresh table; the LLM upstreams are
// played by fakes.
type stack struct {
	t      *testing.T
	h      http.Handler
	st     *store.Store
	tokens *auth.Tokens
}

// newStack mounts the groups with now as both groups' clock (nil: the
// time).
func newStack(t *testing.T, now func() time.Time, upstreams map[string]llm.Provider) *stack {
	t.Helper()
	st := storetest.New(t)
	tokens := auth.NewTokens(secret, time.Hour)
	reg := llm.NewRegistry(0)
	real := map[string]bool{}
	for id, p := range upstreams {
		reg.Use(id, p)
		real[id] = true
	}
	chatFunction, err := routes.Function("chat", map[string]http.Handler{
		"chat":          chatapi.New(st, tokens, reg, chat.Options{StallTimeout: patience, Now: now}).Handler(),
		"conversations": conversationsapi.New(st, tokens, conversationsapi.Options{Now: now}).Handler(),
	})
	if err != nil {
		t.Fatal(err)
	}
	h, err := routes.Mount(map[string]http.Handler{
		"mcp":  mcpapi.New(st, tokens, real, mcpapi.Options{}).Handler(),
		"chat": chatFunction,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &stack{t: t, h: h, st: st, tokens: tokens}
}

// user makes a user with a session and answers its id and token.
func (s *stack) user() (uid, token string) {
	s.t.Helper()
	return apitest.User(s.t, s.st, s.tokens, "conv")
}

func (s *stack) do(method, path, token, body string) *httptest.ResponseRecorder {
	return apitest.Do(s.h, method, path, token, body, nil)
}

func (s *stack) connect(token, provider, model string) string {
	s.t.Helper()
	return chattest.Connect(s.t, s.h, token, provider, model)
}

func (s *stack) newConversation(token, title string) chattest.Conversation {
	s.t.Helper()
	return chattest.NewConversation(s.t, s.h, token, title)
}

func (s *stack) messages(token, cid string) []chattest.Message {
	s.t.Helper()
	return chattest.Messages(s.t, s.h, token, cid)
}

// sendWithin posts a message and answers the whole stream, failing the
// test when it does not end in time.
func (s *stack) sendWithin(token string, in any) *httptest.ResponseRecorder {
	s.t.Helper()
	ch := make(chan *httptest.ResponseRecorder, 1)
	go func() { ch <- s.do("POST", chatapi.Path, token, chattest.MustJSON(in)) }()
	select {
	case w := <-ch:
		return w
	case <-time.After(patience):
		s.t.Fatalf("no complete answer within %v", patience)
		return nil
	}
}
