package mcpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"aiwork/shared/api/apitest"
	"aiwork/shared/domain"
	"aiwork/shared/store/storetest"
)

// TestToolsList: the Tools control's list holds the caller's connected
// servers with their tools (schemas and hints as the chat offers them) and
// nobody else's; it needs a sign-in.
func TestToolsList(t *testing.T) {
	t.Parallel()
	s := newStack(t, local())
	s.addServer(domain.MCPServer{ID: "four", EndpointURL: sdkServer(t, 4, nil)})
	_, token := s.user("tools")
	_, other := s.user("tools-other")
	c := apitest.Decode[connectionView](t, s.connect(token, map[string]any{"server_id": "four"}), http.StatusOK)
	s.connect(other, map[string]any{"server_id": "four"})

	type tool struct {
		Name        string          `json:"name"`
		InputSchema json.RawMessage `json:"input_schema"`
		ReadOnly    bool            `json:"read_only"`
		Destructive bool            `json:"destructive"`
	}
	got := apitest.Decode[struct {
		Servers []struct {
			ConnectionID string `json:"connection_id"`
			ServerID     string `json:"server_id"`
			ServerName   string `json:"server_name"`
			Tools        []tool `json:"tools"`
		} `json:"servers"`
		AlwaysAllowed []any `json:"always_allowed"`
	}](t, s.get("/api/v1/mcp-connections/tools", token), http.StatusOK)
	if len(got.Servers) != 1 || got.Servers[0].ConnectionID != c.ConnectionID || got.Servers[0].ServerID != "four" ||
		len(got.Servers[0].Tools) != 4 || got.AlwaysAllowed == nil || len(got.AlwaysAllowed) != 0 {
		t.Fatalf("tools = %+v, want the caller's one connection with 4 tools and no always-allowed", got)
	}
	for i, tl := range got.Servers[0].Tools {
		// Even tools are read-only; the others give no destructive hint,
		// which the MCP spec reads as "may destroy".
		if tl.ReadOnly != (i%2 == 0) || tl.Destructive == tl.ReadOnly || string(tl.InputSchema) != `{"type":"object"}` {
			t.Errorf("tool %d = %+v", i, tl)
		}
	}
	apitest.WantError(t, s.get("/api/v1/mcp-connections/tools", ""), http.StatusUnauthorized, "Not authenticated.")
	w := apitest.Do(s.h, http.MethodDelete, "/api/v1/mcp-connections/tools/always/four/tool-01", token, "", nil)
	apitest.WantError(t, w, http.StatusNotFound, "This tool is not always allowed.")
}

// TestToolsListShowsViews: a tool's view (MCP Apps) and who may call it
// are in the Tools control's list; a tool without them has neither field.
func TestToolsListShowsViews(t *testing.T) {
	t.Parallel()
	s := newStack(t, local())
	uid, token := s.user("tools-views")
	storetest.Must(t, s.st.PutMCPConnection(context.Background(), uid, domain.MCPConnection{ID: "c1", ServerID: "apps",
		EndpointURL: "http://127.0.0.1:9/mcp", ConnectedAt: "2026-11-20T10:00:00Z", Tools: []domain.MCPTool{
			{Name: "get-time", ReadOnly: true, UIResourceURI: "ui://get-time/mcp-app.html", Visibility: []string{"model", "app"}},
			{Name: "refresh", UIResourceURI: "ui://get-time/mcp-app.html", Visibility: []string{"app"}},
			{Name: "plain"},
		}}), "put connection")
	got := apitest.Decode[struct {
		Servers []struct {
			Tools []map[string]json.RawMessage `json:"tools"`
		} `json:"servers"`
	}](t, s.get("/api/v1/mcp-connections/tools", token), http.StatusOK)
	if len(got.Servers) != 1 || len(got.Servers[0].Tools) != 3 {
		t.Fatalf("tools = %+v, want one server with 3 tools", got)
	}
	for i, want := range []struct{ uri, visibility string }{
		{`"ui://get-time/mcp-app.html"`, `["model","app"]`}, {`"ui://get-time/mcp-app.html"`, `["app"]`}, {"", ""},
	} {
		tool := got.Servers[0].Tools[i]
		if string(tool["ui_resource_uri"]) != want.uri || string(tool["visibility"]) != want.visibility {
			t.Errorf("tool %d: ui_resource_uri %s, visibility %s; want %q, %q", i, tool["ui_resource_uri"], tool["visibility"], want.uri, want.visibility)
		}
	}
}
