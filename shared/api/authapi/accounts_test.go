package authapi_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"aiwork/shared/api/authapi"
	"aiwork/shared/auth"
	"aiwork/shared/config"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/local/devstack"
	"aiwork/shared/local/outbox"
	"aiwork/shared/routes"
	"aiwork/shared/seeddata"
	"aiwork/shared/store/storetest"
)

func scanAll(table string) *dynamodb.ScanInput {
	return &dynamodb.ScanInput{TableName: aws.String(table)}
}

// burst sends the requests at once (released together) and answers each
// response in order.
func (s *stack) burst(reqs []req) []*httptest.ResponseRecorder {
	s.t.Helper()
	out := make([]*httptest.ResponseRecorder, len(reqs))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, r := range reqs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			out[i] = s.do(r)
		}()
	}
	close(start)
	wg.Wait()
	return out
}

func statusCounts(ws []*httptest.ResponseRecorder) map[int]int {
	n := map[int]int{}
	for _, w := range ws {
		n[w.Code]++
	}
	return n
}

// wantThrottled checks a 429: detail with a time to retry, and Retry-After
// within the window.
func wantThrottled(t *testing.T, w *httptest.ResponseRecorder, window time.Duration) {
	t.Helper()
	e := wantError(t, w, http.StatusTooManyRequests, "rate_limited", "")
	if !strings.Contains(e.Detail, "Try again in") {
		t.Errorf("detail %q does not say when to try again", e.Detail)
	}
	ra, err := strconv.Atoi(w.Header().Get("Retry-After"))
	if err != nil || ra <= 0 || ra > int(window.Seconds()) {
		t.Errorf("Retry-After = %q, want seconds within %v", w.Header().Get("Retry-After"), window)
	}
}

func loginReq(email, password, remote string) req {
	return req{method: http.MethodPost, path: "/api/v1/auth/login", remote: remote,
		body: fmt.Sprintf(`{"email":%q,"password":%q}`, email, password)}
}

// Finding 1: 59 accounts came from one address. 15 concurrent registrations
// from one address with REGISTER_LIMIT_PER_IP=10 create exactly 10.
func TestRegisterBurstFromOneAddress(t *testing.T) {
	t.Parallel()
	s := newStack(t, func(c *config.Auth) { c.RegisterLimitPerIP = 10 })
	var reqs []req
	for i := range 15 {
		reqs = append(reqs, req{method: http.MethodPost, path: "/api/v1/auth/register", remote: "203.0.113.9:4000",
			body: mustJSON(t, registration{Email: fmt.Sprintf("farm%02d@example.com", i), Username: fmt.Sprintf("farm%02d", i), FullName: "Farm", Password: "s3cret!"})})
	}
	ws := s.burst(reqs)
	if n := statusCounts(ws); n[http.StatusCreated] != 10 || n[http.StatusTooManyRequests] != 5 {
		t.Fatalf("statuses %v, want exactly 10 × 201 and 5 × 429", n)
	}
	created := 0
	for i, w := range ws {
		if w.Code == http.StatusTooManyRequests {
			wantThrottled(t, w, time.Hour)
			if _, err := s.st.UserByEmail(t.Context(), fmt.Sprintf("farm%02d@example.com", i)); err == nil {
				t.Errorf("a refused registration created farm%02d", i)
			}
			continue
		}
		created++
	}
	// Refused before any work: the next one from that address too; another
	// address is not affected.
	wantThrottled(t, s.do(req{method: http.MethodPost, path: "/api/v1/auth/register", remote: "203.0.113.9:4001",
		body: mustJSON(t, registration{Email: "late@example.com", Username: "late", FullName: "Late", Password: "s3cret!"})}), time.Hour)
	decodeAs[tokenJSON](t, s.do(req{method: http.MethodPost, path: "/api/v1/auth/register", remote: "198.51.100.1:4000",
		body: mustJSON(t, registration{Email: "other@example.com", Username: "other", FullName: "Other", Password: "s3cret!"})}), http.StatusCreated)
}

