package mcpjobs_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"aiwork/shared/config"
	"aiwork/shared/domain"
	"aiwork/shared/local/localmcp"
	"aiwork/shared/mcpjobs"
	"aiwork/shared/seeddata"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

var ctx = context.Background()

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// registryEntry is one item of a GET /v0.1/servers page in the official format.
func registryEntry(name, status, title, description, remoteType, remoteURL string) string {
	return fmt.Sprintf(`{
  "server": {
    "$schema": "https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json",
    "name": %q, "title": %q, "description": %q, "version": "1.2.0",
    "remotes": [{"type": %q, "url": %q}]
  },
  "_meta": {"io.modelcontextprotocol.registry/official": {
    "status": %q, "publishedAt": "2026-10-01T00:00:00Z", "updatedAt": "2026-11-01T00:00:00Z", "isLatest": true}}
}`, name, title, description, remoteType, remoteURL, status)
}

// fakeRegistry serves the entries as one page under /v0.1/servers and keeps
// every query. Like the official registry it answers updated_since with only
// the entries updated after it (all of these were updated on 2026-11-01).
func fakeRegistry(t *testing.T, entries ...string) (string, func() []url.Values) {
	t.Helper()
	var (
		mu      sync.Mutex
		queries []url.Values
	)
	updated := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v0.1/servers" || r.Method != http.MethodGet {
			t.Errorf("registry got %s %s", r.Method, r.URL.Path)
			http.NotFound(w, r)
			return
		}
		mu.Lock()
		queries = append(queries, r.URL.Query())
		mu.Unlock()
		listed := entries
		if since := r.URL.Query().Get("updated_since"); since != "" {
			at, err := time.Parse(time.RFC3339, since)
			if err != nil {
				t.Errorf("updated_since = %q: %v", since, err)
			}
			if !updated.After(at) {
				listed = nil
			}
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"servers": [%s], "metadata": {"count": %d}}`, strings.Join(listed, ","), len(listed))
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() []url.Values {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(queries)
	}
}

func runner(t *testing.T, st *store.Store, registryURL string) *mcpjobs.Runner {
	t.Helper()
	r, err := mcpjobs.FromConfig(st, config.MCPJobs{RegistryURL: registryURL, Outbound: config.Outbound{AllowLoopback: true}}, quiet())
	storetest.Must(t, err, "runner")
	return r
}

func servers(t *testing.T, st *store.Store) map[string]domain.MCPServer {
	t.Helper()
	list, err := st.ListMCPServers(ctx)
	storetest.Must(t, err, "list")
	m := map[string]domain.MCPServer{}
	for _, s := range list {
		m[s.ID] = s
	}
	return m
}

// TestSync: mcp-sync writes the seed and imports the configured registry
// (official /v0.1/servers format); a registry entry that is deleted leaves
// the listing, also when it was a seeded server, and stays out on the next
// run.
func TestSync(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	base, queries := fakeRegistry(t,
		registryEntry("io.example/weather", "active", "Weather", "Forecasts for any city.", "streamable-http", "https://weather.example.com/mcp"),
		registryEntry("com.asana/mcp", "deleted", "Asana", "Manage Asana tasks.", "streamable-http", "https://mcp.asana.com/v2/mcp"),
	)
	r := runner(t, st, base)
	for run := 1; run <= 2; run++ {
		if err := r.Run(ctx, mcpjobs.Sync); err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		got := servers(t, st)
		weather, ok := got["io.example--weather"]
		if !ok || !weather.IsActive || weather.Source != "registry" || weather.Title != "Weather" ||
			weather.EndpointURL != "https://weather.example.com/mcp" || weather.Transport != domain.TransportStreamableHTTP {
			t.Errorf("run %d: imported entry = %+v (present %v)", run, weather, ok)
		}
		seed, err := seeddata.MCPServers()
		storetest.Must(t, err, "seed")
		for _, s := range seed {
			stored, ok := got[s.ID]
			switch {
			case !ok:
				t.Errorf("run %d: seeded %s missing", run, s.ID)
			case s.ID == "com.asana--mcp":
				if stored.IsActive {
					t.Errorf("run %d: %s is active although the registry deleted it", run, s.ID)
				}
			case !stored.IsActive || stored.EndpointURL != s.EndpointURL:
				t.Errorf("run %d: seeded %s = %+v", run, s.ID, stored)
			}
		}
		if len(got) != len(seed)+1 {
			t.Errorf("run %d: %d servers, want the %d seeded and the imported one", run, len(got), len(seed))
		}
	}
	q := queries()
	if len(q) != 2 {
		t.Fatalf("registry queries = %v, want one per run", q)
	}
	for i, v := range q {
		if v.Get("version") != "latest" || v.Get("limit") != "100" {
			t.Errorf("query %d = %v, want version=latest&limit=100", i, v)
		}
	}
	if q[0].Has("updated_since") || q[1].Get("updated_since") == "" {
		t.Errorf("updated_since: first run %q, second %q; want a full import, then an incremental one", q[0].Get("updated_since"), q[1].Get("updated_since"))
	}
}

// TestSyncWithoutRegistry: with no registry configured, mcp-sync writes the seed only.
func TestSyncWithoutRegistry(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	storetest.Must(t, runner(t, st, "").Run(ctx, mcpjobs.Sync), "sync")
	seed, err := seeddata.MCPServers()
	storetest.Must(t, err, "seed")
	if got := servers(t, st); len(got) != len(seed) {
		t.Errorf("%d servers, want the %d seeded", len(got), len(seed))
	}
}

// TestProbe: mcp-probe records the running reference server as up with its
// tools, a closed port as down with a reason, and leaves inactive entries alone.
func TestProbe(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	startCtx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	ref, err := localmcp.Start(startCtx, localmcp.ModeStreamable)
	if err != nil {
		t.Fatalf("reference server: %v", err)
	}
	t.Cleanup(ref.Stop)
	storetest.Must(t, seeddata.SetLocalReference(ctx, st, ref.Endpoint), "local reference")
	for _, s := range []domain.MCPServer{
		{ID: "dead", Name: "test/dead", EndpointURL: closedPort(t), IsActive: true},
		{ID: "retired", Name: "test/retired", EndpointURL: closedPort(t), IsActive: false},
	} {
		storetest.Must(t, st.UpsertMCPServer(ctx, s), "upsert "+s.ID)
	}

	before := time.Now().UTC().Truncate(time.Second)
	storetest.Must(t, runner(t, st, "").Run(ctx, mcpjobs.Probe), "probe")
	got := servers(t, st)

	up := got[seeddata.LocalReferenceID].Health
	if up.Status != domain.HealthUp || up.ProtocolVersion == "" || up.ToolsHash == "" || up.Error != "" {
		t.Errorf("reference health = %+v, want up", up)
	}
	if up.ToolsCount < 10 || len(up.Tools) != up.ToolsCount || !slices.ContainsFunc(up.Tools, func(tool domain.MCPTool) bool { return tool.Name == "echo" }) {
		t.Errorf("reference tools: count %d, %d listed; want ≥ 10 with echo", up.ToolsCount, len(up.Tools))
	}
	if up.ServerInfo == nil || up.ServerInfo.Name != "mcp-servers/everything" {
		t.Errorf("reference server info = %+v", up.ServerInfo)
	}
	down := got["dead"].Health
	if down.Status != domain.HealthDown || down.Error == "" || down.ToolsCount != 0 {
		t.Errorf("dead health = %+v, want down with a reason", down)
	}
	for id, h := range map[string]domain.MCPHealth{"reference": up, "dead": down} {
		at, err := time.Parse(time.RFC3339, h.CheckedAt)
		if err != nil || at.Before(before) {
			t.Errorf("%s checked_at = %q (%v), want this run", id, h.CheckedAt, err)
		}
	}
	if h := got["retired"].Health; h.CheckedAt != "" || h.Status != domain.HealthUnknown {
		t.Errorf("inactive server was probed: %+v", h)
	}
}

func TestUnknownJob(t *testing.T) {
	t.Parallel()
	err := runner(t, storetest.New(t), "").Run(ctx, "mcp-nope")
	if err == nil || !strings.Contains(err.Error(), `unknown job "mcp-nope"`) {
		t.Errorf("Run(mcp-nope) = %v, want an unknown job error", err)
	}
}

// closedPort answers a loopback MCP URL nobody listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return fmt.Sprintf("http://%s/mcp", l.Addr())
}
