package auth_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"aiwork/shared/auth"
)

// RequiredBatched hands the session lookup to a handler that claims it
// (reading the session with its own reads): what the handler settles gates
// the answer as the middleware's own lookup would, and the middleware
// makes no lookup of its own. Unclaimed, it looks the session up itself.
func TestRequiredBatchedHandsTheLookupOver(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		claim       bool
		settle      func(settle func(bool, error)) // nil: never settled
		open        bool                           // the store's answer, unclaimed
		wantCode    int
		wantLookups int
		wantCancel  bool // the handler's context, once the session was answered
	}{
		{"claimed, live", true, func(s func(bool, error)) { s(true, nil) }, false, http.StatusOK, 0, false},
		{"claimed, ended", true, func(s func(bool, error)) { s(false, nil) }, true, http.StatusUnauthorized, 0, true},
		{"claimed, read failed", true, func(s func(bool, error)) { s(false, errors.New("table unreachable")) }, true, http.StatusInternalServerError, 0, true},
		{"claimed, never settled", true, nil, true, http.StatusInternalServerError, 0, false},
		{"unclaimed, live", false, nil, true, http.StatusOK, 1, false},
		{"unclaimed, ended", false, nil, false, http.StatusUnauthorized, 1, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			store := &sessions{open: map[string]bool{"u1/s1": tc.open}}
			tk := newTokens().WithSessions(store)
			token, _ := tk.IssueSession("u1", "s1")
			var cancelled bool
			h := tk.RequiredBatched(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tc.claim {
					uid, sid, settle, ok := auth.ClaimSessionCheck(r.Context())
					if !ok || uid != "u1" || sid != "s1" {
						t.Fatalf("claim = %q %q %v, want u1 s1 true", uid, sid, ok)
					}
					if tc.settle == nil {
						return // a handler that forgot to answer
					}
					tc.settle(settle)
				}
				err := auth.ConfirmSession(r.Context())
				cancelled = r.Context().Err() != nil
				if err != nil {
					return // the middleware answers the refusal
				}
				_, _ = w.Write([]byte("secret"))
			}))
			r := httptest.NewRequest(http.MethodPost, "/x", nil)
			r.Header.Set("Authorization", "Bearer "+token)
			w := httptest.NewRecorder()
			done := make(chan struct{})
			go func() { h.ServeHTTP(w, r); close(done) }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("the request never ended")
			}
			if w.Code != tc.wantCode || (tc.wantCode != http.StatusOK) == strings.Contains(w.Body.String(), "secret") {
				t.Errorf("answer %d %q, want %d (the handler's answer only when 200)", w.Code, w.Body, tc.wantCode)
			}
			if store.lookups != tc.wantLookups {
				t.Errorf("%d lookups by the middleware, want %d", store.lookups, tc.wantLookups)
			}
			if cancelled != tc.wantCancel {
				t.Errorf("handler context cancelled %v, want %v", cancelled, tc.wantCancel)
			}
		})
	}
}

// A lookup that has started (ConfirmSession) can no longer be claimed;
// outside RequiredBatched's routes there is none to claim.
func TestClaimSessionCheckOnlyBeforeTheLookup(t *testing.T) {
	t.Parallel()
	store := &sessions{open: map[string]bool{"u1/s1": true}}
	tk := newTokens().WithSessions(store)
	token, _ := tk.IssueSession("u1", "s1")
	var claimed bool
	h := tk.RequiredBatched(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = auth.ConfirmSession(r.Context())
		_, _, _, claimed = auth.ClaimSessionCheck(r.Context())
	}))
	r := httptest.NewRequest(http.MethodPost, "/x", nil)
	r.Header.Set("Authorization", "Bearer "+token)
	h.ServeHTTP(httptest.NewRecorder(), r)
	if claimed {
		t.Error("claimed a lookup that had already started")
	}
	if _, _, _, ok := auth.ClaimSessionCheck(context.Background()); ok {
		t.Error("claimed a lookup outside RequiredBatched")
	}
}
