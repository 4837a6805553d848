package mcp

import (
	"strings"
	"testing"
)

// TestAuthErrorKinds: which refusal a user reads, by status, challenge and
// whether credentials were sent; insufficient_scope keeps the scope asked.
func TestAuthErrorKinds(t *testing.T) {
	for _, tc := range []struct {
		name      string
		status    int
		challenge string
		keySent   bool
		kind      Kind
		scope     string
	}{
		{"plain 401 without a key", 401, "", false, KindAuthRequired, ""},
		{"plain 401 with a key", 401, "", true, KindKeyRefused, ""},
		{"OAuth challenge", 401, `Bearer resource_metadata="https://x/.well-known/oauth-protected-resource"`, true, KindOAuth, ""},
		{"insufficient scope, quoted", 403, `Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://x/m"`, true, KindInsufficientScope, "files:read files:write"},
		{"insufficient scope, token", 403, `Bearer error=insufficient_scope, scope=admin`, true, KindInsufficientScope, "admin"},
		{"insufficient scope, none named", 403, `Bearer error="insufficient_scope"`, true, KindInsufficientScope, ""},
		{"a 401 naming insufficient_scope is not one", 401, `Bearer error="insufficient_scope", scope="a"`, true, KindKeyRefused, ""},
	} {
		got := authError(tc.status, tc.challenge, "", tc.keySent)
		if got.Kind != tc.kind || got.Scope != tc.scope || !got.Rejected() {
			t.Errorf("%s: kind %s scope %q rejected %v, want %s %q true", tc.name, got.Kind, got.Scope, got.Rejected(), tc.kind, tc.scope)
		}
	}
}

// A 403 without a challenge is not "requires authentication": the user
// reads the server's own short reason (Playwright MCP's host check), or the
// status; with a key sent, the key was refused, with the reason if given.
func TestForbiddenTellsTheServersReason(t *testing.T) {
	for _, tc := range []struct {
		name      string
		status    int
		challenge string
		reason    string
		keySent   bool
		kind      Kind
		detail    string
	}{
		{"403 with a reason", 403, "", "Access is only allowed at localhost:18101", false, KindForbidden,
			"The server refused the connection: Access is only allowed at localhost:18101"},
		{"403 without one", 403, "", "", false, KindForbidden, "The server refused the connection (HTTP 403)."},
		{"403 with a key and a reason", 403, "", "Invalid API key", true, KindKeyRefused, "The server refused the API key: Invalid API key"},
		{"401 with a reason still asks for authentication", 401, "", "nope", false, KindAuthRequired, "The server requires authentication."},
		{"403 with a challenge asks for authentication", 403, `Basic realm="x"`, "nope", false, KindOAuth,
			"This server requires sign-in with the server's OAuth: use Sign in in the MCP Registry."},
	} {
		got := authError(tc.status, tc.challenge, tc.reason, tc.keySent)
		if got.Kind != tc.kind || got.Detail != tc.detail {
			t.Errorf("%s: %s %q, want %s %q", tc.name, got.Kind, got.Detail, tc.kind, tc.detail)
		}
	}
}

// The reason is read from plain text or the usual JSON fields, folded to
// one line, cut to 200 characters; an HTML page gives none.
func TestReasonText(t *testing.T) {
	long := strings.Repeat("x", 300)
	for _, tc := range []struct {
		name, contentType, body, want string
	}{
		{"plain text", "text/plain", "Access is only allowed at localhost:18101\nmore", "Access is only allowed at localhost:18101"},
		{"JSON error string", "application/json", `{"error":"Forbidden: bad origin"}`, "Forbidden: bad origin"},
		{"JSON error object", "application/json", `{"error":{"code":403,"message":"host not allowed"}}`, "host not allowed"},
		{"JSON message", "application/json; charset=utf-8", `{"message":"  too   many\tspaces "}`, "too many spaces"},
		{"JSON without a reason", "application/json", `{"code":403}`, ""},
		{"HTML page", "text/html", "<!doctype html><p>Forbidden</p>", ""},
		{"HTML without a type", "", "<html><body>Forbidden</body></html>", ""},
		{"long text", "text/plain", long, strings.Repeat("x", 200) + "…"},
	} {
		got := cutRunes(reasonText(tc.contentType, []byte(tc.body)), maxReasonRunes)
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestChallengeParam(t *testing.T) {
	const c = `Bearer realm="r", xscope="no", scope="a b", error=insufficient_scope`
	for name, want := range map[string]string{"scope": "a b", "error": "insufficient_scope", "realm": "r", "missing": ""} {
		if got := challengeParam(c, name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
}
