package registry_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/mcp/registry"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

var ctx = context.Background()

// fakeRegistry serves recorded list pages under /prefix/v0.1/servers and
// remembers every request's query.
type fakeRegistry struct {
	t        *testing.T
	mu       sync.Mutex
	serve    func(q url.Values) (status int, body string)
	requests []url.Values
}

func newFakeRegistry(t *testing.T) (*fakeRegistry, *httptest.Server) {
	f := &fakeRegistry{t: t}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/prefix/v0.1/servers" || r.Method != http.MethodGet {
			t.Errorf("unexpected request %s %s", r.Method, r.URL.Path)
			http.NotFound(w, r)
			return
		}
		f.mu.Lock()
		f.requests = append(f.requests, r.URL.Query())
		serve := f.serve
		f.mu.Unlock()
		status, body := serve(r.URL.Query())
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	return f, srv
}

func (f *fakeRegistry) setPages(serve func(q url.Values) (int, string)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.serve, f.requests = serve, nil
}

func (f *fakeRegistry) taken() []url.Values {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]url.Values(nil), f.requests...)
}

// entry renders one list item; meta is the response-level _meta body ("" for none).
func entry(name, status, server string) string {
	meta := ""
	if status != "" {
		meta = fmt.Sprintf(`, "_meta": {"io.modelcontextprotocol.registry/official": {"status": %q, "publishedAt": "2025-10-01T00:00:00Z", "updatedAt": "2025-11-01T00:00:00Z", "isLatest": true}}`, status)
	}
	return fmt.Sprintf(`{"server": {"name": %q, "version": "1.0.0", %s}%s}`, name, server, meta)
}

func page(next string, entries ...string) string {
	md := `"metadata": {"count": ` + fmt.Sprint(len(entries)) + `}`
	if next != "" {
		md = fmt.Sprintf(`"metadata": {"nextCursor": %q, "count": %d}`, next, len(entries))
	}
	return `{"servers": [` + strings.Join(entries, ",") + `], ` + md + `}`
}

const (
	githubRemote   = `"title": "GitHub", "description": "GitHub repositories, issues and pull requests", "remotes": [{"type": "streamable-http", "url": "https://api.githubcopilot.com/mcp/", "headers": [{"name": "Authorization", "isRequired": true, "isSecret": true}]}]`
	context7Remote = `"description": "Up-to-date code docs for any prompt", "remotes": [{"type": "streamable-http", "url": "https://mcp.context7.com/mcp"}]`
	sseRemote      = `"title": "SSE Only", "description": "Notes and tasks", "remotes": [{"type": "sse", "url": "https://sse.example.com/sse"}]`
	stdioOnly      = `"description": "Runs locally", "packages": [{"registryType": "npm", "identifier": "x", "version": "1.0.0", "transport": {"type": "stdio"}}]`
)

func notionEntry() string {
	return `{"server": {"name": "com.notion/mcp", "title": "Notion", "version": "1.0.1", "description": "Pages and databases",
	  "remotes": [{"type": "streamable-http", "url": "https://mcp.notion.com/mcp"}, {"type": "sse", "url": "https://mcp.notion.com/sse"}]},
	  "_meta": {"io.modelcontextprotocol.registry/official": {"status": "active", "isLatest": true},
	            "com.aiwork/catalog": {"model_type": "productivity", "oauth": true, "features": ["tools"]}}}`
}

func clock(times ...time.Time) func() time.Time {
	var mu sync.Mutex
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t := times[0]
		if len(times) > 1 {
			times = times[1:]
		}
		return t
	}
}

func byID(t *testing.T, st *store.Store) map[string]domain.MCPServer {
	t.Helper()
	list, err := st.ListMCPServers(ctx)
	storetest.Must(t, err, "list")
	m := map[string]domain.MCPServer{}
	for _, s := range list {
		m[s.ID] = s
	}
	return m
}

