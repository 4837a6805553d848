package authapi_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/crypto/bcrypt"

	"aiwork/shared/auth"
	"aiwork/shared/config"
	"aiwork/shared/local/devstack"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

func TestMain(m *testing.M) {
	auth.PasswordCost = bcrypt.MinCost
	os.Exit(storetest.Main(m))
}

var secret = []byte("test-secret-test-secret-test-secret!")

// stack is the whole API (every route group, as the devserver mounts it) on a
// fresh table of its own.
type stack struct {
	t   *testing.T
	h   http.Handler
	st  *store.Store
	cfg config.Auth
	// mailDir is the local outbox every mail of the stack is written to.
	mailDir string
	// cookie is the browser-binding cookie the last Google start set.
	cookie *http.Cookie
}

func newStack(t *testing.T, configure ...func(*config.Auth)) *stack {
	t.Helper()
	return newStackWith(t, func(c *devstack.Config) {
		for _, edit := range configure {
			edit(&c.Auth)
		}
	})
}

// newStackWith is newStack with the whole stack's configuration to edit.
func newStackWith(t *testing.T, edit func(*devstack.Config)) *stack {
	t.Helper()
	st, storeCfg := storetest.NewWithConfig(t)
	cfg := devstack.Config{
		Auth:    config.Auth{Base: config.Base{Store: storeCfg, JWTSecret: secret}, TokenTTL: time.Hour},
		Prompts: config.Prompts{FreePromptsPerUser: 5},
		MailDir: t.TempDir(),
	}
	edit(&cfg)
	h, err := devstack.Handler(st, cfg, "")
	if err != nil {
		t.Fatalf("devstack.Handler: %v", err)
	}
	return &stack{t: t, h: h, st: st, cfg: cfg.Auth, mailDir: cfg.MailDir}
}

// on is the same stack reporting to t (a subtest's own T).
func (s *stack) on(t *testing.T) *stack {
	c := *s
	c.t = t
	return &c
}

type req struct {
	method string
	path   string
	body   string
	token  string
	remote string // RemoteAddr; httptest's 192.0.2.1:1234 when empty
	header map[string]string
}

