package mcpapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"aiwork/shared/api/apitest"
	"aiwork/shared/domain"
)

// MCP servers that break while connecting: one that closes the
// connection mid-handshake, one that answers initialize with a JSON-RPC
// error, one that answers 10 MB. Each is a clear 502, and nothing is
// stored for the user.
func TestConnectBrokenServers(t *testing.T) {
	t.Parallel()
	s := newStack(t, local())
	serve := func(h http.HandlerFunc) string {
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		return srv.URL + "/mcp"
	}
	s.addServer(domain.MCPServer{ID: "cut", EndpointURL: serve(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
			_ = conn.Close()
		}
	})})
	s.addServer(domain.MCPServer{ID: "rpc-error", EndpointURL: serve(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"error":{"code":-32603,"message":"database unavailable"}}`))
	})})
	s.addServer(domain.MCPServer{ID: "huge", EndpointURL: serve(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		chunk := strings.Repeat("x", 64<<10)
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"padding":"`)
		for range (10 << 20) / len(chunk) {
			if _, err := io.WriteString(w, chunk); err != nil {
				return // the client gave up reading: as it should
			}
		}
		_, _ = io.WriteString(w, `"}}`)
	})})
	for _, tc := range []struct{ id, detail string }{
		{"cut", "The server closed the connection before the handshake finished."},
		{"rpc-error", "The server answered the handshake with an error: database unavailable (JSON-RPC -32603)."},
		{"huge", "The server's answer was too large."},
	} {
		t.Run(tc.id, func(t *testing.T) {
			t.Parallel()
			_, token := s.user("broken")
			w := apitest.Do(s.h, http.MethodPost, connectionsPath, token, `{"server_id":"`+tc.id+`"}`, nil)
			if e := apitest.WantError(t, w, http.StatusBadGateway, tc.detail); e.Code != "upstream" {
				t.Errorf("code %q", e.Code)
			}
			list := apitest.Do(s.h, http.MethodGet, connectionsPath, token, "", nil)
			if list.Code != http.StatusOK || strings.TrimSpace(list.Body.String()) != "[]" {
				t.Errorf("connections after a failed connect: %d %s", list.Code, list.Body)
			}
		})
	}
}
