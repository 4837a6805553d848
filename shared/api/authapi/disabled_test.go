package authapi_test

import (
	"net/http"
	"testing"
	"time"

	"aiwork/shared/store/storetest"
)

const msgDisabled = "This account has been disabled. If you think this is a mistake, please contact support."

// An account an admin disabled cannot sign in: not with its password (told
// so only once the password is right), not through a password reset (which
// would sign it in; the password stays as it was), not with Google (the
// app is sent error=account_disabled) — and no session is opened. Enabled
// again, every way works.
func TestDisabledAccountCannotSignIn(t *testing.T) {
	t.Parallel()
	f := newFakeIDP(t)
	s := newStack(t, f.configure)
	reg := s.register(validRegistration())
	s.verify(s.lastLink("ada@example.com", "/verify-email"))
	who := identity{Sub: "g-ada", Email: "ada@example.com", Verified: true, Name: "Ada"}
	if _, errCode := s.signInWithGoogle(f, who); errCode != "" {
		t.Fatalf("Google sign-in before: %q", errCode)
	}
	ctx := t.Context()
	_, err := s.st.SetDisabled(ctx, reg.User.ID, true)
	storetest.Must(t, err, "disable")
	_, err = s.st.EndSessions(ctx, reg.User.ID)
	storetest.Must(t, err, "end sessions")

	wantError(t, s.login("ada@example.com", "s3cret!"), http.StatusForbidden, "account_disabled", msgDisabled)
	wantError(t, s.login("ada@example.com", "wrong!!"), http.StatusUnauthorized, "unauthorized", "")
	decodeAs[map[string]any](t, s.post("/api/v1/auth/forgot-password", map[string]string{"email": "ada@example.com"}), http.StatusOK)
	wantError(t, s.post("/api/v1/auth/reset-password", map[string]string{"token": s.lastLink("ada@example.com", "/reset-password"), "password": "n3w-secret!"}),
		http.StatusForbidden, "account_disabled", msgDisabled)
	if _, errCode := s.signInWithGoogle(f, who); errCode != "account_disabled" {
		t.Errorf("Google sign-in of a disabled account: error %q, want account_disabled", errCode)
	}
	if n, err := s.st.CountSessions(ctx, reg.User.ID, time.Now()); err != nil || n != 0 {
		t.Errorf("%d sessions of the disabled account, %v; want none", n, err)
	}

	_, err = s.st.SetDisabled(ctx, reg.User.ID, false)
	storetest.Must(t, err, "enable")
	token := decodeAs[tokenJSON](t, s.login("ada@example.com", "s3cret!"), http.StatusOK).AccessToken
	decodeAs[userJSON](t, s.get("/api/v1/auth/me", token), http.StatusOK)
	if _, errCode := s.signInWithGoogle(f, who); errCode != "" {
		t.Errorf("Google sign-in once enabled: %q", errCode)
	}
}
