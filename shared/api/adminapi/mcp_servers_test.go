package adminapi_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/api/apitest"
	"aiwork/shared/config"
	"aiwork/shared/local/devstack"
	"aiwork/shared/seeddata"
)

type serverJSON struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	EndpointURL string   `json:"endpoint_url"`
	Auth        string   `json:"auth"`
	Features    []string `json:"features"`
	Enabled     bool     `json:"enabled"`
	Source      string   `json:"source"`
	Version     int      `json:"version"`
	Health      struct {
		Status     string `json:"status"`
		ToolsCount int    `json:"tools_count"`
		Error      string `json:"error"`
	} `json:"health"`
}

type savedJSON struct {
	Server  serverJSON `json:"server"`
	Warning string     `json:"warning"`
}

// mcpStack is the API with the registry jobs allowed to reach loopback (the
// test's own MCP server) and a registry that lists nothing.
func mcpStack(t *testing.T) *stack {
	t.Helper()
	registry := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"servers": [], "metadata": {"count": 0}}`)
	}))
	t.Cleanup(registry.Close)
	return newStackWith(t, func(c *devstack.Config) {
		c.Admin.MCPJobs = config.MCPJobs{RegistryURL: registry.URL, Outbound: config.Outbound{AllowLoopback: true}}
	}, 5)
}

// A real MCP server (the go-sdk's) with one tool.
func mcpServer(t *testing.T) string {
	t.Helper()
	srv := sdk.NewServer(&sdk.Implementation{Name: "admin-test", Version: "0.1.0"}, nil)
	srv.AddTool(&sdk.Tool{Name: "echo", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{}, nil
		})
	h := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(h.Close)
	return h.URL + "/mcp"
}

func listedToUsers(t *testing.T, s *stack, id string) bool {
	t.Helper()
	page := decode[struct{ Items []struct{ ID string } }](t, s.Do("GET", "/api/v1/mcp-servers/?limit=60", "", ""), http.StatusOK)
	for _, l := range page.Items {
		if l.ID == id {
			return true
		}
	}
	return false
}

// An admin adds a server: users see it; disabled, they do not; a stale
// edit is 409; Probe now records its health and history; Sync runs.
func TestAdminMCPServers(t *testing.T) {
	t.Parallel()
	s := mcpStack(t)
	_, boss := s.admin("boss")
	endpoint := mcpServer(t)

	body := mustJSON(map[string]any{"name": "Team tools", "description": "Our own", "endpoint_url": endpoint, "model_type": "code", "auth": "none", "features": []string{"tools", "tools", " "}})
	saved := decode[savedJSON](t, s.Do("POST", admin+"mcp-servers", boss, body), http.StatusCreated)
	srv := saved.Server
	if saved.Warning != "" || !srv.Enabled || srv.Source != "admin" || srv.Version != 1 || srv.Auth != "none" || strings.Join(srv.Features, ",") != "tools" {
		t.Fatalf("created %+v", saved)
	}
	if !listedToUsers(t, s, srv.ID) {
		t.Fatal("a new server is not in the users' listing")
	}

	probed := decode[struct {
		Health struct {
			Status     string `json:"status"`
			ToolsCount int    `json:"tools_count"`
		} `json:"health"`
	}](t, s.Do("POST", admin+"mcp-servers/"+srv.ID+"/probe", boss, ""), http.StatusOK)
	if probed.Health.Status != "up" || probed.Health.ToolsCount != 1 {
		t.Fatalf("probe %+v", probed)
	}
	history := decode[struct{ Items []struct{ Status string } }](t, s.Do("GET", admin+"mcp-servers/"+srv.ID+"/probes", boss, ""), http.StatusOK)
	if len(history.Items) != 1 || history.Items[0].Status != "up" {
		t.Fatalf("history %+v", history)
	}

	off := decode[savedJSON](t, s.Do("PATCH", admin+"mcp-servers/"+srv.ID, boss, `{"version":1,"enabled":false}`), http.StatusOK)
	if off.Server.Enabled || off.Server.Version != 2 || off.Server.Health.Status != "up" {
		t.Fatalf("disabled %+v", off.Server)
	}
	if listedToUsers(t, s, srv.ID) {
		t.Error("a disabled server is still listed to users")
	}
	// Nor found by its id: its endpoint and probe errors are the admins'.
	apitest.WantError(t, s.Do("GET", "/api/v1/mcp-servers/"+srv.ID, "", ""), http.StatusNotFound, "MCP server not found.")
	if w := s.Do("PATCH", admin+"mcp-servers/"+srv.ID, boss, `{"version":1,"enabled":true}`); w.Code != http.StatusConflict || !strings.Contains(w.Body.String(), `"version":2`) {
		t.Fatalf("stale edit: %d %s", w.Code, w.Body)
	}
	decode[savedJSON](t, s.Do("PATCH", admin+"mcp-servers/"+srv.ID, boss, `{"version":2,"enabled":true,"name":"Team tools 2"}`), http.StatusOK)
	if !listedToUsers(t, s, srv.ID) {
		t.Error("re-enabled, the server is not listed again")
	}

	sync := decode[struct {
		Registry bool `json:"registry"`
		Upserted int  `json:"upserted"`
	}](t, s.Do("POST", admin+"mcp-sync", boss, ""), http.StatusOK)
	if !sync.Registry {
		t.Errorf("sync %+v", sync)
	}
	audit := decode[pageJSON[auditJSON]](t, s.Do("GET", admin+"audit", boss, ""), http.StatusOK)
	actions := []string{}
	for _, a := range audit.Items {
		actions = append(actions, a.Action)
	}
	if strings.Join(actions, ",") != "mcp.sync,mcp_server.update,mcp_server.update,mcp_server.probe,mcp_server.create" {
		t.Errorf("audit %v", actions)
	}
}

// An endpoint the outbound rules refuse is saved disabled, with a warning
// saying why, and its probe says why too.
func TestAdminMCPServerRefusedEndpoint(t *testing.T) {
	t.Parallel()
	s := mcpStack(t)
	_, boss := s.admin("boss")
	body := mustJSON(map[string]any{"name": "Internal", "endpoint_url": "http://10.1.2.3/mcp", "model_type": "data", "auth": "api_key"})
	saved := decode[savedJSON](t, s.Do("POST", admin+"mcp-servers", boss, body), http.StatusCreated)
	if saved.Server.Enabled || !strings.Contains(saved.Warning, "private or local address") {
		t.Fatalf("saved %+v", saved)
	}
	if listedToUsers(t, s, saved.Server.ID) {
		t.Error("a refused endpoint is listed to users")
	}
	again := decode[savedJSON](t, s.Do("PATCH", admin+"mcp-servers/"+saved.Server.ID, boss, `{"version":1,"enabled":true}`), http.StatusOK)
	if again.Server.Enabled || !strings.Contains(again.Warning, "disabled") {
		t.Errorf("enabling a refused endpoint: %+v", again)
	}
	probed := decode[struct {
		Health struct{ Status, Error string } `json:"health"`
	}](t, s.Do("POST", admin+"mcp-servers/"+saved.Server.ID+"/probe", boss, ""), http.StatusOK)
	if probed.Health.Status != "down" || !strings.Contains(probed.Health.Error, "private or local address") {
		t.Errorf("probe of a refused endpoint: %+v", probed.Health)
	}
}

// Bad servers are refused with a clear detail; an admin's switch on a
// registry entry survives a sync (which rewrites the entry's listing).
func TestAdminMCPServerRulesAndSync(t *testing.T) {
	t.Parallel()
	s := mcpStack(t)
	storetest := s.St
	if err := seeddata.SeedMCPServers(context.Background(), storetest); err != nil {
		t.Fatal(err)
	}
	_, boss := s.admin("boss")
	good := map[string]any{"name": "N", "endpoint_url": "https://mcp.example.com/mcp", "model_type": "code", "auth": "none"}
	with := func(k string, v any) string {
		m := map[string]any{}
		for a, b := range good {
			m[a] = b
		}
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
		return mustJSON(m)
	}
	many := make([]string, 21)
	for i := range many {
		many[i] = fmt.Sprint("f", i)
	}
	for _, tc := range []struct{ body, detail string }{
		{with("name", " "), "name is required"},
		{with("endpoint_url", "ftp://x/y"), "endpoint_url must be an http"},
		{with("endpoint_url", nil), "endpoint_url is required"},
		{with("model_type", "Big Models!"), "model_type must be"},
		{with("auth", "magic"), `auth must be "none"`},
		{with("auth", nil), "auth is required"},
		{with("features", many), "features: at most 20"},
		{with("features", "tools"), "'features' must be"},
	} {
		apitest.WantErrorContaining(t, s.Do("POST", admin+"mcp-servers", boss, tc.body), http.StatusBadRequest, tc.detail)
	}
	apitest.WantErrorContaining(t, s.Do("PATCH", admin+"mcp-servers/nope", boss, `{"version":0}`), http.StatusNotFound, "MCP server not found.")

	all := decode[pageJSON[serverJSON]](t, s.Do("GET", admin+"mcp-servers?limit=100", boss, ""), http.StatusOK)
	if len(all.Items) == 0 {
		t.Fatal("no seeded servers listed")
	}
	entry := all.Items[0]
	decode[savedJSON](t, s.Do("PATCH", admin+"mcp-servers/"+entry.ID, boss, fmt.Sprintf(`{"version":%d,"enabled":false}`, entry.Version)), http.StatusOK)
	decode[map[string]any](t, s.Do("POST", admin+"mcp-sync", boss, ""), http.StatusOK)
	if listedToUsers(t, s, entry.ID) {
		t.Error("a sync brought back a server an admin disabled")
	}
	disabled := decode[pageJSON[serverJSON]](t, s.Do("GET", admin+"mcp-servers?state=disabled", boss, ""), http.StatusOK)
	if len(disabled.Items) != 1 || disabled.Items[0].ID != entry.ID {
		t.Errorf("state=disabled %+v", disabled.Items)
	}
}

// The registry list's cursor is a place in its name order: disabling the
// last server of a page of the enabled ones does not send the next page
// back to the start.
func TestAdminMCPServerListCursorOutlivesItsServer(t *testing.T) {
	t.Parallel()
	s := mcpStack(t)
	if err := seeddata.SeedMCPServers(context.Background(), s.St); err != nil {
		t.Fatal(err)
	}
	_, boss := s.admin("boss")
	enabled := decode[pageJSON[serverJSON]](t, s.Do("GET", admin+"mcp-servers?state=enabled&limit=100", boss, ""), http.StatusOK)
	if len(enabled.Items) < 4 {
		t.Fatalf("%d enabled servers seeded, want 4 or more", len(enabled.Items))
	}
	first := decode[pageJSON[serverJSON]](t, s.Do("GET", admin+"mcp-servers?state=enabled&limit=2", boss, ""), http.StatusOK)
	last := first.Items[1]
	if first.Items[0].ID != enabled.Items[0].ID || last.ID != enabled.Items[1].ID || first.NextCursor == "" {
		t.Fatalf("first page %+v", first)
	}
	decode[savedJSON](t, s.Do("PATCH", admin+"mcp-servers/"+last.ID, boss, fmt.Sprintf(`{"version":%d,"enabled":false}`, last.Version)), http.StatusOK)
	second := decode[pageJSON[serverJSON]](t, s.Do("GET", admin+"mcp-servers?state=enabled&limit=2&cursor="+first.NextCursor, boss, ""), http.StatusOK)
	if len(second.Items) != 2 || second.Items[0].ID != enabled.Items[2].ID || second.Items[1].ID != enabled.Items[3].ID {
		t.Errorf("after the cursor's server was disabled: %+v, want %s then %s", second.Items, enabled.Items[2].ID, enabled.Items[3].ID)
	}
}
