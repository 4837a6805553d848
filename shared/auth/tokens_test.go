package auth_test

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/crypto/bcrypt"

	"aiwork/shared/auth"
)

var key = []byte("0123456789abcdef0123456789abcdef")

func newTokens() *auth.Tokens { return auth.NewTokens(key, time.Hour) }

func TestIssueVerifyRoundTrip(t *testing.T) {
	t.Parallel()
	tk := newTokens()
	for _, uid := range []string{"u1", "8f14e45fceea167a5a36dedd4bea2543"} {
		raw, err := tk.Issue(uid)
		if err != nil {
			t.Fatal(err)
		}
		if parts := strings.Split(raw, "."); len(parts) != 3 {
			t.Fatalf("token %q has %d parts, want 3", raw, len(parts))
		}
		got, err := tk.Verify(raw)
		if err != nil || got != uid {
			t.Errorf("Verify(Issue(%q)) = %q, %v; want %q", uid, got, err, uid)
		}
		// Another issuer with the same key accepts it too (route groups share the key).
		if got, err := auth.NewTokens(key, time.Minute).Verify(raw); err != nil || got != uid {
			t.Errorf("Verify by a second issuer = %q, %v; want %q", got, err, uid)
		}
	}
}

func TestIssuedTokenClaims(t *testing.T) {
	t.Parallel()
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	raw, err := newTokens().WithClock(func() time.Time { return now }).Issue("u1")
	if err != nil {
		t.Fatal(err)
	}
	header, payload := decodeSegment(t, raw, 0), decodeSegment(t, raw, 1)
	if header["alg"] != "HS256" {
		t.Errorf("alg = %v, want HS256", header["alg"])
	}
	if payload["sub"] != "u1" || payload["exp"] != float64(now.Add(time.Hour).Unix()) || payload["iat"] != float64(now.Unix()) {
		t.Errorf("claims = %v, want sub u1, iat %d, exp %d", payload, now.Unix(), now.Add(time.Hour).Unix())
	}
}

func decodeSegment(t *testing.T, raw string, i int) map[string]any {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(strings.Split(raw, ".")[i])
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func encodeSegment(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

func sign(t *testing.T, m jwt.SigningMethod, k any, claims jwt.Claims) string {
	t.Helper()
	s, err := jwt.NewWithClaims(m, claims).SignedString(k)
	if err != nil {
		t.Fatalf("sign %s: %v", m.Alg(), err)
	}
	return s
}

func TestVerifyRefuses(t *testing.T) {
	t.Parallel()
	tk := newTokens()
	now := time.Now()
	valid := jwt.RegisteredClaims{Subject: "u1", ExpiresAt: jwt.NewNumericDate(now.Add(time.Hour))}
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	good, err := tk.Issue("u1")
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(good, ".")

	// One character of the payload segment changed (in the middle, so it
	// changes decoded bytes, not just base64 padding bits).
	p := []byte(parts[1])
	mid := len(p) / 2
	if p[mid] == 'A' {
		p[mid] = 'B'
	} else {
		p[mid] = 'A'
	}
	tamperedChar := parts[0] + "." + string(p) + "." + parts[2]
	// The payload re-encoded with another subject, signature kept.
	claims := decodeSegment(t, good, 1)
	claims["sub"] = "admin"
	tamperedSub := parts[0] + "." + encodeSegment(t, claims) + "." + parts[2]
	// Header switched to "none" on a real token, signature dropped.
	noneHeader := encodeSegment(t, map[string]string{"alg": "none", "typ": "JWT"})

	tests := []struct {
		name  string
		token string
	}{
		{"alg none", sign(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, valid)},
		{"alg none hand-made", noneHeader + "." + parts[1] + "."},
		{"alg none keeping signature", noneHeader + "." + parts[1] + "." + parts[2]},
		{"HS384 same key", sign(t, jwt.SigningMethodHS384, key, valid)},
		{"HS512 same key", sign(t, jwt.SigningMethodHS512, key, valid)},
		{"RS256", sign(t, jwt.SigningMethodRS256, rsaKey, valid)},
		{"wrong key", sign(t, jwt.SigningMethodHS256, []byte("another-key-another-key-another!!"), valid)},
		{"expired", sign(t, jwt.SigningMethodHS256, key, jwt.RegisteredClaims{Subject: "u1", ExpiresAt: jwt.NewNumericDate(now.Add(-time.Minute))})},
		{"missing exp", sign(t, jwt.SigningMethodHS256, key, jwt.RegisteredClaims{Subject: "u1"})},
		{"empty subject", sign(t, jwt.SigningMethodHS256, key, jwt.RegisteredClaims{ExpiresAt: jwt.NewNumericDate(now.Add(time.Hour))})},
		{"not yet valid", sign(t, jwt.SigningMethodHS256, key, jwt.RegisteredClaims{Subject: "u1", ExpiresAt: jwt.NewNumericDate(now.Add(2 * time.Hour)), NotBefore: jwt.NewNumericDate(now.Add(time.Hour))})},
		{"tampered payload char", tamperedChar},
		{"tampered subject", tamperedSub},
		{"signature removed", parts[0] + "." + parts[1] + "."},
		{"two parts", parts[0] + "." + parts[1]},
		{"garbage", "not.a.token"},
		{"random text", "hello"},
		{"empty", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tk.Verify(tt.token)
			if err == nil || got != "" {
				t.Errorf("Verify(%s) = %q, %v; want refused", tt.name, got, err)
			}
		})
	}
	// The untampered token is good, so the refusals above are the tampering's doing.
	if got, err := tk.Verify(good); err != nil || got != "u1" {
		t.Fatalf("Verify(good) = %q, %v", got, err)
	}
}

func TestVerifyExpiryWithClock(t *testing.T) {
	t.Parallel()
	issued := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
	tk := newTokens().WithClock(func() time.Time { return issued })
	raw, err := tk.Issue("u1")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		at   time.Time
		ok   bool
	}{
		{"at issue", issued, true},
		{"just before exp", issued.Add(time.Hour - time.Second), true},
		{"after exp", issued.Add(time.Hour + time.Second), false},
		{"a day later", issued.Add(24 * time.Hour), false},
	}
	for _, tt := range tests {
		got, err := tk.WithClock(func() time.Time { return tt.at }).Verify(raw)
		if (err == nil) != tt.ok || (tt.ok && got != "u1") {
			t.Errorf("%s: Verify = %q, %v; want ok=%v", tt.name, got, err, tt.ok)
		}
	}
	// WithClock copies: the original issuer keeps its own clock.
	if _, err := newTokens().Verify(raw); err != nil {
		t.Errorf("real-clock Verify of a 2030 token: %v, want ok", err)
	}
}

