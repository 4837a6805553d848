package registryapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/registry/pkg/model"

	"aiwork/shared/api/registryapi"
	"aiwork/shared/domain"
	"aiwork/shared/mcp/registry"
	"aiwork/shared/seeddata"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// catalogue is a mix of what the catalogue holds: a registry entry with
// an SSE endpoint and a key in its own header, one keyed by Authorization,
// one behind OAuth with a long description, probed tools, and a server an
// admin added (named in words, no version).
func catalogue(t *testing.T, s *stack) (keyed, bearer, oauth, admin domain.MCPServer) {
	t.Helper()
	keyed = remoteServer("com.example/keyed")
	keyed.Transport, keyed.EndpointURL = domain.TransportSSE, "https://keyed.example.com/sse"
	keyed.APIKeyRequired, keyed.APIKeyHeader = true, "X-Api-Key"
	keyed.SupportedFeatures = []string{"tools", "prompts"}
	bearer = remoteServer("io.github.someone/bearer")
	bearer.APIKeyRequired, bearer.ModelType = true, "search"
	oauth = remoteServer("com.notion/mcp")
	oauth.OAuthRequired, oauth.ModelType = true, "productivity"
	oauth.Description = strings.Repeat("Notion pages, databases and comments. ", 12)
	s.put(keyed, bearer, oauth)
	storetest.Must(t, s.st.SaveMCPHealth(ctx, oauth.ID, domain.MCPHealth{
		Status: domain.HealthAuthRequired, CheckedAt: "2026-11-20T10:00:00Z", LatencyMS: 240, ToolsCount: 3,
		Tools: []domain.MCPTool{
			{Name: "search", ReadOnly: true},
			{Name: "delete-page", Destructive: true},
			{Name: "update-page", DestructiveHintAbsent: true},
		},
	}), "health")
	// A local server's id is not the one its name gives.
	local := remoteServer("local/everything")
	local.ID, local.EndpointURL = "local-reference", "http://127.0.0.1:3001/mcp"
	s.put(local)
	admin = domain.MCPServer{ID: "adm-0a1b2c", Name: "Team tools", Title: "Team tools", Description: "Our own tools.",
		EndpointURL: "https://tools.example.net/mcp", Transport: domain.TransportStreamableHTTP, ModelType: "tools",
		SupportedFeatures: []string{"tools"}, Source: "admin", UpdatedAt: "2026-03-04T05:06:07Z"}
	storetest.Must(t, s.st.CreateMCPServer(ctx, admin, store.AuditEntry{Action: "mcp_server.create", ActorID: "admin-1", TargetType: "mcp_server", TargetID: admin.ID}), "create")
	return keyed, bearer, oauth, admin
}