func (s *stack) do(r req) *httptest.ResponseRecorder {
	s.t.Helper()
	var hr *http.Request
	if r.body != "" {
		hr = httptest.NewRequest(r.method, r.path, strings.NewReader(r.body))
		hr.Header.Set("Content-Type", "application/json")
	} else {
		hr = httptest.NewRequest(r.method, r.path, nil)
	}
	if r.token != "" {
		hr.Header.Set("Authorization", "Bearer "+r.token)
	}
	if r.remote != "" {
		hr.RemoteAddr = r.remote
	}
	for k, v := range r.header {
		hr.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	s.h.ServeHTTP(w, hr)
	return w
}

func (s *stack) post(path string, body any) *httptest.ResponseRecorder {
	s.t.Helper()
	return s.do(req{method: http.MethodPost, path: path, body: mustJSON(s.t, body)})
}

func (s *stack) get(path, token string) *httptest.ResponseRecorder {
	s.t.Helper()
	return s.do(req{method: http.MethodGet, path: path, token: token})
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

type userJSON struct {
	ID          string `json:"id"`
	Email       string `json:"email"`
	Username    string `json:"username"`
	FullName    string `json:"full_name"`
	IsSuperuser bool   `json:"is_superuser"`
	IsVerified  bool   `json:"is_verified"`
}

type tokenJSON struct {
	AccessToken string   `json:"access_token"`
	TokenType   string   `json:"token_type"`
	User        userJSON `json:"user"`
}

type errorJSON struct {
	Detail string `json:"detail"`
	Code   string `json:"code"`
}

type activityJSON struct {
	ID        string    `json:"id"`
	Type      string    `json:"type"`
	Title     string    `json:"title"`
	CreatedAt time.Time `json:"created_at"`
}

// decodeAs checks the status and JSON content type, then decodes the body.
func decodeAs[T any](t *testing.T, w *httptest.ResponseRecorder, wantStatus int) T {
	t.Helper()
	if w.Code != wantStatus {
		t.Fatalf("status = %d, want %d; body %s", w.Code, wantStatus, w.Body.String())
	}
	if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
	var v T
	if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil {
		t.Fatalf("body %q: %v", w.Body.String(), err)
	}
	return v
}

// wantError checks a JSON error answer.
func wantError(t *testing.T, w *httptest.ResponseRecorder, status int, code, detail string) errorJSON {
	t.Helper()
	e := decodeAs[errorJSON](t, w, status)
	if e.Code != code {
		t.Errorf("code = %q, want %q (detail %q)", e.Code, code, e.Detail)
	}
	if detail != "" && e.Detail != detail {
		t.Errorf("detail = %q, want %q", e.Detail, detail)
	}
	if e.Detail == "" {
		t.Error("detail is empty")
	}
	return e
}

type registration struct {
	Email    string `json:"email"`
	Username string `json:"username"`
	FullName string `json:"full_name"`
	Password string `json:"password"`
}

func validRegistration() registration {
	return registration{Email: "ada@example.com", Username: "ada", FullName: "Ada Lovelace", Password: "s3cret!"}
}

func (s *stack) register(r registration) tokenJSON {
	s.t.Helper()
	return decodeAs[tokenJSON](s.t, s.post("/api/v1/auth/register", r), http.StatusCreated)
}

func (s *stack) login(email, password string) *httptest.ResponseRecorder {
	s.t.Helper()
	return s.post("/api/v1/auth/login", map[string]string{"email": email, "password": password})
}

func TestRegister(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	r := validRegistration()
	r.Email = "  Ada@Example.COM "
	r.Username = " ada "
	r.FullName = " Ada Lovelace "
	w := s.post("/api/v1/auth/register", r)
	got := decodeAs[tokenJSON](t, w, http.StatusCreated)

	if got.AccessToken == "" || len(strings.Split(got.AccessToken, ".")) != 3 {
		t.Errorf("access_token = %q, want a JWT", got.AccessToken)
	}
	if got.TokenType != "bearer" {
		t.Errorf("token_type = %q, want bearer", got.TokenType)
	}
	want := userJSON{ID: got.User.ID, Email: "ada@example.com", Username: "ada", FullName: "Ada Lovelace", IsSuperuser: false}
	if got.User.ID == "" || got.User != want {
		t.Errorf("user = %+v, want %+v with an id", got.User, want)
	}
	assertNoSecrets(t, w.Body.String())

	// The token works on /me and answers the same account.
	me := s.get("/api/v1/auth/me", got.AccessToken)
	if u := decodeAs[userJSON](t, me, http.StatusOK); u != want {
		t.Errorf("/me = %+v, want %+v", u, want)
	}
	assertNoSecrets(t, me.Body.String())

	// The password is stored hashed, never in clear.
	stored, err := s.st.GetUser(t.Context(), got.User.ID)
	if err != nil {
		t.Fatal(err)
	}
	if stored.PasswordHash == "" || stored.PasswordHash == "s3cret!" || !auth.CheckPassword(stored.PasswordHash, "s3cret!") {
		t.Errorf("stored password hash %q is not a bcrypt hash of the password", stored.PasswordHash)
	}
}

// assertNoSecrets fails when an answer leaks the password or its hash.
func assertNoSecrets(t *testing.T, body string) {
	t.Helper()
	for _, leak := range []string{"password", "$2a$", "google_sub"} {
		if strings.Contains(body, leak) {
			t.Errorf("answer %s contains %q", body, leak)
		}
	}
}

func TestRegisterValidation(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	tests := []struct {
		name   string
		edit   func(*registration)
		detail string
	}{
		{"missing email", func(r *registration) { r.Email = "" }, "Email is required"},
		{"blank email", func(r *registration) { r.Email = "   " }, "Email is required"},
		{"bad email", func(r *registration) { r.Email = "not-an-email" }, "Invalid email address"},
		{"email without domain dot", func(r *registration) { r.Email = "ada@example" }, "Invalid email address"},
		{"email with space", func(r *registration) { r.Email = "ada lovelace@example.com" }, "Invalid email address"},
		{"missing password", func(r *registration) { r.Password = "" }, "Password is required"},
		{"short password", func(r *registration) { r.Password = "12345" }, "Password must be at least 6 characters"},
		{"missing username", func(r *registration) { r.Username = "" }, "Username is required"},
		{"blank username", func(r *registration) { r.Username = "  " }, "Username is required"},
		{"short username", func(r *registration) { r.Username = "ab" }, "Username must be at least 3 characters"},
		{"missing full name", func(r *registration) { r.FullName = "" }, "Full name is required"},
		{"blank full name", func(r *registration) { r.FullName = " \t " }, "Full name is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := s.on(t)
			r := validRegistration()
			tt.edit(&r)
			wantError(t, s.post("/api/v1/auth/register", r), http.StatusBadRequest, "invalid", tt.detail)
		})
	}
	// None of the refused registrations created an account.
	if _, err := s.st.UserByEmail(t.Context(), "ada@example.com"); err == nil {
		t.Error("a refused registration created ada@example.com")
	}
	// And the valid one still goes through.
	s.register(validRegistration())
}

func TestRegisterConflicts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		second registration
		detail string
	}{
		{"same email", registration{Email: "ada@example.com", Username: "other", FullName: "X", Password: "s3cret!"}, "Email already registered"},
		{"email in another case", registration{Email: "ADA@EXAMPLE.COM", Username: "other", FullName: "X", Password: "s3cret!"}, "Email already registered"},
		{"same username", registration{Email: "bob@example.com", Username: "ada", FullName: "X", Password: "s3cret!"}, "Username already taken"},
		{"username in another case", registration{Email: "bob@example.com", Username: "ADA", FullName: "X", Password: "s3cret!"}, "Username already taken"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newStack(t)
			first := s.register(validRegistration())
			wantError(t, s.post("/api/v1/auth/register", tt.second), http.StatusConflict, "conflict", tt.detail)
			// The first account still signs in with its own password.
			got := decodeAs[tokenJSON](t, s.login("ada@example.com", "s3cret!"), http.StatusOK)
			if got.User.ID != first.User.ID {
				t.Errorf("login answers %s, want the first account %s", got.User.ID, first.User.ID)
			}
		})
	}
}

