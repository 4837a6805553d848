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
// insufficient_scope) fails the tool call with a clear block, the model
// answers, and the connection is marked for Sign in again (with the scope
// the server asked for), nothing deleted.
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
			if !r.done || len(r.results) != 1 || !r.results[0].IsError || !strings.Contains(r.results[0].text(), "no longer accepts your sign-in") {
				t.Fatalf("reply %+v, want a failed call saying to sign in again, then the end", r)
			}
			if !strings.Contains(r.text, "got: ") {
				t.Errorf("the model did not answer after the failure: %q", r.text)
			}
			c, err := s.st.GetMCPConnection(context.Background(), uid, "oauth-c1")
			storetest.Must(t, err, "connection kept")
			if !c.NeedsSignIn || c.SignInScope != tc.wantScope || len(c.SealedAPIKey) == 0 {
				t.Errorf("connection after the refusal: needs sign-in %v, scope %q; want true, %q, grant kept", c.NeedsSignIn, c.SignInScope, tc.wantScope)
			}
		})
	}
}