// Every answer is in the official shapes: it decodes with the official
// registry's Go types, every server.json is valid against its schema, and
// each entry carries the official "_meta" and ours.
func TestAnswersAreTheOfficialShapes(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	keyed, bearer, oauth, admin := catalogue(t, s)

	list, metas := decodeList(t, s.get("v0.1/servers"))
	byName := map[string]int{}
	for i, e := range list.Servers {
		byName[e.Server.Name] = i
		off := e.Meta.Official
		if off == nil || off.Status != model.StatusActive || !off.IsLatest || off.PublishedAt.IsZero() || off.UpdatedAt.Before(off.PublishedAt) || off.StatusChangedAt.IsZero() {
			t.Errorf("%s: official _meta %+v", e.Server.Name, off)
		}
		if e.Server.Schema != model.CurrentSchemaURL {
			t.Errorf("%s: $schema %q, want %q", e.Server.Name, e.Server.Schema, model.CurrentSchemaURL)
		}
		if n := len(e.Server.Remotes); n != 1 {
			t.Errorf("%s: %d remotes", e.Server.Name, n)
		}
	}
	adminName := registryapi.OwnNamespace + "/" + admin.ID
	want := []string{adminName, keyed.Name, oauth.Name, bearer.Name, "local/everything"} // by name
	if len(list.Servers) != len(want) {
		t.Fatalf("%d servers, want %v", len(list.Servers), want)
	}
	for i, name := range want {
		if list.Servers[i].Server.Name != name {
			t.Errorf("server %d is %s, want %s (name order)", i, list.Servers[i].Server.Name, name)
		}
	}

	k := list.Servers[byName[keyed.Name]].Server
	if r := k.Remotes[0]; r.Type != "sse" || r.URL != keyed.EndpointURL || len(r.Headers) != 1 ||
		r.Headers[0].Name != "X-Api-Key" || !r.Headers[0].IsRequired || !r.Headers[0].IsSecret {
		t.Errorf("keyed remote %+v", r)
	}
	if k.Title != keyed.Title || k.Version != "1.2.0" || k.WebsiteURL != keyed.WebsiteURL ||
		k.Repository == nil || k.Repository.URL != keyed.Repository || k.Repository.Source != "github" {
		t.Errorf("keyed server.json %+v", k)
	}
	if r := list.Servers[byName[bearer.Name]].Server.Remotes[0]; r.Type != "streamable-http" || len(r.Headers) != 1 ||
		r.Headers[0].Name != "Authorization" || r.Headers[0].Value != "Bearer {api_key}" || !r.Headers[0].Variables["api_key"].IsSecret {
		t.Errorf("bearer remote %+v", r)
	}
	a := list.Servers[byName[adminName]].Server
	if a.Title != "Team tools" || a.Version != registryapi.DefaultVersion || len(a.Remotes[0].Headers) != 0 {
		t.Errorf("admin server.json %+v", a)
	}

	// Ours: what the catalogue knows, with a link to the rest.
	o := list.Servers[byName[oauth.Name]].Server
	if n := len([]rune(o.Description)); n > 100 || !strings.HasSuffix(o.Description, "…") {
		t.Errorf("long description served as %q (%d characters)", o.Description, n)
	}
	m, size := catalogMeta(t, metas[byName[oauth.Name]])
	if size > registry.MaxCatalogMetaBytes {
		t.Errorf("our _meta is %d bytes", size)
	}
	tools := fmt.Sprint(m.Tools)
	if m.ModelType != "productivity" || m.OAuth == nil || !*m.OAuth || m.Auth != registry.AuthOAuth ||
		m.ID != oauth.ID || m.URL != site+"/api/v1/mcp-servers/"+oauth.ID || m.Description != strings.TrimSpace(oauth.Description) ||
		m.Health == nil || m.Health.Status != domain.HealthAuthRequired || m.Health.CheckedAt != "2026-11-20T10:00:00Z" || m.Health.LatencyMS != 240 ||
		m.ToolsCount == nil || *m.ToolsCount != 3 || tools != "[{search true false} {delete-page false true} {update-page false true}]" {
		t.Errorf("oauth server's own _meta %+v (tools %s)", m, tools)
	}
	for name, auth := range map[string]string{keyed.Name: registry.AuthAPIKey, adminName: registry.AuthNone} {
		m, _ := catalogMeta(t, metas[byName[name]])
		if m.Auth != auth || m.Health == nil || m.Health.Status != domain.HealthUnknown || m.ToolsCount != nil || m.Description != "" {
			t.Errorf("%s: own _meta %+v, want auth %s, health unknown, no tools", name, m, auth)
		}
	}
	if m, _ := catalogMeta(t, metas[byName[keyed.Name]]); strings.Join(m.Features, ",") != "tools,prompts" || m.ModelType != "code" {
		t.Errorf("keyed own _meta %+v", m)
	}

	// One server: its versions, latest, its version; the name URL-encoded
	// (one segment) or with its "/" as a proxy may have decoded it.
	for _, name := range []string{oauth.Name, keyed.Name, adminName, bearer.Name, "local/everything"} {
		for _, path := range []string{url.PathEscape(name), name} {
			base := "v0.1/servers/" + path + "/versions"
			versions, vmetas := decodeList(t, s.get(base))
			if len(versions.Servers) != 1 || versions.Servers[0].Server.Name != name || versions.Metadata.NextCursor != "" {
				t.Errorf("GET %s: %+v", base, versions)
				continue
			}
			catalogMeta(t, vmetas[0])
			version := versions.Servers[0].Server.Version
			for _, v := range []string{"latest", url.PathEscape(version)} {
				one, meta := decodeServer(t, s.get(base+"/"+v))
				if one.Server.Name != name || one.Server.Version != version || one.Meta.Official == nil || one.Meta.Official.Status != model.StatusActive {
					t.Errorf("GET %s/%s: %+v", base, v, one)
				}
				catalogMeta(t, meta)
			}
		}
	}
}