func TestRegisterConcurrentOneEmail(t *testing.T) {
	t.Parallel()
	// 20 registrations from one address: over REGISTER_LIMIT_PER_IP's
	// default, which is not what this test is about.
	s := newStack(t, func(c *config.Auth) { c.RegisterLimitPerIP = 50 })
	const n = 20
	codes := make([]int, n)
	bodies := make([]string, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		body := mustJSON(t, registration{Email: "race@example.com", Username: fmt.Sprintf("racer%02d", i), FullName: "Racer", Password: "s3cret!"})
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			w := s.do(req{method: http.MethodPost, path: "/api/v1/auth/register", body: body})
			codes[i], bodies[i] = w.Code, w.Body.String()
		}()
	}
	close(start)
	wg.Wait()
	created, conflicts := 0, 0
	var winner tokenJSON
	for i, code := range codes {
		switch code {
		case http.StatusCreated:
			created++
			_ = json.Unmarshal([]byte(bodies[i]), &winner)
		case http.StatusConflict:
			conflicts++
			if !strings.Contains(bodies[i], "Email already registered") {
				t.Errorf("409 body %s, want 'Email already registered'", bodies[i])
			}
		default:
			t.Errorf("registration %d: %d %s", i, code, bodies[i])
		}
	}
	if created != 1 || conflicts != n-1 {
		t.Fatalf("%d created, %d conflicts; want 1 and %d", created, conflicts, n-1)
	}
	got := decodeAs[tokenJSON](t, s.login("race@example.com", "s3cret!"), http.StatusOK)
	if got.User.ID != winner.User.ID || got.User.Username != winner.User.Username {
		t.Errorf("login answers %+v, want the one registered account %+v", got.User, winner.User)
	}
}

