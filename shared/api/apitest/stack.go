package apitest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/seeddata"
	"aiwork/shared/store"
)

// Stack is a route tree (the whole API, as the devserver mounts it) on a
// fresh table, with the tokens its users sign in with: what the API
// packages' tests drive.
type Stack struct {
	T      *testing.T
	H      http.Handler
	St     *store.Store
	Tokens *auth.Tokens
}

// User creates a confirmed account with a session and answers its id and
// token (see User).
func (s *Stack) User(name string) (uid, token string) {
	s.T.Helper()
	return User(s.T, s.St, s.Tokens, name)
}

// Do sends one request as token ("" for none).
func (s *Stack) Do(method, path, token, body string) *httptest.ResponseRecorder {
	return Do(s.H, method, path, token, body, nil)
}

// PutCatalogue puts the categories and the given prompts in st.
func PutCatalogue(t testing.TB, st *store.Store, prompts ...domain.Prompt) {
	t.Helper()
	ctx := context.Background()
	for _, c := range seeddata.Categories {
		if err := st.PutCategory(ctx, c); err != nil {
			t.Fatalf("category: %v", err)
		}
	}
	for _, p := range prompts {
		if err := st.PutPrompt(ctx, p); err != nil {
			t.Fatalf("prompt: %v", err)
		}
	}
}
