package mcpapi_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"aiwork/shared/api/apitest"
	"aiwork/shared/api/mcpapi"
	"aiwork/shared/domain"
	"aiwork/shared/local/localmcp"
	"aiwork/shared/seeddata"
	"aiwork/shared/store/storetest"
)

// TestConnectReferenceServer connects to the real reference server over
// streamable HTTP, over SSE (an sse catalogue entry), and through the
// fallback to SSE when the given endpoint is not streamable; each answer is
// what the handshake found, and the connection is stored for the user.
func TestConnectReferenceServer(t *testing.T) {
	t.Parallel()
	s := newStack(t, local())
	streamable := referenceServer(t, localmcp.ModeStreamable)
	sse := referenceServer(t, localmcp.ModeSSE)
	storetest.Must(t, seeddata.SetLocalReference(context.Background(), s.st, streamable), "local reference")
	s.addServer(domain.MCPServer{ID: "everything-sse", Title: "Everything over SSE", EndpointURL: sse, Transport: domain.TransportSSE})

	tests := []struct {
		name, serverID, endpoint              string
		wantEndpoint, wantTransport, wantName string
	}{
		{"streamable HTTP", seeddata.LocalReferenceID, "", streamable, domain.TransportStreamableHTTP, "Everything (local reference server)"},
		{"SSE", "everything-sse", "", sse, domain.TransportSSE, "Everything over SSE"},
		{"given SSE endpoint, streamable falls back", seeddata.LocalReferenceID, "  " + sse + " ", sse, domain.TransportSSE, "Everything (local reference server)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, token := s.user("reference")
			start := time.Now()
			// server_name and model_type come from the catalogue, whatever the client says.
			w := s.connect(token, map[string]any{"server_id": tt.serverID, "server_name": "Spoofed", "endpoint_url": tt.endpoint,
				"model_type": "payments", "api_key": ""})
			c := apitest.Decode[connectionView](t, w, http.StatusOK)
			t.Logf("connected in %v: protocol %s, %d tools", time.Since(start), c.ProtocolVersion, len(c.Tools))
			var raw map[string]any
			storetest.Must(t, json.Unmarshal(w.Body.Bytes(), &raw), "decode")
			wantKeys(t, "connection", raw, connectionKeys...)

			if c.ConnectionID == "" || c.ServerID != tt.serverID || c.ServerName != tt.wantName || c.ModelType != "reference" {
				t.Errorf("connection = id %q, server %q %q, model type %q", c.ConnectionID, c.ServerID, c.ServerName, c.ModelType)
			}
			if c.EndpointURL != tt.wantEndpoint || c.Transport != tt.wantTransport {
				t.Errorf("endpoint %q over %q, want %q over %q", c.EndpointURL, c.Transport, tt.wantEndpoint, tt.wantTransport)
			}
			if c.ServerInfo.Name != "mcp-servers/everything" || c.ServerInfo.Version == "" {
				t.Errorf("server_info = %+v", c.ServerInfo)
			}
			if c.ProtocolVersion == "" {
				t.Error("protocol_version is empty")
			}
			if len(c.Tools) < 10 || c.ToolsCount != len(c.Tools) || !hasTool(c.Tools, "echo") || !hasTool(c.Tools, "get-sum") {
				t.Errorf("%d tools (tools_count %d), want ≥ 10 with echo and get-sum", len(c.Tools), c.ToolsCount)
			}
			wantRecent(t, "connected_at", c.ConnectedAt)
			if c.HasAPIKey || c.APIKeyLast4 != "" {
				t.Errorf("has_api_key %v, last4 %q; no key was given", c.HasAPIKey, c.APIKeyLast4)
			}

			rows := apitest.Decode[[]connectionRow](t, s.get(connectionsPath, token), http.StatusOK)
			if len(rows) != 1 || rows[0].ConnectionID != c.ConnectionID || rows[0].ToolsCount != len(c.Tools) || rows[0].ConnectedAt != c.ConnectedAt {
				t.Errorf("the user's connections = %+v, want just %s with %d tools", rows, c.ConnectionID, len(c.Tools))
			}
		})
	}
}