// ADMIN_EMAILS makes an admin only of a proven address: not at
// registration (anyone can type any address), at verification.
func TestRegisterAdminEmails(t *testing.T) {
	t.Parallel()
	s := newStack(t, func(c *config.Auth) { c.AdminEmails = []string{"boss@example.com"} })
	boss := registration{Email: "Boss@Example.com", Username: "boss", FullName: "The Boss", Password: "s3cret!"}
	reg := s.register(boss)
	if reg.User.IsSuperuser || reg.User.IsVerified {
		t.Errorf("admin email registered as %+v, want neither admin nor verified before the mail link", reg.User)
	}
	if me := decodeAs[userJSON](t, s.get("/api/v1/auth/me", reg.AccessToken), http.StatusOK); me.IsSuperuser {
		t.Error("/me says admin before verification")
	}
	if got := decodeAs[tokenJSON](t, s.login("boss@example.com", "s3cret!"), http.StatusOK); got.User.IsSuperuser {
		t.Error("admin's login answer before verification has is_superuser true")
	}
	verified := s.verify(s.lastLink("boss@example.com", "/verify-email"))
	if !verified.User.IsSuperuser || !verified.User.IsVerified {
		t.Errorf("verified admin email = %+v, want is_superuser and is_verified", verified.User)
	}
	got := decodeAs[tokenJSON](t, s.login("boss@example.com", "s3cret!"), http.StatusOK)
	if !got.User.IsSuperuser {
		t.Error("admin's login answer after verification has is_superuser false")
	}
	// An ordinary email, verified too, stays an ordinary account.
	s.register(validRegistration())
	if v := s.verify(s.lastLink("ada@example.com", "/verify-email")); v.User.IsSuperuser {
		t.Errorf("ordinary email verified as admin: %+v", v.User)
	}
}

func TestLogin(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	reg := s.register(validRegistration())
	for _, email := range []string{"ada@example.com", "ADA@Example.Com", "  ada@example.com  "} {
		w := s.login(email, "s3cret!")
		got := decodeAs[tokenJSON](t, w, http.StatusOK)
		if got.TokenType != "bearer" || got.User != reg.User {
			t.Errorf("login(%q) = %+v, want bearer and %+v", email, got, reg.User)
		}
		assertNoSecrets(t, w.Body.String())
		if u := decodeAs[userJSON](t, s.get("/api/v1/auth/me", got.AccessToken), http.StatusOK); u.ID != reg.User.ID {
			t.Errorf("/me with login token = %+v, want %s", u, reg.User.ID)
		}
	}
}

func TestLoginRefused(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	s.register(validRegistration())
	tests := []struct {
		name   string
		body   string
		status int
		code   string
		detail string
	}{
		{"wrong password", `{"email":"ada@example.com","password":"wrong-one"}`, 401, "unauthorized", "Incorrect email or password"},
		{"password in other case", `{"email":"ada@example.com","password":"S3CRET!"}`, 401, "unauthorized", "Incorrect email or password"},
		{"unknown email", `{"email":"nobody@example.com","password":"s3cret!"}`, 401, "unauthorized", "Incorrect email or password"},
		{"missing email", `{"password":"s3cret!"}`, 400, "invalid", "Email is required"},
		{"bad email", `{"email":"ada","password":"s3cret!"}`, 400, "invalid", "Invalid email address"},
		{"missing password", `{"email":"ada@example.com"}`, 400, "invalid", "Password is required"},
		{"empty password", `{"email":"ada@example.com","password":""}`, 400, "invalid", "Password is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := s.on(t)
			w := s.do(req{method: http.MethodPost, path: "/api/v1/auth/login", body: tt.body})
			wantError(t, w, tt.status, tt.code, tt.detail)
			if strings.Contains(w.Body.String(), "access_token") {
				t.Errorf("refused login answered a token: %s", w.Body.String())
			}
		})
	}
}