// A server with many tools keeps its _meta within the official 4 KB: the
// first tools, marked truncated, the rest behind the link.
func TestOwnMetaStaysWithin4KB(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	srv := remoteServer("com.example/many-tools")
	srv.Description = strings.Repeat("Ünïcödé description ", 50) // 1,000 characters, more bytes
	s.put(srv)
	h := domain.MCPHealth{Status: domain.HealthUp, CheckedAt: "2026-11-20T10:00:00Z", LatencyMS: 12, ToolsCount: 300}
	for i := range 300 {
		h.Tools = append(h.Tools, domain.MCPTool{Name: fmt.Sprintf("tool_with_a_rather_long_name_%03d", i), ReadOnly: i%2 == 0})
	}
	storetest.Must(t, s.st.SaveMCPHealth(ctx, srv.ID, h), "health")
	for _, path := range []string{"v0.1/servers", "v0.1/servers/" + url.PathEscape(srv.Name) + "/versions/latest"} {
		var meta map[string]json.RawMessage
		if strings.HasSuffix(path, "latest") {
			_, meta = decodeServer(t, s.get(path))
		} else {
			_, metas := decodeList(t, s.get(path))
			meta = metas[0]
		}
		m, size := catalogMeta(t, meta)
		if size > registry.MaxCatalogMetaBytes {
			t.Errorf("%s: our _meta is %d bytes, over %d", path, size, registry.MaxCatalogMetaBytes)
		}
		if !m.ToolsTruncated || len(m.Tools) == 0 || len(m.Tools) >= 300 || m.Tools[0].Name != "tool_with_a_rather_long_name_000" ||
			m.ToolsCount == nil || *m.ToolsCount != 300 || m.URL == "" || m.Health == nil {
			t.Errorf("%s: %d tools (truncated %v), count %v, url %q", path, len(m.Tools), m.ToolsTruncated, m.ToolsCount, m.URL)
		}
	}
}