// The default limit applies when the configuration leaves it unset.
func TestRegisterLimitDefault(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	for i := range config.DefaultRegisterLimitPerIP {
		s.register(registration{Email: fmt.Sprintf("u%d@example.com", i), Username: fmt.Sprintf("user%d", i), FullName: "U", Password: "s3cret!"})
	}
	wantThrottled(t, s.post("/api/v1/auth/register", validRegistration()), time.Hour)
}

// Finding 2: 50 concurrent wrong passwords for one email gave 50 × 401.
// Counted before the check, at most 5 are checked; the rest get 429.
func TestLoginBurstOfWrongPasswords(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	s.register(validRegistration())
	var reqs []req
	for i := range 50 {
		reqs = append(reqs, loginReq("ada@example.com", "wrong-"+strconv.Itoa(i), ""))
	}
	ws := s.burst(reqs)
	n := statusCounts(ws)
	if n[http.StatusUnauthorized] > 5 || n[http.StatusUnauthorized]+n[http.StatusTooManyRequests] != 50 {
		t.Fatalf("statuses %v, want at most 5 × 401 and the rest 429", n)
	}
	for _, w := range ws {
		if w.Code == http.StatusTooManyRequests {
			wantThrottled(t, w, 15*time.Minute)
		}
	}
	// The window is full: the right password waits too.
	wantThrottled(t, s.login("ada@example.com", "s3cret!"), 15*time.Minute)
}

// Finding 2: 40 wrong passwords and the right one at once logged in. Now
// the right one gets in only if it was among the first 5 attempts counted;
// either way no more than 5 passwords are tried before the window fills
// (and 4 more after a success, which clears the email's counter).
func TestLoginBurstWithTheRightPassword(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	s.register(validRegistration())
	reqs := []req{loginReq("ada@example.com", "s3cret!", "")}
	for i := range 40 {
		reqs = append(reqs, loginReq("ada@example.com", "wrong-"+strconv.Itoa(i), ""))
	}
	ws := s.burst(reqs)
	n := statusCounts(ws)
	right := ws[0].Code
	maxWrong := 5
	if right == http.StatusOK {
		maxWrong = 9 // ≤ 4 before it, ≤ 5 after its reset
	} else if right != http.StatusTooManyRequests {
		t.Fatalf("right password answered %d %s", right, ws[0].Body)
	}
	if n[http.StatusUnauthorized] > maxWrong || n[http.StatusOK]+n[http.StatusUnauthorized]+n[http.StatusTooManyRequests] != 41 {
		t.Fatalf("statuses %v (right password: %d), want at most %d × 401 and the rest 429", n, right, maxWrong)
	}

	// Once the limit is reached, the right password is refused like any.
	t.Run("after the limit", func(t *testing.T) {
		s := newStack(t)
		s.register(validRegistration())
		for i := range 5 {
			wantError(t, s.login("ada@example.com", "wrong-"+strconv.Itoa(i)), http.StatusUnauthorized, "unauthorized", "")
		}
		reqs := []req{loginReq("ada@example.com", "s3cret!", "")}
		for i := range 40 {
			reqs = append(reqs, loginReq("ada@example.com", "wrong-"+strconv.Itoa(i), ""))
		}
		for i, w := range s.burst(reqs) {
			if w.Code != http.StatusTooManyRequests {
				t.Errorf("attempt %d after the limit: %d %s, want 429", i, w.Code, w.Body)
			}
		}
	})
}

// Finding 2: 150 concurrent attempts from one address passed its limit of
// 100. Now exactly 100 are tried.
func TestLoginBurstFromOneAddress(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	// 150 accounts (stored directly: cheap MinCost hashes, unlike the
	// full-cost comparison an unknown email costs).
	hash, err := auth.HashPassword("s3cret!")
	storetest.Must(t, err, "hash")
	var reqs []req
	for i := range 150 {
		email := fmt.Sprintf("user%03d@example.com", i)
		storetest.Must(t, s.st.CreateUser(t.Context(), domain.User{ID: fmt.Sprintf("u%03d", i), Email: email,
			Username: fmt.Sprintf("user%03d", i), FullName: "U", PasswordHash: hash, CreatedAt: time.Now()}), "user")
		reqs = append(reqs, loginReq(email, "guess", "198.51.100.77:1000"))
	}
	n := statusCounts(s.burst(reqs))
	if n[http.StatusUnauthorized] != 100 || n[http.StatusTooManyRequests] != 50 {
		t.Fatalf("statuses %v, want exactly 100 × 401 and 50 × 429", n)
	}
}