func TestLoginThrottle(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	s.register(validRegistration())
	s.register(registration{Email: "bob@example.com", Username: "bob", FullName: "Bob", Password: "s3cret!"})

	for i := 1; i <= 5; i++ {
		// The key is the email, whatever its case.
		email := "ada@example.com"
		if i%2 == 0 {
			email = "ADA@example.com"
		}
		wantError(t, s.login(email, "wrong-"+strconv.Itoa(i)), http.StatusUnauthorized, "unauthorized", "Incorrect email or password")
	}
	// The sixth attempt is refused even with the right password.
	w := s.login("ada@example.com", "s3cret!")
	e := wantError(t, w, http.StatusTooManyRequests, "rate_limited", "")
	if !strings.Contains(e.Detail, "Try again in") {
		t.Errorf("detail = %q, want it to contain 'Try again in'", e.Detail)
	}
	ra, err := strconv.Atoi(w.Header().Get("Retry-After"))
	if err != nil || ra <= 0 || ra > int((15*time.Minute).Seconds()) {
		t.Errorf("Retry-After = %q, want seconds within the 15-minute window", w.Header().Get("Retry-After"))
	}
	if strings.Contains(w.Body.String(), "access_token") {
		t.Error("a throttled login answered a token")
	}
	// Still refused on the next try, and for an unknown password too.
	wantError(t, s.login("ada@example.com", "wrong"), http.StatusTooManyRequests, "rate_limited", "")

	// Another email from the same client is not blocked.
	decodeAs[tokenJSON](t, s.login("bob@example.com", "s3cret!"), http.StatusOK)
	wantError(t, s.login("bob@example.com", "wrong"), http.StatusUnauthorized, "unauthorized", "Incorrect email or password")
}

func TestLoginSuccessResetsFailures(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	s.register(validRegistration())
	for round := 1; round <= 3; round++ {
		for i := 0; i < 4; i++ {
			wantError(t, s.login("ada@example.com", "wrong"), http.StatusUnauthorized, "unauthorized", "Incorrect email or password")
		}
		// 4, then 8, then 12 failures in all: only the reset keeps this open.
		decodeAs[tokenJSON](t, s.login("ada@example.com", "s3cret!"), http.StatusOK)
	}
}

func TestLoginThrottlePerRemoteIsLooser(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	// Five failures each for several accounts from one address: fifteen in
	// all, yet the per-address limit is far higher than the per-email one.
	// (Registered accounts, so each failure is a cheap MinCost comparison.)
	for i := range 3 {
		s.register(registration{Email: fmt.Sprintf("user%d@example.com", i), Username: fmt.Sprintf("user%d", i), FullName: "U", Password: "s3cret!"})
	}
	for i := range 3 {
		for range 5 {
			w := s.do(req{method: http.MethodPost, path: "/api/v1/auth/login", remote: "198.51.100.7:5555",
				body: mustJSON(t, map[string]string{"email": fmt.Sprintf("user%d@example.com", i), "password": "wrong"})})
			wantError(t, w, http.StatusUnauthorized, "unauthorized", "Incorrect email or password")
		}
	}
	s.register(validRegistration())
	w := s.do(req{method: http.MethodPost, path: "/api/v1/auth/login", remote: "198.51.100.7:5555",
		body: mustJSON(t, map[string]string{"email": "ada@example.com", "password": "s3cret!"})})
	decodeAs[tokenJSON](t, w, http.StatusOK)
}

