package routes_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"aiwork/shared/httpx"
	"aiwork/shared/routes"
)

func TestMatchPicksLongestPrefix(t *testing.T) {
	tests := []struct {
		path, want string
		ok         bool
	}{
		{"/api/v1/auth/login", "auth", true},
		{"/api/v1/auth", "auth", true},
		{"/api/v1/users/activities", "users", true},
		{"/api/v1/unknown", "", false},
		{"/api/registry/v0.1/servers", "mcp", true},
		{"/api/registry", "mcp", true},
		{"/api/registryx", "", false},
		{"/dashboard", "", false},
	}
	for _, tt := range tests {
		g, ok := routes.Match(tt.path)
		if ok != tt.ok || g.Function != tt.want {
			t.Errorf("Match(%q) = %q, %v; want %q, %v", tt.path, g.Function, ok, tt.want, tt.ok)
		}
	}
}

func TestEveryGroupHasPrefixesUnderAPI(t *testing.T) {
	seen := map[string]bool{}
	for _, g := range routes.Groups {
		if g.Function == "" || len(g.Prefixes) == 0 {
			t.Errorf("group %+v has no function or prefixes", g)
		}
		for _, p := range g.Prefixes {
			if !slices.ContainsFunc(routes.APIPrefixes, func(api string) bool { return strings.HasPrefix(p, api) }) {
				t.Errorf("%s prefix %q is outside %v", g.Function, p, routes.APIPrefixes)
			}
			if seen[p] {
				t.Errorf("prefix %q listed twice", p)
			}
			seen[p] = true
		}
	}
}

func named(name string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, name+" "+r.URL.Path) })
}

func TestMountRoutesGroupsAppAndUnknownAPI(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("<html>app</html>"), 0o644)
	os.MkdirAll(filepath.Join(dir, "assets"), 0o755)
	os.WriteFile(filepath.Join(dir, "assets", "main-abc.js"), []byte("console.log(1)"), 0o644)
	h, err := routes.Mount(map[string]http.Handler{"auth": named("auth"), "users": named("users")}, httpx.SPA(dir))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path       string
		wantStatus int
		wantBody   string
	}{
		{"/api/v1/auth/login", 200, "auth /api/v1/auth/login"},
		{"/api/v1/users/activities", 200, "users /api/v1/users/activities"},
		{"/api/v1/nothing/here", 404, `"code":"not_found"`},
		{"/api/unknown", 404, `"code":"not_found"`},
		{"/dashboard", 200, "<html>app</html>"},
		{"/llm-chat?x=1", 200, "<html>app</html>"},
		{"/assets/main-abc.js", 200, "console.log(1)"},
		{"/", 200, "<html>app</html>"},
	}
	for _, tt := range tests {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", tt.path, nil))
		if rec.Code != tt.wantStatus || !strings.Contains(rec.Body.String(), tt.wantBody) {
			t.Errorf("GET %s = %d %q; want %d containing %q", tt.path, rec.Code, rec.Body.String(), tt.wantStatus, tt.wantBody)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/v1/nothing", nil))
	var body map[string]string
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || body["detail"] == "" {
		t.Errorf("unknown API path body %q is not a JSON error", rec.Body.String())
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("unknown API path Content-Type = %q", ct)
	}
}

func TestMountRefusesUnknownGroup(t *testing.T) {
	if _, err := routes.Mount(map[string]http.Handler{"nope": named("x")}, nil); err == nil {
		t.Error("Mount accepted a handler for a group that is not in the route table")
	}
}

// A function of several route groups gives each group its own routes; a
// group it does not have, or one of its groups left without a handler, is
// refused.
func TestFunctionMountsItsGroups(t *testing.T) {
	h, err := routes.Function("chat", map[string]http.Handler{"chat": named("chat"), "conversations": named("conversations")})
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		routes.ChatPath:                      "chat " + routes.ChatPath,
		routes.ChatConversationsPath + "/c1": "conversations " + routes.ChatConversationsPath + "/c1",
		"/api/v1/chat":                       "conversations /api/v1/chat",
		routes.ChatAppsPrefix + "view":       "chat " + routes.ChatAppsPrefix + "view",
		routes.ChatAppsPrefix + "call":       "chat " + routes.ChatAppsPrefix + "call",
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Body.String() != want {
			t.Errorf("GET %s = %q, want %q", path, rec.Body.String(), want)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/v1/users/me", nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("a path of another function = %d, want 404", rec.Code)
	}
	if _, err := routes.Function("chat", map[string]http.Handler{"users": named("x")}); err == nil {
		t.Error("Function accepted a group the function does not mount")
	}
	if _, err := routes.Function("chat", map[string]http.Handler{"chat": named("chat")}); err == nil {
		t.Error("Function accepted a function whose conversations group has no handler")
	}
	if _, err := routes.Function("nope", nil); err == nil {
		t.Error("Function accepted an unknown function")
	}
}