// Finding 1: free uses need a confirmed email. Registering mails a
// single-use link; until it is opened, use-free-prompt answers 403 with
// code email_unverified; after, it works.
func TestFreeUseNeedsAConfirmedEmail(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	storetest.Must(t, seeddata.Seed(t.Context(), s.st), "seed")
	reg := s.register(validRegistration())
	if reg.User.IsVerified {
		t.Fatal("a new registration is verified before the link")
	}
	prompts, err := seeddata.Prompts()
	storetest.Must(t, err, "catalogue")
	pid := prompts[0].ID
	use := func(token string) *httptest.ResponseRecorder {
		return s.do(req{method: http.MethodPost, path: "/api/v1/prompts/use-free-prompt/" + pid, token: token})
	}
	wantError(t, use(reg.AccessToken), http.StatusForbidden, "email_unverified",
		"Please confirm your email address to use free prompts. We sent you a link; you can resend it from your dashboard.")
	status := decodeAs[struct {
		Used int `json:"used"`
	}](t, s.get("/api/v1/prompts/free-usage-status", reg.AccessToken), http.StatusOK)
	if status.Used != 0 {
		t.Errorf("a refused free use was spent: used = %d", status.Used)
	}
	if me := decodeAs[userJSON](t, s.get("/api/v1/auth/me", reg.AccessToken), http.StatusOK); me.IsVerified {
		t.Error("/me says verified before the link")
	}

	v := s.verify(s.lastLink("ada@example.com", "/verify-email"))
	if v.Status != "verified" || !v.User.IsVerified || v.User.ID != reg.User.ID {
		t.Errorf("verify-email = %+v, want ada verified", v)
	}
	if me := decodeAs[userJSON](t, s.get("/api/v1/auth/me", reg.AccessToken), http.StatusOK); !me.IsVerified {
		t.Error("/me says unverified after the link")
	}
	if got := decodeAs[tokenJSON](t, s.login("ada@example.com", "s3cret!"), http.StatusOK); !got.User.IsVerified {
		t.Error("the login answer says unverified after the link")
	}
	got := decodeAs[struct {
		Prompt struct {
			Content string `json:"content"`
		} `json:"prompt"`
	}](t, use(reg.AccessToken), http.StatusOK)
	if got.Prompt.Content == "" {
		t.Error("the free use after verification has no content")
	}
}

// REQUIRE_EMAIL_VERIFICATION=false lets unverified accounts use free prompts.
func TestFreeUseWithoutVerificationWhenSwitchedOff(t *testing.T) {
	t.Parallel()
	s := newStackWith(t, func(c *devstack.Config) { c.Prompts.SkipEmailVerification = true })
	storetest.Must(t, seeddata.Seed(t.Context(), s.st), "seed")
	prompts, err := seeddata.Prompts()
	storetest.Must(t, err, "catalogue")
	reg := s.register(validRegistration())
	w := s.do(req{method: http.MethodPost, path: "/api/v1/prompts/use-free-prompt/" + prompts[0].ID, token: reg.AccessToken})
	decodeAs[map[string]any](t, w, http.StatusOK)
}

type statusJSON struct {
	Status string `json:"status"`
	Detail string `json:"detail"`
}