func TestBadRequests(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	big := `{"email":"ada@example.com","password":"s3cret!","pad":"` + strings.Repeat("x", 65<<10) + `"}`
	tests := []struct {
		name   string
		method string
		path   string
		body   string
		status int
		code   string
	}{
		{"malformed register", "POST", "/api/v1/auth/register", `{"email":"ada@example.com",`, 400, "invalid"},
		{"malformed login", "POST", "/api/v1/auth/login", `{email: ada}`, 400, "invalid"},
		{"wrong type register", "POST", "/api/v1/auth/register", `{"email":"ada@example.com","username":42,"full_name":"A","password":"s3cret!"}`, 400, "invalid"},
		{"wrong type login", "POST", "/api/v1/auth/login", `{"email":["ada@example.com"],"password":"s3cret!"}`, 400, "invalid"},
		{"array body", "POST", "/api/v1/auth/login", `[]`, 400, "invalid"},
		{"empty body", "POST", "/api/v1/auth/register", ``, 400, "invalid"},
		{"65 KiB register", "POST", "/api/v1/auth/register", big, 413, "too_large"},
		{"65 KiB login", "POST", "/api/v1/auth/login", big, 413, "too_large"},
		{"GET on register", "GET", "/api/v1/auth/register", ``, 405, "invalid"},
		{"GET on login", "GET", "/api/v1/auth/login", ``, 405, "invalid"},
		{"POST on me", "POST", "/api/v1/auth/me", `{}`, 405, "invalid"},
		{"unknown auth path", "GET", "/api/v1/auth/x", ``, 404, "not_found"},
		{"unknown auth path POST", "POST", "/api/v1/auth/x", `{}`, 404, "not_found"},
		{"unknown users path", "GET", "/api/v1/users/x", ``, 404, "not_found"},
		{"unknown group", "GET", "/api/v1/nothing", ``, 404, "not_found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := s.on(t)
			t.Parallel()
			wantError(t, s.do(req{method: tt.method, path: tt.path, body: tt.body}), tt.status, tt.code, "")
		})
	}
	t.Run("wrong type names the field", func(t *testing.T) {
		s := s.on(t)
		t.Parallel()
		e := wantError(t, s.do(req{method: "POST", path: "/api/v1/auth/register", body: `{"email":"ada@example.com","username":42,"full_name":"A","password":"s3cret!"}`}), 400, "invalid", "")
		if !strings.Contains(e.Detail, "username") {
			t.Errorf("detail = %q, want it to name the field username", e.Detail)
		}
	})
	t.Run("unknown fields are ignored", func(t *testing.T) {
		s := s.on(t)
		t.Parallel()
		body := `{"email":"eve@example.com","username":"eve","full_name":"Eve","password":"s3cret!","is_superuser":true,"id":"chosen"}`
		got := decodeAs[tokenJSON](t, s.do(req{method: "POST", path: "/api/v1/auth/register", body: body}), http.StatusCreated)
		if got.User.IsSuperuser || got.User.ID == "chosen" {
			t.Errorf("client-sent fields were honoured: %+v", got.User)
		}
	})
}

func TestMe(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	reg := s.register(validRegistration())
	tokens := auth.NewTokens(secret, time.Hour)

	expired, err := tokens.WithClock(func() time.Time { return time.Now().Add(-2 * time.Hour) }).Issue(reg.User.ID)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(reg.AccessToken, ".")
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var claims map[string]any
	if err := json.Unmarshal(payload, &claims); err != nil {
		t.Fatal(err)
	}
	claims["exp"] = float64(time.Now().Add(100 * 24 * time.Hour).Unix())
	longer, _ := json.Marshal(claims)
	tampered := parts[0] + "." + base64.RawURLEncoding.EncodeToString(longer) + "." + parts[2]
	none, err := jwt.NewWithClaims(jwt.SigningMethodNone, jwt.RegisteredClaims{
		Subject: reg.User.ID, ExpiresAt: jwt.NewNumericDate(time.Now().Add(time.Hour)),
	}).SignedString(jwt.UnsafeAllowNoneSignatureType)
	if err != nil {
		t.Fatal(err)
	}
	ghost, err := tokens.Issue("no-such-user")
	if err != nil {
		t.Fatal(err)
	}
	foreign, err := auth.NewTokens([]byte("another-secret-another-secret-another"), time.Hour).Issue(reg.User.ID)
	if err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name   string
		header string
	}{
		{"no token", ""},
		{"expired", "Bearer " + expired},
		{"tampered", "Bearer " + tampered},
		{"alg none", "Bearer " + none},
		{"other key", "Bearer " + foreign},
		{"garbage", "Bearer garbage"},
		{"basic scheme", "Basic " + base64.StdEncoding.EncodeToString([]byte("ada@example.com:s3cret!"))},
		{"deleted account", "Bearer " + ghost},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := s.on(t)
			t.Parallel()
			r := req{method: http.MethodGet, path: "/api/v1/auth/me"}
			if tt.header != "" {
				r.header = map[string]string{"Authorization": tt.header}
			}
			w := s.do(r)
			wantError(t, w, http.StatusUnauthorized, "unauthorized", "")
			if strings.Contains(w.Body.String(), reg.User.Email) {
				t.Errorf("refused /me leaked the account: %s", w.Body.String())
			}
		})
	}
	// The same account with its real token is fine.
	if u := decodeAs[userJSON](t, s.get("/api/v1/auth/me", reg.AccessToken), http.StatusOK); u.ID != reg.User.ID {
		t.Errorf("/me = %+v, want %s", u, reg.User.ID)
	}
}

