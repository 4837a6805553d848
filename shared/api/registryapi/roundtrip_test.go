package registryapi_test

import (
	"fmt"
	"maps"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"aiwork/shared/domain"
	"aiwork/shared/mcp/registry"
	"aiwork/shared/routes"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// Two deployments: the second's MCP_REGISTRY_URL is the first's registry
// API. The second's real sync (cursor paging, then updated_since) lists
// the first's active servers with the same remotes and what the catalogue
// says of them; a server an admin disables on the first turns inactive on
// the second at its next sync, one the first's sync deactivates too, and
// one enabled again comes back.
func TestSecondDeploymentSyncsFromTheFirst(t *testing.T) {
	t.Parallel()
	first := newStack(t)
	keyed, bearer, oauth, admin := catalogue(t, first)
	// More than a page of the sync's (100), so it follows a cursor.
	var more []domain.MCPServer
	for i := range 150 {
		srv := remoteServer(fmt.Sprintf("io.github.bulk/server-%03d", i))
		srv.ModelType, srv.SupportedFeatures = "data", []string{"tools", "resources"}
		more = append(more, srv)
	}
	first.put(more...)
	hidden := remoteServer("com.example/hidden")
	first.put(hidden)
	disable(t, first.st, hidden.ID, true)
	api := httptest.NewServer(first.h)
	t.Cleanup(api.Close)

	second := storetest.New(t)
	sync := registry.Syncer{BaseURL: api.URL + strings.TrimSuffix(routes.RegistryPrefix, "/"), HTTP: api.Client(), Store: second}
	stats, err := sync.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Pages != 2 || stats.Upserted != 155 || stats.Skipped != 0 {
		t.Errorf("first sync %+v, want 155 servers on 2 pages", stats)
	}
	sameActive(t, first.st, second)

	// The first deployment's admin disables one server, its sync deletes
	// another; the second's next sync asks for the changes since.
	disable(t, first.st, keyed.ID, true)
	storetest.Must(t, first.st.SetMCPServerActive(ctx, bearer.ID, false), "deactivate upstream")
	stats, err = sync.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// (What changed in the second the first run started is read again:
	// the official advice keeps such an overlap.)
	if stats.Since == "" || stats.Deactivated != 2 {
		t.Errorf("incremental sync %+v, want 2 deactivated since the last run", stats)
	}
	for _, id := range []string{keyed.ID, bearer.ID} {
		srv, err := second.GetMCPServer(ctx, id)
		storetest.Must(t, err, id)
		if srv.IsActive {
			t.Errorf("%s is still active on the second deployment", id)
		}
	}
	sameActive(t, first.st, second)

	// Enabled again on the first: back on the second.
	disable(t, first.st, keyed.ID, false)
	if _, err := sync.Run(ctx); err != nil {
		t.Fatal(err)
	}
	sameActive(t, first.st, second)
	for _, id := range []string{oauth.ID, "com.aiwork--" + admin.ID} {
		if srv, err := second.GetMCPServer(ctx, id); err != nil || !srv.IsActive || srv.Source != "registry" {
			t.Errorf("%s on the second deployment: %+v %v", id, srv, err)
		}
	}
}

// disable switches an admin's "enabled" on a server, as the admin area does.
func disable(t *testing.T, st *store.Store, id string, off bool) {
	t.Helper()
	cur, err := st.GetMCPServer(ctx, id)
	storetest.Must(t, err, "get "+id)
	cur.AdminDisabled = off
	storetest.Must(t, st.UpdateMCPServer(ctx, cur, cur.AdminVersion,
		store.AuditEntry{Action: "mcp_server.update", ActorID: "admin-1", TargetType: "mcp_server", TargetID: id}), "switch "+id)
}

// sameActive checks that the second store lists the first's active
// servers, each with the same remote (endpoint, transport, key header),
// title, model type, auth and features, and nothing else active.
func sameActive(t *testing.T, first, second *store.Store) {
	t.Helper()
	type view struct {
		Name, Title, Endpoint, Transport, ModelType, Header string
		Key, OAuth                                          bool
		Features                                            string
	}
	active := func(st *store.Store, named func(domain.MCPServer) string) map[string]view {
		list, err := st.ListMCPServers(ctx)
		storetest.Must(t, err, "list")
		out := map[string]view{}
		for _, s := range list {
			if !s.IsActive {
				continue
			}
			header := s.APIKeyHeader
			if (s.APIKeyRequired || header != "") && header == "" {
				header = "Authorization" // "" means Authorization: Bearer
			}
			out[named(s)] = view{Name: named(s), Title: s.Title, Endpoint: s.EndpointURL, Transport: s.Transport, ModelType: s.ModelType,
				Header: header, Key: s.APIKeyRequired, OAuth: s.OAuthRequired, Features: strings.Join(slices.Sorted(slices.Values(s.SupportedFeatures)), ",")}
		}
		return out
	}
	// The first names an admin's server in words; the registry API serves
	// it as com.aiwork/<id>, the name the second keeps.
	want := active(first, func(s domain.MCPServer) string {
		if registry.ValidName(s.Name) {
			return s.Name
		}
		return "com.aiwork/" + s.ID
	})
	got := active(second, func(s domain.MCPServer) string { return s.Name })
	if len(got) != len(want) {
		t.Errorf("second deployment lists %d active servers, the first %d", len(got), len(want))
	}
	for name, w := range want {
		if g, ok := got[name]; !ok || g != w {
			t.Errorf("%s on the second deployment: %+v, want %+v", name, g, w)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s is active on the second deployment only", name)
		}
	}
	// What the second synced is in its lists: the registry page's
	// (GET /api/v1/mcp-servers/) and its own registry API's.
	var listed, served []string
	for cursor := "first"; cursor != ""; {
		q := store.MCPListQuery{Limit: 60}
		if cursor != "first" {
			q.Cursor = cursor
		}
		page, err := second.ListMCPServerPage(ctx, q)
		storetest.Must(t, err, "registry page")
		for _, s := range page.Servers {
			listed = append(listed, s.Name)
		}
		cursor = page.NextCursor
	}
	for cursor := "first"; cursor != ""; {
		q := store.MCPAPIQuery{Limit: 100}
		if cursor != "first" {
			q.Cursor = cursor
		}
		page, err := second.ListMCPAPIPage(ctx, q)
		storetest.Must(t, err, "registry API page")
		for _, s := range page.Servers {
			served = append(served, s.Name)
		}
		cursor = page.NextCursor
	}
	names := slices.Sorted(maps.Keys(want))
	if slices.Sort(listed); !slices.Equal(listed, names) {
		t.Errorf("the second's registry page lists %d servers, want its %d active ones", len(listed), len(names))
	}
	if !slices.Equal(served, names) {
		t.Errorf("the second's registry API lists %d servers, want its %d active ones", len(served), len(names))
	}
}
