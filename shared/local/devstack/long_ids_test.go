package devstack_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"aiwork/shared/api/apitest"
	"aiwork/shared/auth"
	"aiwork/shared/local/devstack"
	"aiwork/shared/seeddata"
	"aiwork/shared/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

var jwtSecret = []byte(strings.Repeat("d", 32))

// newDevstack is the whole API as the devserver mounts it (with the web app
// in staticDir, when set), on a fresh table with the catalogue seeded; user
// makes a signed-in account and answers its token.
func newDevstack(t *testing.T, staticDir string, change func(*devstack.Config)) (h http.Handler, user func(name string) string) {
	t.Helper()
	st, storeCfg := storetest.NewWithConfig(t)
	ctx := context.Background()
	storetest.Must(t, seeddata.Seed(ctx, st), "seed prompts")
	storetest.Must(t, seeddata.SeedMCPServers(ctx, st), "seed MCP servers")
	cfg := devstack.ConfigFor(storeCfg, jwtSecret, 5, "whsec_devstack_test")
	cfg.MailDir = t.TempDir()
	if change != nil {
		change(&cfg)
	}
	h, err := devstack.Handler(st, cfg, staticDir)
	if err != nil {
		t.Fatal(err)
	}
	tokens := auth.NewTokens(jwtSecret, time.Hour)
	user = func(name string) string {
		_, token := apitest.User(t, st, tokens, name)
		return token
	}
	return h, user
}

// Over-long ids, in the path or in a body, are refused as bad input or
// unknown (400 or 404), never an internal error, and leave no ERROR line
// in the log: DynamoDB refuses keys over 2048 (partition) or 1024 (sort)
// bytes, which used to surface as 500s.
func TestOverLongIDsAreRefusedQuietly(t *testing.T) {
	logs := apitest.CaptureLogs(t)
	h, user := newDevstack(t, "", nil)
	token := user("long-ids")
	a, b, c := strings.Repeat("a", 3000), strings.Repeat("b", 3000), strings.Repeat("c", 3000)
	body := func(v map[string]any) string {
		raw, _ := json.Marshal(v)
		return string(raw)
	}
	tests := []struct {
		name, method, path, body string
		signedIn                 bool
		redirect                 bool // a page that answers with a redirect
	}{
		{"prompt", "GET", "/api/v1/prompts/" + a, "", false, false},
		{"prompt, signed in", "GET", "/api/v1/prompts/" + a, "", true, false},
		{"verify session", "GET", "/api/v1/payments/verify-session/" + b, "", true, false},
		{"use free prompt", "POST", "/api/v1/prompts/use-free-prompt/" + c, "", true, false},
		{"rate", "POST", "/api/v1/prompts/" + a + "/rate", body(map[string]any{"rating": 5}), true, false},
		{"checkout prompt_id", "POST", "/api/v1/payments/create-checkout-session", body(map[string]any{"prompt_id": a}), true, false},
		{"chat connection_id", "POST", "/api/v1/mcp-connections/message", body(map[string]any{"connection_id": a, "message": "Hi", "model": "gpt-4o-mini", "context": []any{}}), true, false},
		{"chat model", "POST", "/api/v1/mcp-connections/message", body(map[string]any{"connection_id": "c1", "message": "Hi", "model": a, "context": []any{}}), true, false},
		{"MCP server", "GET", "/api/v1/mcp-servers/" + a, "", false, false},
		{"delete MCP connection", "DELETE", "/api/v1/mcp-connections/" + a, "", true, false},
		{"connect provider", "POST", "/api/v1/mcp-connections/" + a, body(map[string]any{"model": "gpt-4o-mini"}), true, false},
		{"connect provider model", "POST", "/api/v1/mcp-connections/openai", body(map[string]any{"model": a}), true, false},
		{"connect MCP server_id", "POST", "/api/v1/mcp-connections/", body(map[string]any{"server_id": a}), true, false},
		{"verify email token", "POST", "/api/v1/auth/verify-email", body(map[string]any{"token": a}), false, false},
		{"reset password token", "POST", "/api/v1/auth/reset-password", body(map[string]any{"token": a, "password": "secret-123"}), false, false},
		{"forgot password email", "POST", "/api/v1/auth/forgot-password", body(map[string]any{"email": a + "@example.com"}), false, false},
		{"login email", "POST", "/api/v1/auth/login", body(map[string]any{"email": a + "@example.com", "password": "secret-123"}), false, false},
		{"register email", "POST", "/api/v1/auth/register", body(map[string]any{"email": a + "@example.com", "username": "longid", "full_name": "Long Id", "password": "secret-123"}), false, false},
		{"register username", "POST", "/api/v1/auth/register", body(map[string]any{"email": "longid@example.com", "username": a, "full_name": "Long Id", "password": "secret-123"}), false, false},
		{"Google callback state", "GET", "/api/v1/auth/google/callback?state=" + a + "&code=" + b, "", false, true},
		{"local checkout page", "GET", "/dev/checkout/" + b, "", false, false},
		{"local checkout pay", "POST", "/dev/checkout/" + b + "/pay", "", false, false},
		{"mail outbox", "GET", "/dev/mail/" + a, "", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tok := ""
			if tt.signedIn {
				tok = token
			}
			w := apitest.Do(h, tt.method, tt.path, tok, tt.body, nil)
			if w.Code >= 500 || (w.Code != http.StatusBadRequest && w.Code != http.StatusNotFound && !(tt.redirect && w.Code == http.StatusFound)) {
				t.Errorf("%s %.60s… = %d %.300s, want 400 or 404", tt.method, tt.path, w.Code, w.Body.String())
			}
		})
	}
	for _, line := range strings.Split(logs.String(), "\n") {
		if strings.Contains(line, `"level":"ERROR"`) {
			t.Errorf("ERROR in the log: %.400s", line)
		}
	}
}
