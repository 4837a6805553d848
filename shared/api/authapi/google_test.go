package authapi_test

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"aiwork/shared/config"
	"aiwork/shared/httpx"
)

// identity is the Google account that the fake provider signs in.
type identity struct {
	Sub      string
	Email    string
	Verified bool
	Name     string
}

type grant struct {
	challenge   string
	redirectURI string
	who         identity
}

// fakeIDP is an OpenID provider speaking the protocol Google speaks:
// discovery, JWKS, an authorize endpoint that redirects back with a code, and
// a token endpoint that checks the client, the code and PKCE (S256) before
// answering an RS256 ID token.
type fakeIDP struct {
	srv          *httptest.Server
	key          *rsa.PrivateKey // published in the JWKS
	clientID     string
	clientSecret string

	mu         sync.Mutex
	signKey    *rsa.PrivateKey // signs ID tokens; key unless a test swaps it
	next       identity        // who consents at the next authorize
	codes      map[string]grant
	tokenCalls int
	failures   []string // why token requests were refused
}

var (
	rsaOnce sync.Once
	rsaKey  *rsa.PrivateKey
)

func newFakeIDP(t *testing.T) *fakeIDP {
	t.Helper()
	rsaOnce.Do(func() {
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			panic(err)
		}
		rsaKey = k
	})
	f := &fakeIDP{key: rsaKey, signKey: rsaKey, clientID: "client-123", clientSecret: "shh-secret", codes: map[string]grant{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", f.discovery)
	mux.HandleFunc("GET /jwks", f.jwks)
	mux.HandleFunc("GET /authorize", f.authorize)
	mux.HandleFunc("POST /token", f.token)
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeIDP) discovery(w http.ResponseWriter, r *http.Request) {
	u := f.srv.URL
	writeJSON(w, http.StatusOK, map[string]any{
		"issuer":                                u,
		"authorization_endpoint":                u + "/authorize",
		"token_endpoint":                        u + "/token",
		"jwks_uri":                              u + "/jwks",
		"response_types_supported":              []string{"code"},
		"subject_types_supported":               []string{"public"},
		"id_token_signing_alg_values_supported": []string{"RS256"},
		"code_challenge_methods_supported":      []string{"S256"},
	})
}

func (f *fakeIDP) jwks(w http.ResponseWriter, r *http.Request) {
	b64 := base64.RawURLEncoding.EncodeToString
	writeJSON(w, http.StatusOK, map[string]any{"keys": []map[string]string{{
		"kty": "RSA", "kid": "k1", "use": "sig", "alg": "RS256",
		"n": b64(f.key.N.Bytes()), "e": b64(big.NewInt(int64(f.key.E)).Bytes()),
	}}})
}

// authorize is the consent screen: the user (f.next) agrees at once and is
// sent back to redirect_uri with a code and the state, as Google does.
func (f *fakeIDP) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("client_id") != f.clientID || q.Get("response_type") != "code" ||
		q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || q.Get("redirect_uri") == "" {
		http.Error(w, "bad authorize request: "+r.URL.RawQuery, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	code := fmt.Sprintf("code-%d", len(f.codes)+1)
	f.codes[code] = grant{challenge: q.Get("code_challenge"), redirectURI: q.Get("redirect_uri"), who: f.next}
	f.mu.Unlock()
	back, _ := url.Parse(q.Get("redirect_uri"))
	back.RawQuery = url.Values{"code": {code}, "state": {q.Get("state")}}.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

func (f *fakeIDP) token(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tokenCalls++
	refuse := func(status int, errCode, why string) {
		f.failures = append(f.failures, why)
		writeJSON(w, status, map[string]string{"error": errCode, "error_description": why})
	}
	if err := r.ParseForm(); err != nil {
		refuse(400, "invalid_request", err.Error())
		return
	}
	id, sec, ok := r.BasicAuth()
	if !ok {
		id, sec = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	} else {
		id, _ = url.QueryUnescape(id)
		sec, _ = url.QueryUnescape(sec)
	}
	if id != f.clientID || sec != f.clientSecret {
		refuse(401, "invalid_client", "bad client credentials")
		return
	}
	if r.PostForm.Get("grant_type") != "authorization_code" {
		refuse(400, "unsupported_grant_type", r.PostForm.Get("grant_type"))
		return
	}
	code := r.PostForm.Get("code")
	g, ok := f.codes[code]
	if !ok {
		refuse(400, "invalid_grant", "unknown or used code "+code)
		return
	}
	delete(f.codes, code) // codes are single-use
	if r.PostForm.Get("redirect_uri") != g.redirectURI {
		refuse(400, "invalid_grant", "redirect_uri differs from the authorize request")
		return
	}
	sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
	if r.PostForm.Get("code_verifier") == "" || base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge {
		refuse(400, "invalid_grant", "PKCE verifier does not match the challenge")
		return
	}
	now := time.Now()
	idt := jwt.NewWithClaims(jwt.SigningMethodRS256, jwt.MapClaims{
		"iss": f.srv.URL, "aud": f.clientID, "sub": g.who.Sub, "email": g.who.Email,
		"email_verified": g.who.Verified, "name": g.who.Name,
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix(),
	})
	idt.Header["kid"] = "k1"
	signed, err := idt.SignedString(f.signKey)
	if err != nil {
		refuse(500, "server_error", err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"access_token": "at-" + code, "token_type": "Bearer", "expires_in": 3600, "id_token": signed,
	})
}

// stats answers how many token requests came and why any were refused.
func (f *fakeIDP) stats() (calls int, failures []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.tokenCalls, append([]string(nil), f.failures...)
}

func (f *fakeIDP) refusals() []string {
	_, failures := f.stats()
	return failures
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (f *fakeIDP) configure(c *config.Auth) {
	c.Google = config.Google{ClientID: f.clientID, ClientSecret: f.clientSecret, IssuerURL: f.srv.URL}
}

// startGoogle asks our API for the consent URL.
func (s *stack) startGoogle() *url.URL {
	s.t.Helper()
	w := s.get("/api/v1/auth/google/login", "")
	got := decodeAs[map[string]string](s.t, w, http.StatusOK)
	s.cookie = nil
	for _, c := range w.Result().Cookies() {
		if c.Name == "google_oauth_nonce" && c.HttpOnly && c.Value != "" {
			s.cookie = c
		}
	}
	if s.cookie == nil {
		s.t.Fatalf("google login set no HttpOnly browser-binding cookie: %v", w.Header()["Set-Cookie"])
	}
	u, err := url.Parse(got["auth_url"])
	if err != nil || got["auth_url"] == "" {
		s.t.Fatalf("auth_url %q: %v", got["auth_url"], err)
	}
	return u
}

// consent plays the browser at the provider: who signs in at authURL, and
// the provider's redirect back (path and query on our API) is answered.
func (f *fakeIDP) consent(t *testing.T, who identity, authURL *url.URL) *url.URL {
	t.Helper()
	f.mu.Lock()
	f.next = who
	f.mu.Unlock()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Get(authURL.String())
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusFound {
		t.Fatalf("authorize answered %d, want 302", res.StatusCode)
	}
	back, err := url.Parse(res.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	return back
}

// callback sends the browser's return to our API and answers where the API
// redirects it: the token on success, or the error code.
func (s *stack) callback(back *url.URL) (token, errCode string) {
	s.t.Helper()
	return s.callbackWith(back, s.cookie)
}

// callbackWith is callback from a browser holding cookie (nil: none).
func (s *stack) callbackWith(back *url.URL, cookie *http.Cookie) (token, errCode string) {
	s.t.Helper()
	r := req{method: http.MethodGet, path: back.RequestURI()}
	if cookie != nil {
		r.header = map[string]string{"Cookie": cookie.Name + "=" + cookie.Value}
	}
	w := s.do(r)
	if w.Code != http.StatusFound {
		s.t.Fatalf("callback answered %d %s, want 302", w.Code, w.Body.String())
	}
	loc, err := url.Parse(w.Header().Get("Location"))
	if err != nil {
		s.t.Fatal(err)
	}
	if loc.Path != "/auth/callback" || loc.Host != "" || loc.Scheme != "" {
		s.t.Fatalf("callback redirects to %q, want the app's relative /auth/callback", loc)
	}
	q := loc.Query()
	if e := q.Get("error"); e != "" {
		if q.Get("token") != "" {
			s.t.Errorf("redirect %q carries both an error and a token", loc)
		}
		return "", e
	}
	if q.Get("type") != "google" || q.Get("token") == "" {
		s.t.Fatalf("redirect %q, want token and type=google", loc)
	}
	return q.Get("token"), ""
}

func (s *stack) signInWithGoogle(f *fakeIDP, who identity) (token, errCode string) {
	s.t.Helper()
	return s.callback(f.consent(s.t, who, s.startGoogle()))
}

var adaGoogle = identity{Sub: "g-100", Email: "Ada@Gmail.com", Verified: true, Name: "Ada L."}

func TestGoogleNotConfigured(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	// Written for users; the operator's hint (which variables) goes to the log.
	e := wantError(t, s.get("/api/v1/auth/google/login", ""), http.StatusServiceUnavailable, "unavailable", "Google sign-in is not available on this site.")
	if strings.Contains(e.Detail, "GOOGLE_") || strings.Contains(e.Detail, "operator") {
		t.Errorf("detail = %q speaks to the operator, not the user", e.Detail)
	}
	for _, q := range []string{"", "?code=abc&state=xyz", "?error=access_denied"} {
		w := s.get("/api/v1/auth/google/callback"+q, "")
		if w.Code != http.StatusFound || w.Header().Get("Location") != "/auth/callback?error=oauth_failed" {
			t.Errorf("callback%s = %d to %q, want 302 to /auth/callback?error=oauth_failed", q, w.Code, w.Header().Get("Location"))
		}
	}
	// Half a configuration is no configuration.
	half := newStack(t, func(c *config.Auth) { c.Google = config.Google{ClientID: "id-only", IssuerURL: "http://127.0.0.1:1"} })
	wantError(t, half.get("/api/v1/auth/google/login", ""), http.StatusServiceUnavailable, "unavailable", "")
}

func TestGoogleProviderUnreachable(t *testing.T) {
	t.Parallel()
	dead := httptest.NewServer(http.NotFoundHandler())
	dead.Close()
	s := newStack(t, func(c *config.Auth) {
		c.Google = config.Google{ClientID: "id", ClientSecret: "secret", IssuerURL: dead.URL}
	})
	wantError(t, s.get("/api/v1/auth/google/login", ""), http.StatusBadGateway, "upstream", "")
}

func TestGoogleLoginURL(t *testing.T) {
	t.Parallel()
	f := newFakeIDP(t)
	s := newStack(t, f.configure)
	u := s.startGoogle()
	if got, want := u.Scheme+"://"+u.Host+u.Path, f.srv.URL+"/authorize"; got != want {
		t.Errorf("auth_url endpoint = %q, want %q", got, want)
	}
	q := u.Query()
	checks := map[string]string{
		"client_id":             f.clientID,
		"response_type":         "code",
		"code_challenge_method": "S256",
		"redirect_uri":          "http://example.com/api/v1/auth/google/callback",
	}
	for k, want := range checks {
		if got := q.Get(k); got != want {
			t.Errorf("auth_url %s = %q, want %q", k, got, want)
		}
	}
	if !strings.Contains(q.Get("scope"), "openid") || !strings.Contains(q.Get("scope"), "email") {
		t.Errorf("scope = %q, want openid and email", q.Get("scope"))
	}
	if c := q.Get("code_challenge"); len(c) != 43 {
		t.Errorf("code_challenge = %q, want a base64url SHA-256 (43 chars)", c)
	}
	if st := q.Get("state"); len(strings.Split(st, ".")) != 3 {
		t.Errorf("state = %q, want a signed token", st)
	}
	if strings.Contains(u.RawQuery, "code_verifier") {
		t.Error("auth_url carries the PKCE verifier")
	}
	// Each start has its own state and challenge.
	u2 := s.startGoogle()
	if u2.Query().Get("state") == q.Get("state") || u2.Query().Get("code_challenge") == q.Get("code_challenge") {
		t.Error("two starts share a state or a PKCE challenge")
	}

	t.Run("forwarded and configured public URL", func(t *testing.T) {
		s := s.on(t)
		t.Parallel()
		forwarded := map[string]string{"X-Forwarded-Proto": "https", "X-Forwarded-Host": "app.example.org"}
		redirectURI := func(h http.Handler, header map[string]string) string {
			t.Helper()
			c := *s
			c.h = h
			got := decodeAs[map[string]string](t, c.do(req{method: http.MethodGet, path: "/api/v1/auth/google/login", header: header}), http.StatusOK)
			u, _ := url.Parse(got["auth_url"])
			return u.Query().Get("redirect_uri")
		}
		// On the devserver a forwarded host is anyone's to write: ignored.
		if r := redirectURI(s.h, forwarded); r != "http://example.com/api/v1/auth/google/callback" {
			t.Errorf("redirect_uri = %q with a client's X-Forwarded-Host, want the request's own host", r)
		}
		// Through the product's CloudFront (origin secret checked): the host
		// the browser asked CloudFront for, over HTTPS.
		const origin = "origin-secret-for-google-tests-0123456789abcdefghijklmnopqrst"
		forwarded[httpx.OriginSecretHeader] = origin
		if r := redirectURI(httpx.RequireOrigin(origin, s.h), forwarded); r != "https://app.example.org/api/v1/auth/google/callback" {
			t.Errorf("redirect_uri = %q behind CloudFront", r)
		}
		p := newStack(t, f.configure, func(c *config.Auth) { c.PublicURL = "https://public.example.net" })
		if r := p.startGoogle().Query().Get("redirect_uri"); r != "https://public.example.net/api/v1/auth/google/callback" {
			t.Errorf("redirect_uri = %q with PUBLIC_URL set", r)
		}
	})
}

func TestGoogleSignInCreatesUser(t *testing.T) {
	t.Parallel()
	f := newFakeIDP(t)
	s := newStack(t, f.configure)
	token, errCode := s.signInWithGoogle(f, adaGoogle)
	if errCode != "" {
		t.Fatalf("sign-in failed with %q; provider refusals: %v", errCode, f.refusals())
	}
	me := decodeAs[userJSON](t, s.get("/api/v1/auth/me", token), http.StatusOK)
	if me.Email != "ada@gmail.com" || me.FullName != "Ada L." || me.Username == "" || me.IsSuperuser {
		t.Errorf("/me = %+v, want the Google account ada@gmail.com named Ada L.", me)
	}
	stored, err := s.st.UserByEmail(t.Context(), "ada@gmail.com")
	if err != nil || stored.ID != me.ID || stored.GoogleSub != "g-100" || stored.PasswordHash != "" {
		t.Errorf("stored user = %+v, %v; want %s linked to g-100 without a password", stored, err, me.ID)
	}
	acts := decodeAs[[]activityJSON](t, s.get("/api/v1/users/activities", token), http.StatusOK)
	if len(acts) != 2 || acts[0].Type != "login" || acts[1].Type != "account_created" {
		t.Errorf("activities = %+v, want [login, account_created]", acts)
	}
	// A Google-only account has no password to sign in with.
	for _, pw := range []string{"", "anything"} {
		if w := s.login("ada@gmail.com", pw); w.Code == http.StatusOK {
			t.Errorf("password login %q to a Google-only account succeeded", pw)
		}
	}

	// Signing in again finds the same account, even if the Google email changed.
	again := adaGoogle
	again.Email = "ada.new@gmail.com"
	token2, errCode := s.signInWithGoogle(f, again)
	if errCode != "" {
		t.Fatalf("second sign-in failed with %q: %v", errCode, f.refusals())
	}
	if me2 := decodeAs[userJSON](t, s.get("/api/v1/auth/me", token2), http.StatusOK); me2.ID != me.ID {
		t.Errorf("second sign-in is account %s, want %s", me2.ID, me.ID)
	}
}

func TestGoogleStateIsSingleUse(t *testing.T) {
	t.Parallel()
	f := newFakeIDP(t)
	s := newStack(t, f.configure)
	authURL := s.startGoogle()
	back := f.consent(t, adaGoogle, authURL)
	if _, errCode := s.callback(back); errCode != "" {
		t.Fatalf("first callback failed with %q: %v", errCode, f.refusals())
	}
	// The very same return replayed.
	if _, errCode := s.callback(back); errCode != "oauth_failed" {
		t.Errorf("replayed callback: error %q, want oauth_failed", errCode)
	}
	// A fresh, valid code from the provider with the used state.
	calls, _ := f.stats()
	back2 := f.consent(t, adaGoogle, authURL)
	if _, errCode := s.callback(back2); errCode != "oauth_failed" {
		t.Errorf("used state with a fresh code: error %q, want oauth_failed", errCode)
	}
	if after, _ := f.stats(); after != calls {
		t.Errorf("a used state still reached the token endpoint (%d calls, want %d)", after, calls)
	}
}

func TestGoogleCallbackRefused(t *testing.T) {
	t.Parallel()
	f := newFakeIDP(t)
	s := newStack(t, f.configure)

	exp := jwt.NewNumericDate(time.Now().Add(5 * time.Minute))
	accessToken := s.register(validRegistration()).AccessToken
	stateOf := func(nonce string) stateClaims {
		return stateClaims{Nonce: nonce, RegisteredClaims: jwt.RegisteredClaims{ExpiresAt: exp, Audience: jwt.ClaimStrings{"google-state"}}}
	}

	tests := []struct {
		name  string
		state func(t *testing.T, real string) string
	}{
		{"forged with another key", func(t *testing.T, _ string) string {
			return signWith(t, jwt.SigningMethodHS256, []byte("not-the-server-secret-not-the-server"), stateOf("n"))
		}},
		{"right key, nonce never issued", func(t *testing.T, _ string) string {
			return signWith(t, jwt.SigningMethodHS256, secret, stateOf("never-issued"))
		}},
		{"an access token as state", func(*testing.T, string) string { return accessToken }},
		{"right key and real nonce, another audience", func(t *testing.T, real string) string {
			// Everything genuine but the kind of token: a signed token of
			// another purpose must not pass as a state.
			c := parseState(t, real)
			c.Audience = jwt.ClaimStrings{"something-else"}
			return signWith(t, jwt.SigningMethodHS256, secret, c)
		}},
		{"right key and real nonce, expired", func(t *testing.T, real string) string {
			c := parseState(t, real)
			c.ExpiresAt = jwt.NewNumericDate(time.Now().Add(-time.Minute))
			return signWith(t, jwt.SigningMethodHS256, secret, c)
		}},
		{"garbage", func(*testing.T, string) string { return "garbage" }},
		{"missing", func(*testing.T, string) string { return "" }},
		{"tampered real state", func(_ *testing.T, real string) string {
			p := strings.Split(real, ".")
			return p[0] + "." + p[1] + "x." + p[2]
		}},
		{"alg none", func(t *testing.T, _ string) string {
			return signWith(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, stateOf("n"))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := s.on(t)
			back := f.consent(t, adaGoogle, s.startGoogle())
			q := back.Query()
			q.Set("state", tt.state(t, q.Get("state")))
			back.RawQuery = q.Encode()
			if _, errCode := s.callback(back); errCode != "oauth_failed" {
				t.Errorf("error = %q, want oauth_failed", errCode)
			}
		})
	}

	t.Run("provider answered an error", func(t *testing.T) {
		s := s.on(t)
		back := f.consent(t, adaGoogle, s.startGoogle())
		q := back.Query()
		q.Del("code")
		q.Set("error", "access_denied")
		back.RawQuery = q.Encode()
		if _, errCode := s.callback(back); errCode != "oauth_failed" {
			t.Errorf("error = %q, want oauth_failed", errCode)
		}
	})
	t.Run("unknown code", func(t *testing.T) {
		s := s.on(t)
		back := f.consent(t, adaGoogle, s.startGoogle())
		q := back.Query()
		q.Set("code", "made-up")
		back.RawQuery = q.Encode()
		if _, errCode := s.callback(back); errCode != "oauth_failed" {
			t.Errorf("error = %q, want oauth_failed", errCode)
		}
	})
	t.Run("PKCE challenge swapped on the way", func(t *testing.T) {
		s := s.on(t)
		// An attacker's challenge reaches the provider: the server's
		// verifier then does not match it and the exchange fails.
		u := s.startGoogle()
		q := u.Query()
		sum := sha256.Sum256([]byte("attacker-verifier-attacker-verifier-attacker"))
		q.Set("code_challenge", base64.RawURLEncoding.EncodeToString(sum[:]))
		u.RawQuery = q.Encode()
		before := len(f.refusals())
		if _, errCode := s.callback(f.consent(t, adaGoogle, u)); errCode != "oauth_failed" {
			t.Errorf("error = %q, want oauth_failed", errCode)
		}
		// (oauth2 may retry the exchange with the other client-auth style,
		// which then finds the code used: the first refusal is the one.)
		if got := f.refusals()[before:]; len(got) == 0 || !strings.Contains(got[0], "PKCE") {
			t.Errorf("provider refusals %v, want a PKCE mismatch first", got)
		}
	})
	t.Run("wrong client secret", func(t *testing.T) {
		wrong := newStack(t, f.configure, func(c *config.Auth) { c.Google.ClientSecret = "wrong" })
		if _, errCode := wrong.signInWithGoogle(f, adaGoogle); errCode != "oauth_failed" {
			t.Errorf("error = %q, want oauth_failed", errCode)
		}
	})

	// None of the refused callbacks created the Google account.
	if _, err := s.st.UserByEmail(t.Context(), "ada@gmail.com"); err == nil {
		t.Error("a refused callback created ada@gmail.com")
	}
	// And the honest flow still works on this stack.
	if _, errCode := s.signInWithGoogle(f, adaGoogle); errCode != "" {
		t.Errorf("honest sign-in after the refusals: %q (%v)", errCode, f.refusals())
	}
}

// stateClaims mirror the server's signed OAuth state, to forge variants of it.
type stateClaims struct {
	Nonce string `json:"nonce"`
	jwt.RegisteredClaims
}

func signWith(t *testing.T, m jwt.SigningMethod, key any, claims jwt.Claims) string {
	t.Helper()
	s, err := jwt.NewWithClaims(m, claims).SignedString(key)
	if err != nil {
		t.Fatalf("sign %s: %v", m.Alg(), err)
	}
	return s
}

// parseState reads a real state's claims (its payload is plain base64url).
func parseState(t *testing.T, state string) stateClaims {
	t.Helper()
	var c stateClaims
	parts := strings.Split(state, ".")
	if len(parts) != 3 {
		t.Fatalf("state %q is not a JWT", state)
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err == nil {
		err = json.Unmarshal(payload, &c)
	}
	if err != nil || c.Nonce == "" {
		t.Fatalf("state payload %s: %v", payload, err)
	}
	return c
}

func TestGoogleIDTokenChecked(t *testing.T) {
	t.Parallel()
	// A provider whose ID tokens are signed by a key not in its JWKS.
	f := newFakeIDP(t)
	other, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	f.signKey = other
	f.mu.Unlock()
	s := newStack(t, f.configure)
	if _, errCode := s.signInWithGoogle(f, adaGoogle); errCode != "oauth_failed" {
		t.Errorf("ID token signed by an unknown key: error %q, want oauth_failed", errCode)
	}
	if calls, _ := f.stats(); calls != 1 {
		t.Errorf("%d token requests, want 1: the refusal must come from the ID token check", calls)
	}
	if _, err := s.st.UserByEmail(t.Context(), "ada@gmail.com"); err == nil {
		t.Error("an unverifiable ID token created an account")
	}
}

// An account whose owner confirmed the email is linked to the Google
// identity with the same verified email: password and sessions stay.
func TestGoogleLinksExistingAccount(t *testing.T) {
	t.Parallel()
	f := newFakeIDP(t)
	s := newStack(t, f.configure)
	reg := s.register(validRegistration()) // ada@example.com with a password
	s.verify(s.lastLink("ada@example.com", "/verify-email"))
	reg.User.IsVerified = true

	who := identity{Sub: "g-200", Email: "ADA@example.com", Verified: true, Name: "Someone Else"}
	token, errCode := s.signInWithGoogle(f, who)
	if errCode != "" {
		t.Fatalf("sign-in failed with %q: %v", errCode, f.refusals())
	}
	me := decodeAs[userJSON](t, s.get("/api/v1/auth/me", token), http.StatusOK)
	if me != reg.User {
		t.Errorf("Google sign-in answered %+v, want the existing account %+v", me, reg.User)
	}
	// The password still works, the registration's session too, and the
	// subject is now linked to this account.
	decodeAs[tokenJSON](t, s.login("ada@example.com", "s3cret!"), http.StatusOK)
	decodeAs[userJSON](t, s.get("/api/v1/auth/me", reg.AccessToken), http.StatusOK)
	linked, err := s.st.UserByGoogleSub(t.Context(), "g-200")
	if err != nil || linked.ID != reg.User.ID {
		t.Errorf("UserByGoogleSub(g-200) = %q, %v; want %s", linked.ID, err, reg.User.ID)
	}
	// Later sign-ins with that subject land there even without a verified email.
	who.Verified = false
	token, errCode = s.signInWithGoogle(f, who)
	if errCode != "" {
		t.Fatalf("linked sign-in failed with %q", errCode)
	}
	if me := decodeAs[userJSON](t, s.get("/api/v1/auth/me", token), http.StatusOK); me.ID != reg.User.ID {
		t.Errorf("linked sign-in answered %s, want %s", me.ID, reg.User.ID)
	}
}

func TestGoogleUnverifiedEmailRefused(t *testing.T) {
	t.Parallel()
	f := newFakeIDP(t)
	s := newStack(t, f.configure)
	reg := s.register(validRegistration())

	tests := []struct {
		name string
		who  identity
	}{
		// Must not take over the password account that has this email.
		{"unverified email of an existing account", identity{Sub: "g-300", Email: "ada@example.com", Verified: false, Name: "Mallory"}},
		{"unverified new email", identity{Sub: "g-301", Email: "new@example.com", Verified: false, Name: "New"}},
		{"no email", identity{Sub: "g-302", Email: "", Verified: true, Name: "Nameless"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := s.on(t)
			if _, errCode := s.signInWithGoogle(f, tt.who); errCode != "oauth_failed" {
				t.Errorf("error = %q, want oauth_failed", errCode)
			}
			if u, err := s.st.UserByGoogleSub(t.Context(), tt.who.Sub); err == nil {
				t.Errorf("subject %s was linked to %s", tt.who.Sub, u.ID)
			}
		})
	}
	if _, err := s.st.UserByEmail(t.Context(), "new@example.com"); err == nil {
		t.Error("an unverified email created an account")
	}
	if u, err := s.st.GetUser(t.Context(), reg.User.ID); err != nil || u.GoogleSub != "" {
		t.Errorf("existing account = %+v, %v; want it unlinked", u, err)
	}
}

// A callback link finished in another browser (login CSRF: the attacker
// consents with their own account and sends the link) signs nobody in.
func TestGoogleCallbackNeedsTheStartingBrowser(t *testing.T) {
	t.Parallel()
	f := newFakeIDP(t)
	s := newStack(t, f.configure)
	back := f.consent(t, adaGoogle, s.startGoogle())
	if _, errCode := s.callbackWith(back, nil); errCode != "oauth_failed" {
		t.Errorf("callback without the cookie: error %q, want oauth_failed", errCode)
	}
	attacker := s.cookie
	back2 := f.consent(t, adaGoogle, s.startGoogle())
	if _, errCode := s.callbackWith(back2, attacker); errCode != "oauth_failed" {
		t.Errorf("callback with another sign-in's cookie: error %q, want oauth_failed", errCode)
	}
}