// A confirmation link works once; unknown, empty and used tokens get 400
// with a code the page can branch on.
func TestVerifyEmailLinkIsSingleUse(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	s.register(validRegistration())
	token := s.lastLink("ada@example.com", "/verify-email")
	s.verify(token)
	tests := []struct {
		name, body, code string
	}{
		{"used again", mustJSON(t, map[string]string{"token": token}), "link_used"},
		{"unknown", `{"token":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}`, "link_invalid"},
		{"truncated", mustJSON(t, map[string]string{"token": token[:20]}), "link_invalid"},
		{"empty", `{"token":""}`, "link_invalid"},
		{"missing", `{}`, "link_invalid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := s.on(t)
			wantError(t, s.do(req{method: http.MethodPost, path: "/api/v1/auth/verify-email", body: tt.body}), http.StatusBadRequest, tt.code, "")
		})
	}
	// Concurrent uses of one fresh link: exactly one succeeds.
	s.register(registration{Email: "bob@example.com", Username: "bob", FullName: "Bob", Password: "s3cret!"})
	fresh := s.lastLink("bob@example.com", "/verify-email")
	var reqs []req
	for range 10 {
		reqs = append(reqs, req{method: http.MethodPost, path: "/api/v1/auth/verify-email", body: mustJSON(t, map[string]string{"token": fresh})})
	}
	if n := statusCounts(s.burst(reqs)); n[http.StatusOK] != 1 || n[http.StatusBadRequest] != 9 {
		t.Errorf("10 concurrent uses of one link: %v, want 1 × 200 and 9 × 400", n)
	}
}

