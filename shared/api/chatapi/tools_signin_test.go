package chatapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/oauth2"

	"aiwork/shared/domain"
	"aiwork/shared/llm"
	"aiwork/shared/mcp/mcpauth"
	"aiwork/shared/store/storetest"
)

// TestToolSignInRefused: a signed-in connection whose server stops
// accepting its token (revoked: 401; short of a scope: 403
// insufficient_scope) pauses the reply on the call with a tool_signin
// frame saying so (the scope the server asked for, if any), and the
// connection is marked for Sign in again (with that scope), nothing
// deleted.
func TestToolSignInRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, challenge, wantScope string
		status                     int
	}{
		{name: "revoked", status: http.StatusUnauthorized, challenge: `Bearer error="invalid_token", resource_metadata="http://x/.well-known/oauth-protected-resource"`},
		{name: "insufficient scope", status: http.StatusForbidden, challenge: `Bearer error="insufficient_scope", scope="mcp:tools mcp:write"`, wantScope: "mcp:tools mcp:write"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var refusing atomic.Bool
			guard := func(next http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if refusing.Load() || r.Header.Get("Authorization") != "Bearer good" {
						w.Header().Set("WWW-Authenticate", tc.challenge)
						w.WriteHeader(tc.status)
						return
					}
					next.ServeHTTP(w, r)
				})
			}
			srv := newToolServer(t, guard, testTool{name: "whoami", readOnly: true,
				handle: func(context.Context, map[string]any) (*sdk.CallToolResult, error) { return textResult("you"), nil }})
			up := callsTool("whoami", `{}`)
			s := newToolStack(t, map[string]llm.Provider{"openai": up}, nil)
			s.addMCPServer(domain.MCPServer{ID: "signed", Title: "Signed", EndpointURL: srv.url, OAuthRequired: true})
			uid, token := s.user()
			sealed, err := toolSealer.Seal(mcpauth.Sealed{Grant: mcpauth.Grant{Scopes: []string{"mcp:tools"}}, Token: &oauth2.Token{AccessToken: "good"}}.Encode(), uid, "signed")
			storetest.Must(t, err, "seal")
			storetest.Must(t, s.st.ReplaceMCPConnection(context.Background(), uid, domain.MCPConnection{
				ID: "oauth-c1", ServerID: "signed", ServerName: "Signed", EndpointURL: srv.url, Transport: domain.TransportStreamableHTTP,
				Tools: []domain.MCPTool{{Name: "whoami", ReadOnly: true, InputSchema: json.RawMessage(`{"type":"object"}`)}}, SealedAPIKey: sealed,
				APIKeyHeader: "Authorization", OAuth: true, ConnectedAt: "2026-11-25T00:00:00Z", ToolsCheckedAt: "2999-01-01T00:00:00Z",
			}), "connection")
			conn := s.connect(token, "openai", "gpt-4o-mini")

			refusing.Store(true)
			r := s.sendTool(token, toolMsg{ConnectionID: conn, Message: "go", MCPConnectionIDs: []string{"oauth-c1"}})
			if r.done || len(r.results) != 0 || len(r.signins) != 1 {
				t.Fatalf("reply %s, want a tool_signin pause", r.raw)
			}
			if f := r.signins[0]; f.ConnectionID != "oauth-c1" || f.ServerID != "signed" || f.Scope != tc.wantScope || !strings.Contains(f.Reason, "Signed needs you to sign in again") {
				t.Errorf("tool_signin %+v", f)
			}
			c, err := s.st.GetMCPConnection(context.Background(), uid, "oauth-c1")
			storetest.Must(t, err, "connection kept")
			if !c.NeedsSignIn || c.SignInScope != tc.wantScope || len(c.SealedAPIKey) == 0 {
				t.Errorf("connection after the refusal: needs sign-in %v, scope %q; want true, %q, grant kept", c.NeedsSignIn, c.SignInScope, tc.wantScope)
			}
		})
	}
}
