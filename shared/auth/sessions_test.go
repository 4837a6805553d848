package auth_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"aiwork/shared/auth"
)

// sessions is a Sessions of a few open sessions; err makes every lookup fail.
type sessions struct {
	mu      sync.Mutex
	open    map[string]bool // "uid/sid"
	lookups int
	err     error
}

func (s *sessions) SessionLive(_ context.Context, uid, sid string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lookups++
	return s.open[uid+"/"+sid], s.err
}

// With sessions, the middleware lets a token through only while its
// session is open, and puts the session id in the context.
func TestMiddlewareChecksTheSession(t *testing.T) {
	t.Parallel()
	store := &sessions{open: map[string]bool{"u1/s1": true}}
	tk := newTokens().WithSessions(store)
	open, _ := tk.IssueSession("u1", "s1")
	ended, _ := tk.IssueSession("u1", "s2")
	otherUser, _ := tk.IssueSession("u2", "s1")
	sessionless, _ := tk.Issue("u1")

	var gotSID string
	h := tk.Required(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotSID = auth.SessionID(r.Context())
		w.WriteHeader(http.StatusNoContent)
	}))
	do := func(token string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, "/x", nil)
		r.Header.Set("Authorization", "Bearer "+token)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	if w := do(open); w.Code != http.StatusNoContent || gotSID != "s1" {
		t.Errorf("open session: %d, sid %q", w.Code, gotSID)
	}
	for name, token := range map[string]string{"ended session": ended, "another user's sid": otherUser, "no session": sessionless} {
		w := do(token)
		var e errorBody
		_ = json.Unmarshal(w.Body.Bytes(), &e)
		if w.Code != http.StatusUnauthorized || e.Code != "unauthorized" || !strings.Contains(e.Detail, "log in again") {
			t.Errorf("%s: %d %s, want 401 asking to log in again", name, w.Code, w.Body)
		}
	}
	// The token carries the session id as "sid".
	payload, _ := base64.RawURLEncoding.DecodeString(strings.Split(open, ".")[1])
	var claims map[string]any
	_ = json.Unmarshal(payload, &claims)
	if claims["sid"] != "s1" || claims["sub"] != "u1" {
		t.Errorf("claims %v, want sub u1 and sid s1", claims)
	}
	// One lookup per request; a visitor (Optional, no token) costs none.
	before := store.lookups
	tk.Optional(probe).ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/x", nil))
	do(open)
	if store.lookups != before+1 {
		t.Errorf("%d lookups for a visitor and one signed-in request, want 1", store.lookups-before)
	}
	// A failing lookup is an internal error, never a pass.
	store.err = errors.New("table unreachable")
	if w := do(open); w.Code != http.StatusInternalServerError || strings.Contains(w.Body.String(), "unreachable") {
		t.Errorf("failing lookup: %d %s, want a plain 500", w.Code, w.Body)
	}
	// Without sessions (a route group tested on its own) no lookup is made.
	if v, err := newTokens().Verify(sessionless); err != nil || v != "u1" {
		t.Errorf("Verify without sessions = %q, %v", v, err)
	}
}

// slowSessions answers once release is closed, so a test can see what the
// handler does while the lookup is still running.
type slowSessions struct {
	release chan struct{}
	live    bool
	mu      sync.Mutex
	err     error // what the last lookup ended with, when cancelled
	done    bool  // a lookup answered
}

func (s *slowSessions) answered() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.done
}

func (s *slowSessions) SessionLive(ctx context.Context, _, _ string) (bool, error) {
	select {
	case <-s.release:
		s.mu.Lock()
		s.done = true
		s.mu.Unlock()
		return s.live, nil
	case <-ctx.Done():
		s.mu.Lock()
		s.err = ctx.Err()
		s.mu.Unlock()
		return false, ctx.Err()
	}
}