// Answers are cacheable (Cache-Control, ETag, 304 for the same answer)
// and readable from any origin, errors included; a preflight is answered.
func TestCachingAndCORS(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	catalogue(t, s)
	path := "v0.1/servers?limit=2"
	w := s.get(path)
	decodeList(t, w)
	etag := w.Header().Get("ETag")
	if !strings.HasPrefix(etag, `"`) || len(etag) < 10 {
		t.Fatalf("ETag %q", etag)
	}
	if cc := w.Header().Get("Cache-Control"); cc != "public, max-age=60" {
		t.Errorf("Cache-Control %q", cc)
	}
	wantCORS(t, w)
	for _, inm := range []string{etag, `W/` + etag, `"other", ` + etag, "*"} {
		w := s.get(path, "If-None-Match", inm)
		if w.Code != http.StatusNotModified || w.Body.Len() != 0 || w.Header().Get("ETag") != etag || w.Header().Get("Cache-Control") == "" {
			t.Errorf("If-None-Match %s: %d %q, headers %v; want 304 with ETag and Cache-Control", inm, w.Code, w.Body.String(), w.Header())
		}
		wantCORS(t, w)
	}
	if w := s.get(path, "If-None-Match", `"stale"`); w.Code != http.StatusOK {
		t.Errorf("a stale ETag: %d, want 200", w.Code)
	}
	// Another answer, another tag; the same answer after a change, too.
	if other := s.get("v0.1/servers?limit=3").Header().Get("ETag"); other == etag {
		t.Error("two different answers share an ETag")
	}
	s.put(remoteServer("aaa.first/server"))
	if w := s.get(path, "If-None-Match", etag); w.Code != http.StatusOK || w.Header().Get("ETag") == etag {
		t.Errorf("after a change: %d with ETag %s, want 200 with a new one", w.Code, w.Header().Get("ETag"))
	}
	detail := s.get("v0.1/servers/com.example%2Fkeyed/versions/latest")
	if detail.Header().Get("ETag") == "" || detail.Header().Get("Cache-Control") != "public, max-age=60" {
		t.Errorf("one server's answer headers %v", detail.Header())
	}
	wantCORS(t, detail)

	// Errors: 400, 404, an unknown endpoint, a method the API has not.
	wantProblem(t, s.get("v0.1/servers?limit=0"), http.StatusBadRequest, "limit")
	wantProblem(t, s.get("v0.1/servers/com.example%2Fnone/versions/latest"), http.StatusNotFound, "Server not found")
	wantProblem(t, s.get("v0.1/nothing"), http.StatusNotFound, "Endpoint not found")
	w = s.do("POST", "v0.1/servers")
	wantProblem(t, w, http.StatusMethodNotAllowed, "read-only")
	if allow := w.Header().Get("Allow"); allow != "GET, HEAD, OPTIONS" {
		t.Errorf("405 Allow %q", allow)
	}
	for _, w := range []*httptest.ResponseRecorder{s.get("v0.1/servers?limit=0"), s.get("v0.1/nothing")} {
		if cc := w.Header().Get("Cache-Control"); cc != "no-store" {
			t.Errorf("error Cache-Control %q, want no-store", cc)
		}
	}

	// The preflight.
	for asked, want := range map[string]string{
		"":                               "Accept, Content-Type, If-None-Match, Authorization",
		"x-custom-header, If-None-Match": "x-custom-header, If-None-Match",
		"bad header\r\n":                 "Accept, Content-Type, If-None-Match, Authorization",
	} {
		headers := []string{"Origin", "https://github.com", "Access-Control-Request-Method", "GET"}
		if asked != "" {
			headers = append(headers, "Access-Control-Request-Headers", asked)
		}
		w := s.do("OPTIONS", "v0.1/servers", headers...)
		h := w.Header()
		if w.Code != http.StatusNoContent || h.Get("Access-Control-Allow-Origin") != "*" ||
			h.Get("Access-Control-Allow-Methods") != "GET, HEAD, OPTIONS" || h.Get("Access-Control-Allow-Headers") != want {
			t.Errorf("preflight asking %q: %d %v; want 204 allowing GET, HEAD, OPTIONS and %q", asked, w.Code, h, want)
		}
	}
	if w := s.do("HEAD", "v0.1/servers"); w.Code != http.StatusOK || w.Header().Get("ETag") == "" {
		t.Errorf("HEAD: %d %v", w.Code, w.Header())
	}
}

