package mcp

import "testing"

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
		got := authError(tc.status, tc.challenge, tc.keySent)
		if got.Kind != tc.kind || got.Scope != tc.scope || !got.Rejected() {
			t.Errorf("%s: kind %s scope %q rejected %v, want %s %q true", tc.name, got.Kind, got.Scope, got.Rejected(), tc.kind, tc.scope)
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