func TestSyncPagesDeletesAndRunsIncrementally(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	reg, srv := newFakeRegistry(t)
	log, logBuf := bufLog()
	t1 := time.Date(2026, 11, 22, 12, 0, 0, 500, time.UTC)
	t2 := t1.Add(6 * time.Hour)
	t3 := t2.Add(6 * time.Hour)
	s := &registry.Syncer{BaseURL: srv.URL + "/prefix/", HTTP: srv.Client(), Store: st, Log: log, Now: clock(t1, t2, t3)}

	// Run 1: a full import over three pages, the second spelling next_cursor.
	reg.setPages(func(q url.Values) (int, string) {
		switch q.Get("cursor") {
		case "":
			return 200, page("c2",
				entry("io.github.github/github-mcp-server", "active", githubRemote),
				notionEntry(),
				entry("com.acme/local-only", "active", stdioOnly),
				`{"server": 7}`)
		case "c2":
			return 200, strings.Replace(page("", entry("io.github.upstash/context7", "active", context7Remote),
				entry("com.gone/old", "deleted", context7Remote)), `"metadata": {"count": 2}`, `"metadata": {"next_cursor": "c3", "count": 2}`, 1)
		case "c3":
			return 200, page("", entry("com.example/sse-only", "", sseRemote))
		}
		t.Errorf("unknown cursor %q", q.Get("cursor"))
		return 404, `{"error": "no"}`
	})
	stats, err := s.Run(ctx)
	if err != nil {
		t.Fatalf("run 1: %v", err)
	}
	if want := (registry.Stats{Pages: 3, Upserted: 4, Skipped: 1}); stats != want {
		t.Errorf("run 1 stats = %+v, want %+v", stats, want)
	}
	reqs := reg.taken()
	var cursors []string
	for _, q := range reqs {
		cursors = append(cursors, q.Get("cursor"))
		if q.Get("limit") != "100" || q.Get("version") != "latest" || q.Has("updated_since") || q.Has("include_deleted") {
			t.Errorf("run 1 query %v: want limit=100, version=latest, no updated_since nor include_deleted", q)
		}
	}
	if !reflect.DeepEqual(cursors, []string{"", "c2", "c3"}) {
		t.Errorf("cursors = %q", cursors)
	}
	if n := strings.Count(logBuf.String(), "skipped malformed entry"); n != 1 {
		t.Errorf("%d malformed-entry log lines, want 1:\n%s", n, logBuf)
	}

	servers := byID(t, st)
	if len(servers) != 4 {
		t.Fatalf("stored %d servers, want 4 (no stdio-only, no deleted): %v", len(servers), servers)
	}
	gh := servers["io.github.github--github-mcp-server"]
	if !gh.IsActive || !gh.APIKeyRequired || gh.APIKeyHeader != "Authorization" || gh.Source != "registry" || gh.ModelType != "code" {
		t.Errorf("github = %+v", gh)
	}
	notion := servers["com.notion--mcp"]
	if !notion.OAuthRequired || notion.ModelType != "productivity" || notion.Transport != domain.TransportStreamableHTTP {
		t.Errorf("notion = %+v", notion)
	}
	if sse := servers["com.example--sse-only"]; sse.Transport != domain.TransportSSE || sse.EndpointURL != "https://sse.example.com/sse" {
		t.Errorf("sse-only = %+v", sse)
	}
	if last, _ := st.MCPSyncState(ctx); last != "2026-11-22T12:00:00Z" {
		t.Errorf("sync state after run 1 = %q, want the run's start", last)
	}

	// Between runs the prober records health, and an operator (or the seed)
	// chose context7's model type, OAuth flag and features.
	health := domain.MCPHealth{Status: domain.HealthUp, CheckedAt: "2026-11-22T13:00:00Z", ToolsCount: 2, ToolsHash: "h1",
		Tools: []domain.MCPTool{{Name: "resolve-library-id", ReadOnly: true}, {Name: "get-library-docs", ReadOnly: true}}}
	storetest.Must(t, st.SaveMCPHealth(ctx, "io.github.github--github-mcp-server", health), "github health")
	storetest.Must(t, st.SaveMCPHealth(ctx, "io.github.upstash--context7", health), "context7 health")
	c7 := servers["io.github.upstash--context7"]
	c7.ModelType, c7.OAuthRequired, c7.SupportedFeatures = "reference", true, []string{"tools", "prompts"}
	storetest.Must(t, st.UpsertMCPServer(ctx, c7), "annotate context7")

	// Run 2: incremental; GitHub was deleted upstream, context7 changed.
	reg.setPages(func(q url.Values) (int, string) {
		if q.Get("updated_since") == "" {
			t.Errorf("run 2 sent no updated_since: %v", q)
		}
		return 200, page("",
			entry("io.github.github/github-mcp-server", "deleted", githubRemote),
			entry("io.github.upstash/context7", "active", strings.Replace(context7Remote, "Up-to-date", "Fresh", 1)))
	})
	stats, err = s.Run(ctx)
	if err != nil {
		t.Fatalf("run 2: %v", err)
	}
	if want := (registry.Stats{Since: "2026-11-22T12:00:00Z", Pages: 1, Upserted: 1, Deactivated: 1}); stats != want {
		t.Errorf("run 2 stats = %+v, want %+v", stats, want)
	}
	// The changes since include the deletions since (the official rule
	// for incremental sync, asked for where a registry's default differs).
	if reqs := reg.taken(); len(reqs) != 1 || reqs[0].Get("updated_since") != "2026-11-22T12:00:00Z" || reqs[0].Get("include_deleted") != "true" {
		t.Errorf("run 2 requests = %v, want one with updated_since=2026-11-22T12:00:00Z and include_deleted=true", reqs)
	}
	servers = byID(t, st)
	gh = servers["io.github.github--github-mcp-server"]
	if gh.IsActive || !reflect.DeepEqual(gh.Health, health) {
		t.Errorf("deleted github: active=%v health=%+v; want inactive with its health kept", gh.IsActive, gh.Health)
	}
	c7 = servers["io.github.upstash--context7"]
	if !strings.HasPrefix(c7.Description, "Fresh") || c7.ModelType != "reference" || !c7.OAuthRequired ||
		!reflect.DeepEqual(c7.SupportedFeatures, []string{"tools", "prompts"}) || !reflect.DeepEqual(c7.Health, health) {
		t.Errorf("context7 after run 2 = %+v; want new text, stored model type/OAuth/features and health kept", c7)
	}
	if last, _ := st.MCPSyncState(ctx); last != "2026-11-22T18:00:00Z" {
		t.Errorf("sync state after run 2 = %q", last)
	}

	// Run 3 fails on its second page: what it imported stays (GitHub is
	// listed again), but the run is not recorded, so the next one repeats it.
	reg.setPages(func(q url.Values) (int, string) {
		if q.Get("cursor") == "" {
			return 200, page("next", entry("io.github.github/github-mcp-server", "active", githubRemote))
		}
		return 500, `{"error": "boom"}`
	})
	if _, err := s.Run(ctx); err == nil || !strings.Contains(err.Error(), "500") {
		t.Fatalf("run 3 error = %v, want the 500", err)
	}
	if last, _ := st.MCPSyncState(ctx); last != "2026-11-22T18:00:00Z" {
		t.Errorf("a failed run moved the sync state to %q", last)
	}
	if gh, _ := st.GetMCPServer(ctx, "io.github.github--github-mcp-server"); !gh.IsActive {
		t.Errorf("an entry listed active again stays inactive: %+v", gh)
	}
}