// Each bad input of the contract: 404 for an unknown server, 400 with a
// detail for the rest, all in the official error shape.
func TestBadInput(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	catalogue(t, s)
	for _, tc := range []struct {
		path   string
		status int
		detail string
	}{
		{"v0.1/servers/com.example%2Fnone/versions", 404, "Server not found"},
		{"v0.1/servers/com.example%2Fnone/versions/latest", 404, "Server not found"},
		{"v0.1/servers/com.example%2Fkeyed/versions/9.9.9", 404, "Server not found"},
		{"v0.1/servers/com.aiwork%2Fadm-nothing/versions/latest", 404, "Server not found"},
		{"v0.1/servers?cursor=not-a-cursor!", 400, "cursor"},
		{"v0.1/servers?cursor=" + "eyJ4IjoxfQ", 400, "cursor"}, // base64 of {"x":1}
		{"v0.1/servers?limit=0", 400, "limit"},
		{"v0.1/servers?limit=101", 400, "limit"},
		{"v0.1/servers?limit=ten", 400, "limit"},
		{"v0.1/servers?updated_since=yesterday", 400, "updated_since"},
		{"v0.1/servers?updated_since=2026-13-01T00:00:00Z", 400, "updated_since"},
		{"v0.1/servers?search=" + strings.Repeat("a", 1000), 400, "search"},
		{"v0.1/servers?include_deleted=maybe", 400, "include_deleted"},
		{"v0.1/servers?updated_since=2026-01-01T00:00:00Z&include_deleted=false", 400, "include_deleted"},
		{"v0.1/servers/com.example%2F..%2Fversions/versions", 400, ".."},
		{"v0.1/servers/com.example%2F../versions", 400, ".."},
		{"v0.1/servers/..%2Fkeyed/versions/latest", 400, ".."},
		{"v0.1/servers/com.example%2Fkey%00ed/versions/latest", 400, "control"},
		{"v0.1/servers/com.example%2Fkey%0Aed/versions", 400, "control"},
		{"v0.1/servers/com.example%2Fkeyed/versions/1.2%7F", 400, "control"},
		{"v0.1/servers/com.example%2Fa%2Fb/versions/latest", 400, `"/"`},
		{"v0.1/servers/com.example/a/b/versions/latest", 400, `"/"`},
		{"v0.1/servers/no-slash/versions", 400, `"/"`},
		{"v0/servers", 404, "Endpoint not found"},
		{"v0.1/servers/com.example%2Fkeyed", 404, "Endpoint not found"},
	} {
		w := s.get(tc.path)
		if w.Code != tc.status {
			t.Errorf("GET %s: %d %s, want %d", tc.path, w.Code, w.Body.String(), tc.status)
			continue
		}
		wantProblem(t, w, tc.status, tc.detail)
	}
}

// Disabled (by an admin) and inactive (deleted or deprecated upstream)
// servers are absent, or deleted with include_deleted=true, which changes
// since a time include.
func TestDisabledAndInactiveServers(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	keyed, bearer, oauth, _ := catalogue(t, s)
	before := time.Now().UTC()
	cur, err := s.st.GetMCPServer(ctx, keyed.ID)
	storetest.Must(t, err, "get")
	cur.AdminDisabled = true
	storetest.Must(t, s.st.UpdateMCPServer(ctx, cur, cur.AdminVersion, store.AuditEntry{Action: "mcp_server.update", ActorID: "admin-1", TargetType: "mcp_server", TargetID: cur.ID}), "disable")
	storetest.Must(t, s.st.SetMCPServerActive(ctx, bearer.ID, false), "deactivate")

	names := func(path string) map[string]string {
		list, _ := decodeList(t, s.get(path))
		out := map[string]string{}
		for _, e := range list.Servers {
			out[e.Server.Name] = string(e.Meta.Official.Status)
		}
		return out
	}
	if got := names("v0.1/servers"); got[keyed.Name] != "" || got[bearer.Name] != "" || got[oauth.Name] != "active" {
		t.Errorf("listing %v: the disabled and the inactive server must be absent", got)
	}
	all := names("v0.1/servers?include_deleted=true")
	if all[keyed.Name] != "deleted" || all[bearer.Name] != "deleted" || all[oauth.Name] != "active" || len(all) != 5 {
		t.Errorf("listing with include_deleted %v", all)
	}
	since := names("v0.1/servers?updated_since=" + url.QueryEscape(before.Format(time.RFC3339Nano)))
	if len(since) != 2 || since[keyed.Name] != "deleted" || since[bearer.Name] != "deleted" {
		t.Errorf("changes since %s: %v, want the two deletions (deleted included)", before, since)
	}
	for _, name := range []string{keyed.Name, bearer.Name} {
		for _, path := range []string{"/versions", "/versions/latest"} {
			p := "v0.1/servers/" + url.PathEscape(name) + path
			wantProblem(t, s.get(p), http.StatusNotFound, "Server not found")
			w := s.get(p + "?include_deleted=true")
			var status model.Status
			if path == "/versions" {
				list, _ := decodeList(t, w)
				status = list.Servers[0].Meta.Official.Status
			} else {
				one, _ := decodeServer(t, w)
				status = one.Meta.Official.Status
			}
			if status != model.StatusDeleted {
				t.Errorf("%s with include_deleted: status %s", p, status)
			}
		}
	}
}