func TestPasswords(t *testing.T) {
	t.Parallel()
	hash, err := auth.HashPassword("s3cret!")
	if err != nil {
		t.Fatal(err)
	}
	if hash == "s3cret!" || !strings.HasPrefix(hash, "$2") {
		t.Fatalf("hash %q is not a bcrypt hash", hash)
	}
	tests := []struct {
		name string
		hash string
		pw   string
		want bool
	}{
		{"right password", hash, "s3cret!", true},
		{"wrong password", hash, "s3cret?", false},
		{"empty password", hash, "", false},
		{"empty hash", "", "s3cret!", false},
		{"empty hash and password", "", "", false},
		{"garbage hash", "not-a-hash", "s3cret!", false},
	}
	for _, tt := range tests {
		if got := auth.CheckPassword(tt.hash, tt.pw); got != tt.want {
			t.Errorf("%s: CheckPassword = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestMain(m *testing.M) {
	auth.PasswordCost = bcrypt.MinCost
	os.Exit(m.Run())
}

type errorBody struct {
	Detail string `json:"detail"`
	Code   string `json:"code"`
}

// probe answers 200 with the user id the middleware put in the context.
var probe = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	id, ok := auth.UserID(r.Context())
	if !ok {
		id = "visitor"
	}
	_, _ = w.Write([]byte(id))
})

func TestMiddleware(t *testing.T) {
	t.Parallel()
	tk := newTokens()
	good, err := tk.Issue("u42")
	if err != nil {
		t.Fatal(err)
	}
	expired, err := tk.WithClock(func() time.Time { return time.Now().Add(-2 * time.Hour) }).Issue("u42")
	if err != nil {
		t.Fatal(err)
	}
	foreign, err := auth.NewTokens([]byte("another-key-another-key-another!!"), time.Hour).Issue("u42")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name           string
		optional       bool
		header         string // Authorization; "" sends none
		wantStatus     int
		wantBody       string // for 200
		wantAuthHeader bool
	}{
		{"required, no header", false, "", 401, "", true},
		{"required, basic scheme", false, "Basic x", 401, "", false},
		{"required, bearer without token", false, "Bearer", 401, "", false},
		{"required, bad token", false, "Bearer not.a.token", 401, "", false},
		{"required, expired token", false, "Bearer " + expired, 401, "", false},
		{"required, foreign key", false, "Bearer " + foreign, 401, "", false},
		{"required, good token", false, "Bearer " + good, 200, "u42", false},
		{"required, lower-case scheme", false, "bearer " + good, 200, "u42", false},
		{"optional, no header", true, "", 200, "visitor", false},
		{"optional, bad token", true, "Bearer not.a.token", 401, "", false},
		{"optional, basic scheme", true, "Basic x", 401, "", false},
		{"optional, expired token", true, "Bearer " + expired, 401, "", false},
		{"optional, good token", true, "Bearer " + good, 200, "u42", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := tk.Required(probe)
			if tt.optional {
				h = tk.Optional(probe)
			}
			r := httptest.NewRequest(http.MethodGet, "/api/v1/x", nil)
			if tt.header != "" {
				r.Header.Set("Authorization", tt.header)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != tt.wantStatus {
				t.Fatalf("status = %d (%s), want %d", w.Code, w.Body.String(), tt.wantStatus)
			}
			if tt.wantStatus == http.StatusOK {
				if got := w.Body.String(); got != tt.wantBody {
					t.Errorf("handler saw user %q, want %q", got, tt.wantBody)
				}
				return
			}
			if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type = %q, want JSON", ct)
			}
			var b errorBody
			if err := json.Unmarshal(w.Body.Bytes(), &b); err != nil || b.Code != "unauthorized" || b.Detail == "" {
				t.Errorf("body = %s (%v), want {detail, code: unauthorized}", w.Body.String(), err)
			}
			if got := w.Header().Get("WWW-Authenticate"); tt.wantAuthHeader && got != "Bearer" {
				t.Errorf("WWW-Authenticate = %q, want Bearer", got)
			}
		})
	}
}
