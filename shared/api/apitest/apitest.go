// Package apitest holds what the route groups' API tests share: sending a
// request to a handler, reading JSON answers and errors, and making users
// in the real store. Only tests import it.
package apitest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/store"
)

// Do sends one request to h as a browser would: JSON body when body is
// set, a bearer token when token is set, and any extra headers.
func Do(h http.Handler, method, path, token, body string, headers map[string]string) *httptest.ResponseRecorder {
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, r)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

// Decode checks the status and reads the JSON answer.
func Decode[T any](t testing.TB, w *httptest.ResponseRecorder, wantStatus int) T {
	t.Helper()
	if w.Code != wantStatus {
		t.Fatalf("status = %d, want %d; body %s", w.Code, wantStatus, w.Body.String())
	}
	var v T
	if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil {
		t.Fatalf("decode %q: %v", w.Body.String(), err)
	}
	return v
}

// Error is the API's error body.
type Error struct {
	Detail string `json:"detail"`
	Code   string `json:"code"`
}

// WantError checks a JSON error answer with a code; detail must equal want
// ("" accepts any).
func WantError(t testing.TB, w *httptest.ResponseRecorder, status int, want string) Error {
	t.Helper()
	e := wantCoded(t, w, status)
	if want != "" && e.Detail != want {
		t.Errorf("detail = %q, want %q", e.Detail, want)
	}
	return e
}

// WantErrorContaining is WantError whose detail must contain part.
func WantErrorContaining(t testing.TB, w *httptest.ResponseRecorder, status int, part string) Error {
	t.Helper()
	e := wantCoded(t, w, status)
	if !strings.Contains(e.Detail, part) {
		t.Errorf("detail = %q, want it to contain %q", e.Detail, part)
	}
	return e
}

func wantCoded(t testing.TB, w *httptest.ResponseRecorder, status int) Error {
	t.Helper()
	e := Decode[Error](t, w, status)
	if e.Code == "" {
		t.Errorf("error without code: %s", w.Body.String())
	}
	return e
}

var userSeq atomic.Int64

// User creates an account directly in the store, its email confirmed, and
// answers its id and a token for a session of it (valid for an hour), so
// the token passes the session check of a stack built like the devserver.
func User(t testing.TB, st *store.Store, tokens *auth.Tokens, name string) (uid, token string) {
	t.Helper()
	uid = fmt.Sprintf("%s-%d-%d", name, time.Now().UnixNano(), userSeq.Add(1))
	u := domain.User{ID: uid, Email: uid + "@example.com", Username: uid, FullName: name, IsVerified: true, CreatedAt: time.Now()}
	if err := st.CreateUser(context.Background(), u); err != nil {
		t.Fatalf("create user: %v", err)
	}
	return uid, Session(t, st, tokens, uid)
}

// Session opens a new session of uid and answers a token naming it.
func Session(t testing.TB, st *store.Store, tokens *auth.Tokens, uid string) string {
	t.Helper()
	sid := fmt.Sprintf("s-%d-%d", time.Now().UnixNano(), userSeq.Add(1))
	if err := st.CreateSession(context.Background(), uid, sid, time.Now().Add(time.Hour)); err != nil {
		t.Fatalf("create session: %v", err)
	}
	token, err := tokens.IssueSession(uid, sid)
	if err != nil {
		t.Fatalf("token: %v", err)
	}
	return token
}