func TestSyncBounds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		serve   func(q url.Values) (int, string)
		tweak   func(*registry.Syncer)
		wantErr string
	}{
		{"endless cursors", func(q url.Values) (int, string) {
			return 200, page("c"+q.Get("cursor")+"x", entry("com.a/one", "", sseRemote))
		}, func(s *registry.Syncer) { s.MaxPages = 3 }, "more than 3 pages"},
		{"repeated cursor", func(q url.Values) (int, string) {
			return 200, page("same", entry("com.a/one", "", sseRemote))
		}, nil, "repeated cursor"},
		{"oversized page", func(q url.Values) (int, string) {
			return 200, page("", entry("com.a/one", "", `"description": "`+strings.Repeat("x", 5000)+`", "remotes": [{"type": "sse", "url": "https://a.example/sse"}]`))
		}, func(s *registry.Syncer) { s.MaxPageBytes = 1000 }, "larger than 1000 bytes"},
		{"not the list shape", func(q url.Values) (int, string) { return 200, `<html>hello</html>` }, nil, "registry page"},
		{"not found", func(q url.Values) (int, string) { return 404, `{}` }, nil, "404"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			st := storetest.New(t)
			reg, srv := newFakeRegistry(t)
			reg.setPages(tt.serve)
			s := &registry.Syncer{BaseURL: srv.URL + "/prefix", HTTP: srv.Client(), Store: st, Log: nilLog()}
			if tt.tweak != nil {
				tt.tweak(s)
			}
			_, err := s.Run(ctx)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
			}
			if last, _ := st.MCPSyncState(ctx); last != "" {
				t.Errorf("a failed run recorded sync state %q", last)
			}
		})
	}

	st := storetest.New(t)
	for _, s := range []*registry.Syncer{
		{BaseURL: "https://registry.example.com", Store: st},                      // no client
		{BaseURL: "file:///etc/passwd", HTTP: http.DefaultClient, Store: st},      // not http(s)
		{BaseURL: "https://registry.example.com", HTTP: http.DefaultClient},       // no store
		{BaseURL: "://registry.example.com", HTTP: http.DefaultClient, Store: st}, // unparsable
	} {
		if _, err := s.Run(ctx); err == nil {
			t.Errorf("Run(%+v) succeeded, want a configuration error", s)
		}
	}
}