// search is a case-insensitive substring of the name; updated_since
// keeps what changed since; version=latest keeps every entry (one version
// each), an exact version those of that version.
func TestFilters(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	keyed, bearer, oauth, admin := catalogue(t, s)
	names := func(query string) string {
		list, _ := decodeList(t, s.get("v0.1/servers?"+query))
		var out []string
		for _, e := range list.Servers {
			out = append(out, e.Server.Name)
		}
		return strings.Join(out, " ")
	}
	for query, want := range map[string]string{
		"search=KEY":                         keyed.Name,
		"search=com.":                        "com.aiwork/" + admin.ID + " " + keyed.Name + " " + oauth.Name,
		"search=adm-0A1B":                    "com.aiwork/" + admin.ID,
		"search=nothing":                     "",
		"version=latest&limit=2":             "com.aiwork/" + admin.ID + " " + keyed.Name,
		"version=1.2.0":                      keyed.Name + " " + oauth.Name + " " + bearer.Name + " local/everything",
		"version=1.0.0":                      "com.aiwork/" + admin.ID,
		"updated_since=2099-01-01T00:00:00Z": "",
		"updated_since=2000-01-01T00:00:00Z&search=bearer": bearer.Name,
	} {
		if got := names(query); got != want {
			t.Errorf("?%s: %q, want %q", query, got, want)
		}
	}
}

// What make run lists, the seed snapshot and the local servers, is served
// valid: every server.json against the official schema, each _meta within
// 4 KB, each server found by its name.
func TestTheSeededCatalogueIsServedValid(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	storetest.Must(t, seeddata.SeedMCPServers(ctx, s.st), "seed")
	for _, local := range []func(context.Context, *store.Store, string) error{
		seeddata.SetLocalReference, seeddata.SetLocalOAuthExample, seeddata.SetLocalSignInOnCall, seeddata.SetLocalMCPApp,
	} {
		storetest.Must(t, local(ctx, s.st, "http://127.0.0.1:3001/mcp"), "local server")
	}
	seeded, err := seeddata.MCPServers()
	storetest.Must(t, err, "seed data")
	list, metas := decodeList(t, s.get("v0.1/servers?limit=100"))
	if len(list.Servers) != len(seeded)+4 || list.Metadata.NextCursor != "" {
		t.Fatalf("%d servers served, want the %d seeded and 4 local ones", len(list.Servers), len(seeded))
	}
	for i, e := range list.Servers {
		if _, size := catalogMeta(t, metas[i]); size > registry.MaxCatalogMetaBytes {
			t.Errorf("%s: our _meta is %d bytes", e.Server.Name, size)
		}
		one, _ := decodeServer(t, s.get("v0.1/servers/"+url.PathEscape(e.Server.Name)+"/versions/latest"))
		if one.Server.Name != e.Server.Name {
			t.Errorf("%s found as %s", e.Server.Name, one.Server.Name)
		}
	}
}