// clock is a test's adjustable time for the auth group.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// newClockStack is the auth group alone, on the clock c, with an outbox.
func newClockStack(t *testing.T, c *clock) *stack {
	t.Helper()
	st, storeCfg := storetest.NewWithConfig(t)
	cfg := config.Auth{Base: config.Base{Store: storeCfg, JWTSecret: secret}, TokenTTL: time.Hour}
	dir := t.TempDir()
	box, err := outbox.New(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	h, err := routes.Mount(map[string]http.Handler{"auth": authapi.New(st, cfg, box).WithClock(c.now).Handler()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &stack{t: t, h: h, st: st, cfg: cfg, mailDir: dir}
}

// A confirmation link expires 24 hours after it was sent; a new one can be
// asked for.
func TestVerifyEmailLinkExpires(t *testing.T) {
	t.Parallel()
	c := &clock{t: time.Now()}
	s := newClockStack(t, c)
	reg := s.register(validRegistration())
	s.register(registration{Email: "bob@example.com", Username: "bob", FullName: "Bob", Password: "s3cret!"})
	c.advance(24*time.Hour - time.Minute)
	s.verify(s.lastLink("bob@example.com", "/verify-email")) // just in time
	c.advance(2 * time.Minute)
	old := s.lastLink("ada@example.com", "/verify-email")
	wantError(t, s.post("/api/v1/auth/verify-email", map[string]string{"token": old}), http.StatusBadRequest, "link_expired", "")

	got := decodeAs[statusJSON](t, s.do(req{method: http.MethodPost, path: "/api/v1/auth/resend-verification", token: reg.AccessToken}), http.StatusOK)
	if got.Status != "sent" || !strings.Contains(got.Detail, "ada@example.com") {
		t.Errorf("resend = %+v", got)
	}
	fresh := s.lastLink("ada@example.com", "/verify-email")
	if fresh == old {
		t.Fatal("resend mailed the old link")
	}
	if v := s.verify(fresh); !v.User.IsVerified {
		t.Errorf("fresh link: %+v", v)
	}
}

// resend-verification needs a session, is throttled per account, and says
// so when there is nothing to confirm.
func TestResendVerification(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	wantError(t, s.do(req{method: http.MethodPost, path: "/api/v1/auth/resend-verification"}), http.StatusUnauthorized, "unauthorized", "")
	reg := s.register(validRegistration())
	resend := func() *httptest.ResponseRecorder {
		return s.do(req{method: http.MethodPost, path: "/api/v1/auth/resend-verification", token: reg.AccessToken})
	}
	for range 5 {
		decodeAs[statusJSON](t, resend(), http.StatusOK)
	}
	if got := len(s.mails("ada@example.com")); got != 6 {
		t.Errorf("%d mails, want 6 (registration and 5 resends)", got)
	}
	wantThrottled(t, resend(), time.Hour)
	s.verify(s.lastLink("ada@example.com", "/verify-email"))
	if got := decodeAs[statusJSON](t, resend(), http.StatusOK); got.Status != "already_verified" {
		t.Errorf("resend when verified = %+v, want already_verified", got)
	}
}

// The authenticated endpoints of every route group, as one request each.
var signedInEndpoints = []struct{ method, path, body string }{
	{http.MethodGet, "/api/v1/auth/me", ""},
	{http.MethodGet, "/api/v1/users/activities", ""},
	{http.MethodGet, "/api/v1/prompts/free-usage-status", ""},
	{http.MethodGet, "/api/v1/payments/owned-prompts", ""},
	{http.MethodGet, "/api/v1/mcp-connections/", ""},
	{http.MethodPost, "/api/v1/mcp-connections/message", `{"connection_id":"none","message":"hi"}`},
	{http.MethodPost, "/api/v1/auth/logout", ""},
}

// wantRefusedEverywhere checks that token gets 401 on every group's
// signed-in endpoints.
func (s *stack) wantRefusedEverywhere(token, why string) {
	s.t.Helper()
	for _, e := range signedInEndpoints {
		w := s.do(req{method: e.method, path: e.path, body: e.body, token: token})
		if w.Code != http.StatusUnauthorized {
			s.t.Errorf("%s: %s %s = %d %s, want 401", why, e.method, e.path, w.Code, w.Body)
		}
	}
}

// wantAcceptedEverywhere checks that token passes every group's session
// check (the answer may still be another refusal, such as a 404).
func (s *stack) wantAcceptedEverywhere(token, why string) {
	s.t.Helper()
	for _, e := range signedInEndpoints {
		if e.path == "/api/v1/auth/logout" {
			continue
		}
		if w := s.do(req{method: e.method, path: e.path, body: e.body, token: token}); w.Code == http.StatusUnauthorized {
			s.t.Errorf("%s: %s %s = 401 %s", why, e.method, e.path, w.Body)
		}
	}
}

// Finding 4: logout revoked nothing. Now it ends that session: its token
// gets 401 on every endpoint of every group; other sessions go on.
func TestLogoutEndsTheSessionEverywhere(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	reg := s.register(validRegistration())
	other := decodeAs[tokenJSON](t, s.login("ada@example.com", "s3cret!"), http.StatusOK)
	s.wantAcceptedEverywhere(reg.AccessToken, "before logout")

	w := s.do(req{method: http.MethodPost, path: "/api/v1/auth/logout", token: reg.AccessToken})
	if w.Code != http.StatusNoContent {
		t.Fatalf("logout = %d %s, want 204", w.Code, w.Body)
	}
	s.wantRefusedEverywhere(reg.AccessToken, "after logout")
	s.wantAcceptedEverywhere(other.AccessToken, "another session after logout")
	wantError(t, s.do(req{method: http.MethodPost, path: "/api/v1/auth/logout"}), http.StatusUnauthorized, "unauthorized", "")
}

// Finding 4: a token for a deleted or unknown user worked everywhere but
// /auth/me. Now it is refused everywhere, as is a token without a session.
func TestTokensOfGoneUsersAreRefusedEverywhere(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	tokens := auth.NewTokens(secret, time.Hour)

	ghost, err := tokens.IssueSession("no-such-user", "no-such-session")
	storetest.Must(t, err, "token")
	s.wantRefusedEverywhere(ghost, "unknown user")

	reg := s.register(validRegistration())
	sessionless, err := tokens.Issue(reg.User.ID)
	storetest.Must(t, err, "token")
	s.wantRefusedEverywhere(sessionless, "token without a session")

	s.wantAcceptedEverywhere(reg.AccessToken, "before deletion")
	storetest.Must(t, s.st.DeleteUser(context.Background(), reg.User.ID), "delete user")
	s.wantRefusedEverywhere(reg.AccessToken, "deleted user")
	// The address is free again.
	s.register(validRegistration())
}

// Forgot password: the same answer whether or not the email has an
// account; a single-use link (1 h) sets a new password, ends every session
// and signs in; the old password is refused.
func TestPasswordReset(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	reg := s.register(validRegistration())
	other := decodeAs[tokenJSON](t, s.login("ada@example.com", "s3cret!"), http.StatusOK)

	known := s.post("/api/v1/auth/forgot-password", map[string]string{"email": "ADA@example.com"})
	unknown := s.post("/api/v1/auth/forgot-password", map[string]string{"email": "nobody@example.com"})
	if known.Code != http.StatusOK || unknown.Code != known.Code || unknown.Body.String() != known.Body.String() {
		t.Fatalf("known email: %d %s; unknown: %d %s; want the same answer", known.Code, known.Body, unknown.Code, unknown.Body)
	}
	if len(s.mails("nobody@example.com")) != 0 {
		t.Error("a mail went to an address without an account")
	}
	wantError(t, s.post("/api/v1/auth/forgot-password", map[string]string{"email": "not-an-email"}), http.StatusBadRequest, "invalid", "Invalid email address")
	token := s.lastLink("ada@example.com", "/reset-password")

	// SPEC's password rules, and a refused password does not spend the link.
	reset := func(token, password string) *httptest.ResponseRecorder {
		return s.post("/api/v1/auth/reset-password", map[string]string{"token": token, "password": password})
	}
	wantError(t, reset(token, "12345"), http.StatusBadRequest, "invalid", "Password must be at least 6 characters")
	wantError(t, reset(token, ""), http.StatusBadRequest, "invalid", "Password is required")

	got := decodeAs[tokenJSON](t, reset(token, "n3w-secret"), http.StatusOK)
	if got.TokenType != "bearer" || got.User.ID != reg.User.ID || !got.User.IsVerified {
		t.Errorf("reset answer = %+v, want ada signed in (and verified: the link proved the address)", got)
	}
	decodeAs[userJSON](t, s.get("/api/v1/auth/me", got.AccessToken), http.StatusOK)
	s.wantRefusedEverywhere(reg.AccessToken, "registration session after reset")
	s.wantRefusedEverywhere(other.AccessToken, "login session after reset")
	wantError(t, s.login("ada@example.com", "s3cret!"), http.StatusUnauthorized, "unauthorized", "Incorrect email or password")
	decodeAs[tokenJSON](t, s.login("ada@example.com", "n3w-secret"), http.StatusOK)

	wantError(t, reset(token, "an0ther-one"), http.StatusBadRequest, "link_used", "")
	wantError(t, reset("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "an0ther-one"), http.StatusBadRequest, "link_invalid", "")
	// A confirmation link is not a reset link.
	wantError(t, reset(s.lastLink("ada@example.com", "/verify-email"), "an0ther-one"), http.StatusBadRequest, "link_invalid", "")
	decodeAs[tokenJSON](t, s.login("ada@example.com", "n3w-secret"), http.StatusOK)
}

// A reset link sent before the password changed dies with that password.
func TestOlderResetLinksDieWithTheirPassword(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	s.register(validRegistration())
	s.post("/api/v1/auth/forgot-password", map[string]string{"email": "ada@example.com"})
	first := s.lastLink("ada@example.com", "/reset-password")
	s.post("/api/v1/auth/forgot-password", map[string]string{"email": "ada@example.com"})
	second := s.lastLink("ada@example.com", "/reset-password")
	decodeAs[tokenJSON](t, s.post("/api/v1/auth/reset-password", map[string]string{"token": second, "password": "n3w-secret"}), http.StatusOK)
	wantError(t, s.post("/api/v1/auth/reset-password", map[string]string{"token": first, "password": "attacker"}), http.StatusBadRequest, "link_expired", "")
	decodeAs[tokenJSON](t, s.login("ada@example.com", "n3w-secret"), http.StatusOK)
}

// A reset link lasts one hour.
func TestResetLinkExpires(t *testing.T) {
	t.Parallel()
	c := &clock{t: time.Now()}
	s := newClockStack(t, c)
	s.register(validRegistration())
	s.post("/api/v1/auth/forgot-password", map[string]string{"email": "ada@example.com"})
	token := s.lastLink("ada@example.com", "/reset-password")
	c.advance(time.Hour + time.Second)
	wantError(t, s.post("/api/v1/auth/reset-password", map[string]string{"token": token, "password": "n3w-secret"}), http.StatusBadRequest, "link_expired", "")
	decodeAs[tokenJSON](t, s.login("ada@example.com", "s3cret!"), http.StatusOK)

	s.post("/api/v1/auth/forgot-password", map[string]string{"email": "ada@example.com"})
	c.advance(time.Hour - time.Minute)
	decodeAs[tokenJSON](t, s.post("/api/v1/auth/reset-password", map[string]string{"token": s.lastLink("ada@example.com", "/reset-password"), "password": "n3w-secret"}), http.StatusOK)
}

// Reset requests are throttled per email, known or not, with the same 429.
func TestForgotPasswordThrottle(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	s.register(validRegistration())
	for _, email := range []string{"ada@example.com", "nobody@example.com"} {
		for range 5 {
			decodeAs[statusJSON](t, s.post("/api/v1/auth/forgot-password", map[string]string{"email": email}), http.StatusOK)
		}
		wantThrottled(t, s.post("/api/v1/auth/forgot-password", map[string]string{"email": email}), time.Hour)
	}
	if got := len(s.mails("ada@example.com")); got != 6 {
		t.Errorf("%d mails to ada, want 6 (confirmation and 5 reset links)", got)
	}
}

// Finding 3: an attacker registers the victim's Google address with a
// password; when the victim signs in with Google, the account was linked
// and the attacker's password kept working. Now an unverified account is
// taken over: the password is removed and every earlier session ends.
func TestGoogleTakesOverAnUnverifiedAccount(t *testing.T) {
	t.Parallel()
	f := newFakeIDP(t)
	s := newStack(t, f.configure)
	attacker := s.register(registration{Email: "victim@gmail.com", Username: "victim", FullName: "Not The Victim", Password: "attacker-pw"})
	attackerLogin := decodeAs[tokenJSON](t, s.login("victim@gmail.com", "attacker-pw"), http.StatusOK)

	token, errCode := s.signInWithGoogle(f, identity{Sub: "g-victim", Email: "victim@gmail.com", Verified: true, Name: "Victim"})
	if errCode != "" {
		t.Fatalf("sign-in failed with %q: %v", errCode, f.refusals())
	}
	me := decodeAs[userJSON](t, s.get("/api/v1/auth/me", token), http.StatusOK)
	if me.ID != attacker.User.ID || !me.IsVerified {
		t.Errorf("/me = %+v, want the account %s, now verified", me, attacker.User.ID)
	}
	s.wantAcceptedEverywhere(token, "the victim's Google session")
	wantError(t, s.login("victim@gmail.com", "attacker-pw"), http.StatusUnauthorized, "unauthorized", "Incorrect email or password")
	s.wantRefusedEverywhere(attacker.AccessToken, "attacker's registration session")
	s.wantRefusedEverywhere(attackerLogin.AccessToken, "attacker's login session")
	stored, err := s.st.GetUser(t.Context(), me.ID)
	if err != nil || stored.PasswordHash != "" || stored.GoogleSub != "g-victim" {
		t.Errorf("stored = %+v, %v; want no password and linked to g-victim", stored, err)
	}
	// The attacker's confirmation link, never opened, does not matter now;
	// the victim signs in with Google again into the same account.
	token2, _ := s.signInWithGoogle(f, identity{Sub: "g-victim", Email: "victim@gmail.com", Verified: true, Name: "Victim"})
	if me2 := decodeAs[userJSON](t, s.get("/api/v1/auth/me", token2), http.StatusOK); me2.ID != me.ID {
		t.Errorf("second sign-in: %s, want %s", me2.ID, me.ID)
	}
	s.wantAcceptedEverywhere(token, "the first Google session after the second sign-in")
}

// ADMIN_EMAILS at Google sign-in (a verified address): granted.
func TestGoogleSignInGrantsAdminEmails(t *testing.T) {
	t.Parallel()
	f := newFakeIDP(t)
	s := newStack(t, f.configure, func(c *config.Auth) { c.AdminEmails = []string{"boss@gmail.com"} })
	token, errCode := s.signInWithGoogle(f, identity{Sub: "g-boss", Email: "Boss@gmail.com", Verified: true, Name: "Boss"})
	if errCode != "" {
		t.Fatalf("sign-in failed with %q", errCode)
	}
	if me := decodeAs[userJSON](t, s.get("/api/v1/auth/me", token), http.StatusOK); !me.IsSuperuser || !me.IsVerified {
		t.Errorf("/me = %+v, want a verified admin", me)
	}
}

// Behind the product's CloudFront (in Lambda every request passes
// httpx.RequireOrigin, which checks the origin secret CloudFront adds) the
// per-address limits count the viewer's address, which CloudFront writes
// into X-Viewer-Address; API Gateway's own peer is the shared edge, and a
// request without the secret never reaches the handler. On the devserver
// (no check) no header can choose the client's address, nor the host of
// the links mailed to others.
func TestClientAddressBehindCloudFront(t *testing.T) {
	t.Parallel()
	const origin = "origin-secret-for-tests-0123456789abcdefghijklmnopqrstuvwxyzAB"
	s := newStack(t, func(c *config.Auth) { c.RegisterLimitPerIP = 2 })
	local := s.h
	s.h = httpx.RequireOrigin(origin, local) // as lambdaadapter mounts it
	register := func(i int, remote string, headers map[string]string) *httptest.ResponseRecorder {
		return s.do(req{method: http.MethodPost, path: "/api/v1/auth/register", remote: remote, header: headers,
			body: mustJSON(t, registration{Email: fmt.Sprintf("v%d@example.com", i), Username: fmt.Sprintf("viewer%d", i), FullName: "V", Password: "s3cret!"})})
	}
	edge := "130.176.0.9" // one CloudFront edge for every viewer
	via := func(viewer string) map[string]string {
		return map[string]string{httpx.OriginSecretHeader: origin, "X-Viewer-Address": viewer}
	}
	// Two viewers behind one edge: two each.
	for i, viewer := range []string{"198.51.100.1", "198.51.100.1", "198.51.100.2", "198.51.100.2"} {
		decodeAs[tokenJSON](t, register(i, edge, via(viewer)), http.StatusCreated)
	}
	wantThrottled(t, register(10, edge, via("198.51.100.1")), time.Hour)
	// Straight to the API: refused before any work.
	direct := map[string]string{"X-Viewer-Address": "198.51.100.99", "X-Forwarded-For": "198.51.100.98"}
	wantError(t, register(20, "203.0.113.50", direct), http.StatusForbidden, "forbidden", "")

	// The devserver: the peer counts, whatever the headers claim.
	s.h = local
	for i := range 2 {
		decodeAs[tokenJSON](t, register(40+i, "203.0.113.50", direct), http.StatusCreated)
	}
	wantThrottled(t, register(50, "203.0.113.50", map[string]string{"X-Viewer-Address": "198.51.100.97", httpx.OriginSecretHeader: origin}), time.Hour)

	// A reset asked for on the devserver with a forged host: the mailed
	// link keeps to the request's own host; through CloudFront, the host
	// CloudFront forwarded.
	s.do(req{method: http.MethodPost, path: "/api/v1/auth/forgot-password", remote: "203.0.113.60",
		header: map[string]string{"X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https"}, body: `{"email":"v0@example.com"}`})
	s.h = httpx.RequireOrigin(origin, local)
	s.do(req{method: http.MethodPost, path: "/api/v1/auth/forgot-password", remote: edge,
		header: map[string]string{httpx.OriginSecretHeader: origin, "X-Viewer-Address": "198.51.100.1", "X-Forwarded-Host": "app.example.com", "X-Forwarded-Proto": "http"},
		body:   `{"email":"v1@example.com"}`})
	for to, want := range map[string]string{"v0@example.com": "http://example.com/reset-password?token=", "v1@example.com": "https://app.example.com/reset-password?token="} {
		ms := s.mails(to)
		if len(ms) == 0 {
			t.Errorf("no reset mail to %s", to)
			continue
		}
		if body := ms[len(ms)-1].body; !strings.Contains(body, want) || strings.Contains(body, "evil.example") {
			t.Errorf("reset mail to %s: %q, want a link %s…", to, body, want)
		}
	}
}