func nilLog() *slog.Logger { l, _ := bufLog(); return l }

// TestSyncKeepsTheOperatorsClientID: an entry's oauth_client_id (for a
// server that lets no new app register) reaches the listing; a later
// entry that names none keeps it, one that names another replaces it.
func TestSyncKeepsTheOperatorsClientID(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	reg, srv := newFakeRegistry(t)
	log, _ := bufLog()
	s := &registry.Syncer{BaseURL: srv.URL + "/prefix/", HTTP: srv.Client(), Store: st, Log: log, Now: time.Now}
	withClient := func(id string) string {
		meta := `"oauth": true`
		if id != "" {
			meta += `, "oauth_client_id": "` + id + `"`
		}
		return strings.Replace(notionEntry(), `"oauth": true`, meta, 1)
	}
	for i, step := range []struct{ entry, want string }{
		{withClient("ops-client-1"), "ops-client-1"},
		{withClient(""), "ops-client-1"},
		{withClient("  ops-client-2 "), "ops-client-2"},
	} {
		reg.setPages(func(url.Values) (int, string) { return 200, page("", step.entry) })
		if _, err := s.Run(ctx); err != nil {
			t.Fatalf("run %d: %v", i+1, err)
		}
		if got := byID(t, st)["com.notion--mcp"].OAuthClientID; got != step.want {
			t.Errorf("run %d: client id %q, want %q", i+1, got, step.want)
		}
	}
}

// A server an admin switched off that the registry then deletes stays out
// of the listing when the admin switches it on again: the sync takes it
// out on the registry's side (its own is_active), whatever the admin's
// switch.
func TestSyncDeletesAServerAnAdminSwitchedOff(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	reg, srv := newFakeRegistry(t)
	log, _ := bufLog()
	t1 := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	s := &registry.Syncer{BaseURL: srv.URL + "/prefix/", HTTP: srv.Client(), Store: st, Log: log, Now: clock(t1, t1.Add(time.Hour))}
	const id = "io.github.github--github-mcp-server"
	reg.setPages(func(url.Values) (int, string) {
		return 200, page("", entry("io.github.github/github-mcp-server", "active", githubRemote))
	})
	if _, err := s.Run(ctx); err != nil {
		t.Fatalf("run 1: %v", err)
	}
	admin := func(disabled bool, read int) {
		t.Helper()
		gh, err := st.GetMCPServer(ctx, id)
		storetest.Must(t, err, "read")
		gh.AdminDisabled = disabled
		storetest.Must(t, st.UpdateMCPServer(ctx, gh, read, store.AuditEntry{ActorID: "admin", Action: "mcp_server.update", TargetID: id}), "admin switch")
	}
	admin(true, 0)
	reg.setPages(func(url.Values) (int, string) {
		return 200, page("", entry("io.github.github/github-mcp-server", "deleted", githubRemote))
	})
	stats, err := s.Run(ctx)
	if err != nil || stats.Deactivated != 1 {
		t.Fatalf("run 2: %+v, %v; want the deleted server deactivated", stats, err)
	}
	admin(false, 1)
	gh, err := st.GetMCPServer(ctx, id)
	storetest.Must(t, err, "read")
	if gh.IsActive || gh.ListedActive {
		t.Errorf("a server the registry deleted is listed again after an admin's switch on: %+v", gh)
	}
}
