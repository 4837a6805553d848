package authapi_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/store/storetest"
)

// Addresses mail can never reach are refused where an address is given:
// registration and a reset request answer 400 "Invalid email address"
// (SPEC §5's words) and create nothing.
func TestUndeliverableAddressesAreRefused(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	for _, addr := range []string{
		"<svg/onload=alert(1)>@x.io",
		`a"><img/src=x/onerror=alert(1)>@x.io`,
		"a@x.io.",
		`"a.b"@x.io`,
		"a..b@x.io",
		"Ada <ada@x.io>",
		"a@bücher.example",
	} {
		t.Run(addr, func(t *testing.T) {
			s := s.on(t)
			r := validRegistration()
			r.Email = addr
			wantError(t, s.post("/api/v1/auth/register", r), http.StatusBadRequest, "invalid", "Invalid email address")
			wantError(t, s.post("/api/v1/auth/forgot-password", map[string]string{"email": addr}), http.StatusBadRequest, "invalid", "Invalid email address")
		})
	}
	if _, err := s.st.UserByEmail(t.Context(), "ada@x.io"); err == nil {
		t.Error("a refused registration created an account")
	}
}

// An account whose address the mailer refuses (one registered before the
// stricter rule): it still signs in, and its resend says plainly that mail
// cannot go to that address, not "try again in a few minutes".
func TestResendToARefusedAddressSaysSo(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	hash, err := auth.HashPassword("s3cret!")
	storetest.Must(t, err, "hash")
	storetest.Must(t, s.st.CreateUser(t.Context(), domain.User{ID: "old", Email: "ada@x.io.", Username: "old", FullName: "Old",
		PasswordHash: hash, CreatedAt: time.Now()}), "user")
	tok := decodeAs[tokenJSON](t, s.login("ada@x.io.", "s3cret!"), http.StatusOK)
	resend := func() *httptest.ResponseRecorder {
		return s.do(req{method: http.MethodPost, path: "/api/v1/auth/resend-verification", token: tok.AccessToken})
	}
	wantError(t, resend(), http.StatusBadRequest, "invalid",
		"We cannot send mail to this address. Check it, and register again with an address that receives mail.")
}
