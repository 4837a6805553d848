package mcpapi_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"aiwork/shared/domain"
)

// oauthFront puts an in-process authorization server (registration, an
// authorization page that approves at once, a token endpoint) in front of
// an MCP handler, on one loopback host, and answers the MCP endpoint. With
// handshakeFails, the MCP server answers 500 even with a good token: the
// sign-in works, the handshake does not.
func oauthFront(t *testing.T, mcpHandler http.Handler, handshakeFails bool) string {
	t.Helper()
	var base string
	mux := http.NewServeMux()
	writeJSON := func(w http.ResponseWriter, status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(v)
	}
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, 200, map[string]any{"resource": base + "/mcp", "authorization_servers": []string{base}})
	})
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, 200, map[string]any{"issuer": base, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
			"registration_endpoint": base + "/register", "response_types_supported": []string{"code"}, "code_challenge_methods_supported": []string{"S256"}})
	})
	mux.HandleFunc("/register", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, 201, map[string]any{"client_id": "front-client", "redirect_uris": []string{}})
	})
	mux.HandleFunc("/authorize", func(w http.ResponseWriter, r *http.Request) {
		back, _ := url.Parse(r.URL.Query().Get("redirect_uri"))
		back.RawQuery = url.Values{"code": {"front-code"}, "state": {r.URL.Query().Get("state")}}.Encode()
		http.Redirect(w, r, back.String(), http.StatusFound)
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		if r.PostForm.Get("code") != "front-code" || r.PostForm.Get("code_verifier") == "" || r.PostForm.Get("resource") != base+"/mcp" {
			writeJSON(w, 400, map[string]any{"error": "invalid_grant"})
			return
		}
		writeJSON(w, 200, map[string]any{"access_token": "front-token", "token_type": "Bearer", "expires_in": 3600})
	})
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer front-token" {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+base+`/.well-known/oauth-protected-resource/mcp"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		if handshakeFails {
			http.Error(w, "upstream exploded", http.StatusInternalServerError)
			return
		}
		mcpHandler.ServeHTTP(w, r)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	base = srv.URL
	return base + "/mcp"
}

// TestSignInHandshakeFails: a server whose sign-in works but whose MCP
// handshake with the token fails comes back as handshake_failed with the
// reason, and nothing is stored; the same front with a working server
// connects (discovery through the challenge, registration, the code flow).
func TestSignInHandshakeFails(t *testing.T) {
	t.Parallel()
	s := newSignInStack(t)
	inner := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	for _, fails := range []bool{true, false} {
		id := map[bool]string{true: "front-broken", false: "front-working"}[fails]
		var h http.Handler = inner
		if !fails {
			h = sdkHandler(t, 2)
		}
		s.addServer(domain.MCPServer{ID: id, Title: id, EndpointURL: oauthFront(t, h, fails), OAuthRequired: true})
		_, token := s.user(id)
		w := s.do("/api/v1/mcp-oauth/start", token, `{"server_id":"`+id+`"}`)
		if w.Code != http.StatusOK {
			t.Fatalf("%s: start %d %s", id, w.Code, w.Body)
		}
		var started struct {
			AuthorizationURL string `json:"authorization_url"`
		}
		_ = json.Unmarshal(w.Body.Bytes(), &started)
		var cookie *http.Cookie
		for _, c := range w.Result().Cookies() {
			cookie = c
		}
		got := s.callback(approve(t, started.AuthorizationURL), cookie)
		conns := s.get(connectionsPath, token).Body.String()
		if fails {
			if got.Get("oauth_error") != "handshake_failed" || !strings.Contains(s.failureDetail(got, token), "500") {
				t.Errorf("broken handshake: %v, want handshake_failed naming the server's error", got)
			}
			if strings.Contains(conns, "connection_id") {
				t.Errorf("broken handshake stored a connection: %s", conns)
			}
		} else if got.Get("connected") != id || !strings.Contains(conns, `"tools_count":2`) {
			t.Errorf("working server: %v, connections %s", got, conns)
		}
	}
}