func TestHealth(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	got := decodeAs[map[string]string](t, s.get("/api/v1/auth/health", ""), http.StatusOK)
	if len(got) != 1 || got["status"] != "ok" {
		t.Errorf("health = %v, want {status: ok}", got)
	}
}

func TestActivities(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	ada := s.register(validRegistration())
	bob := s.register(registration{Email: "bob@example.com", Username: "bob", FullName: "Bob", Password: "s3cret!"})
	wantError(t, s.login("ada@example.com", "wrong"), http.StatusUnauthorized, "unauthorized", "")
	login := decodeAs[tokenJSON](t, s.login("ada@example.com", "s3cret!"), http.StatusOK)

	acts := decodeAs[[]activityJSON](t, s.get("/api/v1/users/activities", login.AccessToken), http.StatusOK)
	if len(acts) != 2 {
		t.Fatalf("ada's activities = %+v, want [login, account_created]", acts)
	}
	if acts[0].Type != "login" || acts[1].Type != "account_created" {
		t.Errorf("types = [%s, %s], want [login, account_created]", acts[0].Type, acts[1].Type)
	}
	if !acts[0].CreatedAt.After(acts[1].CreatedAt) {
		t.Errorf("login at %v is not after account creation at %v: want newest first", acts[0].CreatedAt, acts[1].CreatedAt)
	}
	for _, a := range acts {
		if a.ID == "" || a.Title == "" || a.CreatedAt.IsZero() {
			t.Errorf("activity %+v lacks id, title or created_at", a)
		}
	}
	// The registration token names the same user, so it lists the same.
	if again := decodeAs[[]activityJSON](t, s.get("/api/v1/users/activities", ada.AccessToken), http.StatusOK); len(again) != 2 {
		t.Errorf("with the registration token: %d activities, want 2", len(again))
	}

	bobs := decodeAs[[]activityJSON](t, s.get("/api/v1/users/activities", bob.AccessToken), http.StatusOK)
	if len(bobs) != 1 || bobs[0].Type != "account_created" {
		t.Errorf("bob's activities = %+v, want only his account_created", bobs)
	}
	for _, a := range bobs {
		for _, mine := range acts {
			if a.ID == mine.ID && a.CreatedAt.Equal(mine.CreatedAt) {
				t.Errorf("bob sees ada's activity %+v", a)
			}
		}
	}
}

func TestActivitiesNeedToken(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	w := s.get("/api/v1/users/activities", "")
	wantError(t, w, http.StatusUnauthorized, "unauthorized", "")
	if got := w.Header().Get("WWW-Authenticate"); got != "Bearer" {
		t.Errorf("WWW-Authenticate = %q, want Bearer", got)
	}
	wantError(t, s.get("/api/v1/users/activities", "bad.token.here"), http.StatusUnauthorized, "unauthorized", "")
	wantError(t, s.do(req{method: http.MethodPost, path: "/api/v1/users/activities", body: "{}"}), http.StatusMethodNotAllowed, "invalid", "")
}