// TestConnectErrors: every refusal and failure has its status, code and a
// detail a user can read, and none is a success.
func TestConnectErrors(t *testing.T) {
	t.Parallel()
	// A devserver, with a short connect timeout to keep the slow case fast.
	o := local()
	o.ConnectTimeout = time.Second
	lax := newStack(t, o)
	// AWS-like rules: loopback refused like every private address.
	strict := newStack(t, mcpapi.Options{Sealer: testSealer})

	const wrongKey = "sk-wrong-0123456789abcdef"
	oauth := &bearerKey{metadata: "https://auth.example.com/.well-known/oauth-protected-resource"}
	keyed := &bearerKey{key: "sk-right-0123456789abcdef"}
	// Holds initialize until the client gives up.
	slow := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost {
				io.Copy(io.Discard, r.Body)
				<-r.Context().Done()
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	redirect := func(http.Handler) http.Handler {
		return http.RedirectHandler("http://169.254.169.254/latest/meta-data/", http.StatusTemporaryRedirect)
	}
	html := fixed(http.StatusOK, map[string]string{"Content-Type": "text/html; charset=utf-8"}, "<!doctype html><title>Welcome</title><p>Hello")

	lax.addServer(domain.MCPServer{ID: "ok", EndpointURL: sdkServer(t, 1, nil)})
	lax.addServer(domain.MCPServer{ID: "needs-key", EndpointURL: sdkServer(t, 1, keyed.wrap), APIKeyRequired: true})
	lax.addServer(domain.MCPServer{ID: "metadata", EndpointURL: "http://169.254.169.254/"})
	lax.addServer(domain.MCPServer{ID: "private", EndpointURL: "http://10.0.0.1/"})
	lax.addServer(domain.MCPServer{ID: "public", EndpointURL: "https://mcp.example.com/mcp"})
	lax.addServer(domain.MCPServer{ID: "closed", EndpointURL: closedPort(t)})
	lax.addServer(domain.MCPServer{ID: "html", EndpointURL: sdkServer(t, 1, html)})
	lax.addServer(domain.MCPServer{ID: "oauth", EndpointURL: sdkServer(t, 1, oauth.wrap)})
	lax.addServer(domain.MCPServer{ID: "slow", EndpointURL: sdkServer(t, 1, slow)})
	lax.addServer(domain.MCPServer{ID: "redirect", EndpointURL: sdkServer(t, 1, redirect)})
	lax.addServer(domain.MCPServer{ID: "retired", EndpointURL: sdkServer(t, 1, nil)})
	storetest.Must(t, lax.st.SetMCPServerActive(context.Background(), "retired", false), "deactivate")

	// A live server on loopback, counted: under strict rules nothing reaches it.
	var reached requestCounter
	live, err := url.Parse(sdkServer(t, 1, reached.wrap))
	storetest.Must(t, err, "parse")
	port := live.Port()
	strict.addServer(domain.MCPServer{ID: "loopback", EndpointURL: "http://127.0.0.1:" + port + "/mcp"})
	strict.addServer(domain.MCPServer{ID: "mapped", EndpointURL: "http://[::ffff:127.0.0.1]:" + port + "/mcp"})
	strict.addServer(domain.MCPServer{ID: "localhost", EndpointURL: "http://localhost:" + port + "/mcp"})
	strict.addServer(domain.MCPServer{ID: "ipv6-loopback", EndpointURL: "http://[::1]:" + port + "/mcp"})

	body := func(kv ...string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		b, _ := json.Marshal(m)
		return string(b)
	}
	const (
		refused  = "private or local address"
		keyError = "API key is required for this server"
	)
	tests := []struct {
		name    string
		s       *stack
		noToken bool
		body    string
		status  int
		code    string
		detail  string // exact
		part    string // or contained
		within  time.Duration
	}{
		{name: "no token", s: lax, noToken: true, body: body("server_id", "ok"), status: 401, code: "unauthorized", detail: "Not authenticated."},
		{name: "malformed JSON", s: lax, body: `{"server_id": "ok"`, status: 400, code: "invalid", detail: "Malformed JSON in request body."},
		{name: "no body", s: lax, body: "", status: 400, code: "invalid", detail: "Request body is required."},
		{name: "server_id not a string", s: lax, body: `{"server_id": 7}`, status: 400, code: "invalid", detail: "Field 'server_id' must be a string, not number."},
		{name: "api_key not a string", s: lax, body: `{"server_id": "needs-key", "api_key": ["k"]}`, status: 400, code: "invalid", detail: "Field 'api_key' must be a string, not array."},
		{name: "body not an object", s: lax, body: `["ok"]`, status: 400, code: "invalid", detail: "Request body must be a JSON object, not array."},
		{name: "oversized body", s: lax, body: body("server_id", "ok", "api_key", strings.Repeat("k", 70<<10)), status: 413, code: "too_large", detail: "Request body is larger than 64 KiB."},
		{name: "unknown server", s: lax, body: body("server_id", "no-such-server"), status: 404, code: "not_found", detail: "MCP server not found."},
		{name: "no server id", s: lax, body: body("endpoint_url", "https://mcp.example.com/mcp"), status: 404, code: "not_found", detail: "MCP server not found."},
		{name: "inactive server", s: lax, body: body("server_id", "retired"), status: 409, code: "conflict", detail: "Test server retired is no longer listed as active in the registry."},
		{name: "key required, none", s: lax, body: body("server_id", "needs-key"), status: 400, code: "invalid", detail: keyError},
		{name: "key required, blank", s: lax, body: body("server_id", "needs-key", "api_key", ""), status: 400, code: "invalid", detail: keyError},
		{name: "key required, whitespace", s: lax, body: body("server_id", "needs-key", "api_key", " \t\n "), status: 400, code: "invalid", detail: keyError},
		{name: "key too long", s: lax, body: body("server_id", "needs-key", "api_key", strings.Repeat("k", 4097)), status: 400, code: "invalid", detail: "The API key is too long."},
		{name: "endpoint too long", s: lax, body: body("server_id", "ok", "endpoint_url", "https://mcp.example.com/"+strings.Repeat("p", 2048)), status: 400, code: "invalid", detail: "The endpoint URL is too long."},
		{name: "endpoint not http", s: lax, body: body("server_id", "ok", "endpoint_url", "file:///etc/passwd"), status: 400, code: "invalid", detail: "The endpoint URL must start with https:// or http://."},
		{name: "cloud metadata address", s: lax, body: body("server_id", "metadata"), status: 400, code: "invalid", part: refused},
		{name: "private network", s: lax, body: body("server_id", "private"), status: 400, code: "invalid", part: refused},
		{name: "metadata address given as endpoint", s: lax, body: body("server_id", "public", "endpoint_url", "http://169.254.169.254/latest/meta-data/"), status: 400, code: "invalid", part: refused},
		{name: "private IPv6 given as endpoint", s: lax, body: body("server_id", "public", "endpoint_url", "http://[fd00::1]/mcp"), status: 400, code: "invalid", part: refused},
		{name: "redirect to the metadata address", s: lax, body: body("server_id", "redirect"), status: 400, code: "invalid", part: refused},
		{name: "loopback refused", s: strict, body: body("server_id", "loopback"), status: 400, code: "invalid", part: refused},
		{name: "IPv4-mapped loopback refused", s: strict, body: body("server_id", "mapped"), status: 400, code: "invalid", part: refused},
		{name: "IPv6 loopback refused", s: strict, body: body("server_id", "ipv6-loopback"), status: 400, code: "invalid", part: refused},
		{name: "host name resolving to loopback refused", s: strict, body: body("server_id", "localhost"), status: 400, code: "invalid", part: refused},
		{name: "closed port", s: lax, body: body("server_id", "closed"), status: 502, code: "upstream", detail: "The server refused the connection."},
		{name: "HTML page", s: lax, body: body("server_id", "html"), status: 502, code: "upstream", part: "not an MCP server"},
		{name: "401 with an OAuth challenge", s: lax, body: body("server_id", "oauth"), status: 502, code: "upstream", detail: "This server requires sign-in with the server's OAuth: use Sign in in the MCP Registry."},
		{name: "key refused", s: lax, body: body("server_id", "needs-key", "api_key", wrongKey), status: 502, code: "upstream", detail: "The server refused the API key."},
		{name: "slow initialize", s: lax, body: body("server_id", "slow"), status: 504, code: "timeout", detail: "The server did not answer within 1 second.", within: 5 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			token := ""
			if !tt.noToken {
				// One user per case: the per-user connect limit stays out of the way.
				_, token = tt.s.user("errors")
			}
			start := time.Now()
			w := apitest.Do(tt.s.h, http.MethodPost, connectionsPath, token, tt.body, nil)
			took := time.Since(start)
			var e apitest.Error
			if tt.part != "" {
				e = apitest.WantErrorContaining(t, w, tt.status, tt.part)
			} else {
				e = apitest.WantError(t, w, tt.status, tt.detail)
			}
			if e.Code != tt.code {
				t.Errorf("code = %q, want %q", e.Code, tt.code)
			}
			if strings.Contains(w.Body.String(), wrongKey) {
				t.Errorf("the answer carries the key: %s", w.Body)
			}
			within := cmp.Or(tt.within, 10*time.Second)
			if took > within {
				t.Errorf("answered after %v, want within %v", took, within)
			}
		})
	}
	t.Cleanup(func() {
		if n, _ := reached.counts(); n != 0 {
			t.Errorf("%d requests reached a loopback server the rules refuse", n)
		}
		// Only the key that was sent reached the server (the SDK may try more
		// than one request per handshake).
		if got := keyed.tokens(); len(got) == 0 || slices.ContainsFunc(got, func(k string) bool { return k != wrongKey }) {
			t.Errorf("keys that reached the key-checking server = %q, want the wrong key sent", got)
		}
	})
}

// MCP_CONNECT_TIMEOUT alone bounds a connect: a server that answers
// initialize after the outbound client's default 10 s wait for headers,
// but within the connect timeout, is connected (not cut at 10 s with a
// 504).
func TestConnectTimeoutGovernsTheHandshake(t *testing.T) {
	t.Parallel()
	o := local()
	o.ConnectTimeout = 30 * time.Second
	s := newStack(t, o)
	late := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			if bytes.Contains(body, []byte(`"method":"initialize"`)) {
				select { // answered past the client's default 10 s wait for headers
				case <-time.After(10*time.Second + 500*time.Millisecond):
				case <-r.Context().Done():
					return
				}
			}
			next.ServeHTTP(w, r)
		})
	}
	s.addServer(domain.MCPServer{ID: "late", EndpointURL: sdkServer(t, 1, late)})
	_, token := s.user("late-user")
	if w := s.connect(token, map[string]any{"server_id": "late"}); w.Code != http.StatusOK {
		t.Fatalf("connect = %d %s, want 200 within the 30 s connect timeout", w.Code, w.Body)
	}
}