func (s *slowSessions) lastErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// RequiredConcurrent runs the handler while the session is looked up, and
// lets nothing out before the lookup confirms it.
func TestRequiredConcurrentGatesTheAnswer(t *testing.T) {
	t.Parallel()
	for _, live := range []bool{true, false} {
		s := &slowSessions{release: make(chan struct{}), live: live}
		tk := newTokens().WithSessions(s)
		token, _ := tk.IssueSession("u1", "s1")
		started := make(chan struct{})
		var handlerCtx context.Context
		h := tk.RequiredConcurrent(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			handlerCtx = r.Context()
			close(started) // the handler runs before the lookup answered
			w.Header().Set("Content-Type", "text/event-stream")
			_ = http.NewResponseController(w).Flush()
			_, _ = w.Write([]byte("data: secret\n\n"))
			if err := auth.ConfirmSession(r.Context()); (err == nil) != live {
				t.Errorf("live=%v: ConfirmSession = %v", live, err)
			}
		}))
		r := httptest.NewRequest(http.MethodPost, "/x", nil)
		r.Header.Set("Authorization", "Bearer "+token)
		w := httptest.NewRecorder()
		done := make(chan struct{})
		go func() { h.ServeHTTP(w, r); close(done) }()
		<-started
		if w.Body.Len() != 0 || w.Code != http.StatusOK {
			// httptest records a write at once; nothing must be there yet.
			t.Errorf("live=%v: answered %d %q before the session was confirmed", live, w.Code, w.Body)
		}
		close(s.release)
		<-done
		switch {
		case live && (w.Code != http.StatusOK || w.Body.String() != "data: secret\n\n"):
			t.Errorf("open session: %d %q", w.Code, w.Body)
		case !live && (w.Code != http.StatusUnauthorized || strings.Contains(w.Body.String(), "secret") || handlerCtx.Err() == nil):
			t.Errorf("ended session: %d %q, context %v; want 401 only and the handler cancelled", w.Code, w.Body, handlerCtx.Err())
		}
	}

	// A handler that writes nothing still answers 401 for an ended session;
	// without sessions it is Required.
	ended := newTokens().WithSessions(&sessions{open: map[string]bool{}})
	tok, _ := ended.IssueSession("u1", "s1")
	r := httptest.NewRequest(http.MethodGet, "/x", nil)
	r.Header.Set("Authorization", "Bearer "+tok)
	w := httptest.NewRecorder()
	ended.RequiredConcurrent(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})).ServeHTTP(w, r)
	if w.Code != http.StatusUnauthorized {
		t.Errorf("silent handler, ended session: %d", w.Code)
	}
	w = httptest.NewRecorder()
	newTokens().RequiredConcurrent(probe).ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/x", nil))
	if w.Code != http.StatusUnauthorized {
		t.Errorf("no token: %d, want 401", w.Code)
	}
}

// RequiredSpeculative lets the handler answer before the lookup, but the
// lookup is never cut off: the request ends only after the lookup has its
// answer, with its context intact (a store call cancelled mid-request
// crashed the test DynamoDB). The lookup here answers once the handler has
// returned, so a middleware that ended the request then would be caught:
// its lookup unfinished, or cancelled.
func TestRequiredSpeculativeNeverCutsTheLookupOff(t *testing.T) {
	t.Parallel()
	handlerDone := make(chan struct{})
	s := &slowSessions{release: handlerDone, live: true}
	tk := newTokens().WithSessions(s)
	token, _ := tk.IssueSession("u1", "s1")
	h := tk.RequiredSpeculative(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer close(handlerDone)
		http.Error(w, "bad input", http.StatusBadRequest) // answered before the lookup
	}))
	r := httptest.NewRequest(http.MethodPost, "/x", nil)
	r.Header.Set("Authorization", "Bearer "+token)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusBadRequest {
		t.Errorf("answer = %d, want the handler's 400", w.Code)
	}
	if !s.answered() {
		t.Error("the request ended while its session lookup was still running")
	}
	if err := s.lastErr(); err != nil {
		t.Errorf("the lookup ended with %v, want its answer (not cancelled)", err)
	}
}
