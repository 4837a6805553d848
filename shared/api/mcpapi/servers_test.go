package mcpapi_test

import (
	"context"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"aiwork/shared/api/apitest"
	"aiwork/shared/domain"
	"aiwork/shared/local/localmcp"
	"aiwork/shared/mcp"
	"aiwork/shared/seeddata"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// seeded is a stack whose catalogue holds the committed seed and the local
// reference server entry (at a made-up endpoint: listing needs no server).
func seeded(t *testing.T) (*stack, []domain.MCPServer) {
	t.Helper()
	s := newStack(t, local())
	ctx := context.Background()
	storetest.Must(t, seeddata.SeedMCPServers(ctx, s.st), "seed")
	storetest.Must(t, seeddata.SetLocalReference(ctx, s.st, "http://127.0.0.1:3001/mcp"), "local reference")
	seed, err := seeddata.MCPServers()
	storetest.Must(t, err, "seed entries")
	return s, seed
}

// TestServersListingContract: the public listing answers every seeded entry
// with every field of the contract, lists as arrays (never null), working
// servers first and then by name.
func TestServersListingContract(t *testing.T) {
	t.Parallel()
	s, seed := seeded(t)
	ctx := context.Background()
	// An entry that says nothing of its features or transport.
	s.addServer(domain.MCPServer{ID: "bare", Title: "Bare", EndpointURL: "https://bare.example.com/mcp"})
	health := domain.MCPHealth{
		Status: domain.HealthUp, CheckedAt: "2026-11-22T12:00:00Z", LatencyMS: 12, ProtocolVersion: "2025-06-18",
		ToolsCount: 2, ToolsHash: "h", Tools: []domain.MCPTool{{Name: "echo"}, {Name: "get-sum"}},
		ServerInfo: &domain.MCPImplementation{Name: "mcp-servers/everything", Version: "1"},
	}
	storetest.Must(t, s.st.SaveMCPHealth(ctx, seeddata.LocalReferenceID, health), "health")
	storetest.Must(t, s.st.SaveMCPHealth(ctx, "com.neon--mcp", domain.MCPHealth{
		Status: domain.HealthDown, CheckedAt: "2026-11-22T12:00:00Z", Error: "The server's host name could not be found.",
	}), "down health")

	w := s.get(serversPath+"?limit=60", "") // public: no token
	page := apitest.Decode[serverPage](t, w, http.StatusOK)
	list := page.Items
	if page.Count != len(list) || !page.CountExact || page.NextCursor != nil {
		t.Errorf("count %d (exact %v), next %v; want %d, exact, none", page.Count, page.CountExact, page.NextCursor, len(list))
	}
	if want := len(seed) + 2; len(list) != want {
		t.Fatalf("listed %d servers, want %d (the seed, the local reference, bare)", len(list), want)
	}
	byID := map[string]map[string]any{}
	for i, e := range list {
		id, _ := e["id"].(string)
		wantKeys(t, "server "+id, e, serverKeys...)
		h, ok := e["health"].(map[string]any)
		if !ok {
			t.Fatalf("server %s health = %#v, want an object", id, e["health"])
		}
		wantKeys(t, "health of "+id, h, healthKeys...)
		wantList(t, "supported_features of "+id, e["supported_features"])
		if tr := e["transport"]; tr != domain.TransportStreamableHTTP && tr != domain.TransportSSE {
			t.Errorf("server %s transport = %v", id, tr)
		}
		if st := h["status"]; !slices.Contains([]any{"up", "auth_required", "down", "unknown"}, st) {
			t.Errorf("server %s health status = %v", id, st)
		}
		if e["is_active"] != true {
			t.Errorf("server %s is listed but is_active = %v", id, e["is_active"])
		}
		if _, dup := byID[id]; dup || id == "" {
			t.Errorf("entry %d has id %q (duplicate or empty)", i, id)
		}
		byID[id] = e
	}
	for _, srv := range seed {
		if byID[srv.ID] == nil {
			t.Errorf("seeded server %s is not listed", srv.ID)
		}
	}

	// By name, whatever their health (the card shows it).
	var names []string
	for _, e := range list {
		names = append(names, strings.ToLower(e["name"].(string)))
	}
	if !slices.IsSorted(names) {
		t.Errorf("servers are not sorted by name: %q", names)
	}

	ref := byID[seeddata.LocalReferenceID]
	wantFields(t, ref, map[string]any{
		"name": "Everything (local reference server)", "registry_name": "local/everything", "model_type": "reference",
		"endpoint_url": "http://127.0.0.1:3001/mcp", "api_key_required": false, "oauth_required": false,
		"transport": "streamable-http",
	})
	// The card's health: what changes rarely; the probe's time, latency
	// and detail are on GET /{id}.
	wantFields(t, ref["health"].(map[string]any), map[string]any{"status": "up", "tools_count": 2.0, "detail": ""})
	if _, ok := ref["tools"]; ok {
		t.Error("the listing carries tools; only GET /{id} does")
	}
	wantFields(t, byID["com.neon--mcp"]["health"].(map[string]any), map[string]any{"status": "down"})
	wantFields(t, byID["com.stripe--mcp"], map[string]any{"api_key_required": true, "oauth_required": false, "model_type": "payments"})
	wantFields(t, byID["com.notion--mcp"], map[string]any{"api_key_required": false, "oauth_required": true, "model_type": "productivity"})
	wantFields(t, byID["com.squareup--mcp"], map[string]any{"transport": "sse"})
	bare := byID["bare"]
	if f := wantList(t, "bare supported_features", bare["supported_features"]); len(f) != 0 {
		t.Errorf("bare supported_features = %v, want []", f)
	}
	wantFields(t, bare, map[string]any{"transport": "streamable-http", "tools_changed_at": ""})
	wantFields(t, bare["health"].(map[string]any), map[string]any{"status": "unknown", "checked_at": "", "tools_count": 0.0})
}

func wantFields(t *testing.T, m map[string]any, want map[string]any) {
	t.Helper()
	for k, v := range want {
		if m[k] != v {
			t.Errorf("%v: %s = %#v, want %#v", m["id"], k, m[k], v)
		}
	}
}

// TestServersFilters: model_type is an exact filter, search a
// case-insensitive match over name and description; both together narrow.
func TestServersFilters(t *testing.T) {
	t.Parallel()
	s, _ := seeded(t)
	tests := []struct {
		name  string
		query url.Values
		want  []string // ids, in the answer's order
	}{
		{"payments", url.Values{"model_type": {"payments"}}, []string{"com.paypal.mcp--mcp", "com.squareup--mcp", "com.stripe--mcp"}},
		{"reference", url.Values{"model_type": {"reference"}}, []string{seeddata.LocalReferenceID}},
		{"model type is exact, not a prefix", url.Values{"model_type": {"pay"}}, nil},
		{"unknown model type", url.Values{"model_type": {"astrology"}}, nil},
		{"search in the name, any case", url.Values{"search": {"NOTION"}}, []string{"com.notion--mcp"}},
		{"search in the description only", url.Values{"search": {"postgres"}}, []string{"com.neon--mcp", "com.supabase--mcp"}},
		{"search of a phrase in the description", url.Values{"search": {"Serverless POSTGRES"}}, []string{"com.neon--mcp"}},
		{"search trimmed", url.Values{"search": {"  stripe  "}}, []string{"com.stripe--mcp"}},
		{"search and model type", url.Values{"search": {"EDGE functions"}, "model_type": {"data"}}, []string{"com.supabase--mcp"}},
		{"search outside the model type", url.Values{"search": {"postgres"}, "model_type": {"payments"}}, nil},
		{"search matching nothing", url.Values{"search": {"no such server anywhere"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := s.get(serversPath+"?"+tt.query.Encode(), "")
			if w.Code == http.StatusOK && len(tt.want) == 0 && !strings.Contains(w.Body.String(), `"items":[]`) {
				t.Errorf("empty answer = %s, want items []", w.Body)
			}
			page := apitest.Decode[serverPage](t, w, http.StatusOK)
			list := page.Items
			if page.CountExact && page.Count != len(tt.want) {
				t.Errorf("count %d, want %d", page.Count, len(tt.want))
			}
			var got []string
			for _, e := range list {
				got = append(got, e["id"].(string))
				if mt := tt.query.Get("model_type"); mt != "" && e["model_type"] != mt {
					t.Errorf("%v has model_type %v", e["id"], e["model_type"])
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("ids = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestServersInactive: an entry that turned inactive leaves the listing and
// is not found by GET /{id} either; reactivated, it is back in both.
func TestServersInactive(t *testing.T) {
	t.Parallel()
	s, seed := seeded(t)
	ctx := context.Background()
	const id = "com.asana--mcp"
	listed := func(query string) []string {
		t.Helper()
		var ids []string
		for _, e := range apitest.Decode[serverPage](t, s.get(serversPath+query, ""), http.StatusOK).Items {
			ids = append(ids, e["id"].(string))
		}
		return ids
	}
	storetest.Must(t, s.st.SetMCPServerActive(ctx, id, false), "deactivate")
	if ids := listed("?limit=60"); slices.Contains(ids, id) || len(ids) != len(seed) {
		t.Errorf("listing after deactivation has %d servers (want %d), %s in it: %v", len(ids), len(seed), id, slices.Contains(ids, id))
	}
	if ids := listed("?search=asana"); len(ids) != 0 {
		t.Errorf("search finds the inactive server: %q", ids)
	}
	apitest.WantError(t, s.get(serversPath+id, ""), http.StatusNotFound, "MCP server not found.")

	storetest.Must(t, s.st.SetMCPServerActive(ctx, id, true), "reactivate")
	if ids := listed("?search=asana"); !slices.Equal(ids, []string{id}) {
		t.Errorf("after reactivation search = %q, want %s", ids, id)
	}
	detail := apitest.Decode[map[string]any](t, s.get(serversPath+id, ""), http.StatusOK)
	wantFields(t, detail, map[string]any{"id": id, "is_active": true, "name": "Asana"})
}

// TestServerDisabledByAdmin: an entry an admin entered disabled, with its
// endpoint and a failed probe, is not shown to anyone by GET /{id} (the
// admin routes show it to admins); enabled, it is.
func TestServerDisabledByAdmin(t *testing.T) {
	t.Parallel()
	s := newStack(t, local())
	ctx := context.Background()
	_, token := s.user("visitor")
	srv := domain.MCPServer{ID: "adm-hidden", Name: "Internal tools", Title: "Internal tools", EndpointURL: "https://internal.example.com/mcp",
		Transport: domain.TransportStreamableHTTP, ModelType: "reference", AdminDisabled: true, Source: "admin"}
	storetest.Must(t, s.st.CreateMCPServer(ctx, srv, store.AuditEntry{ID: "a1", At: time.Now(), ActorID: "admin", Action: "mcp_server.create",
		TargetType: "mcp_server", TargetID: srv.ID}), "create")
	storetest.Must(t, s.st.SaveMCPHealth(ctx, srv.ID, domain.MCPHealth{Status: domain.HealthDown, CheckedAt: "2026-11-22T12:00:00Z", Error: "dial tcp 10.0.0.7:443: refused"}), "health")
	for _, who := range []string{"", token} {
		w := s.get(serversPath+srv.ID, who)
		apitest.WantError(t, w, http.StatusNotFound, "MCP server not found.")
		if strings.Contains(w.Body.String(), "internal.example.com") || strings.Contains(w.Body.String(), "10.0.0.7") {
			t.Errorf("the 404 tells of the entry: %s", w.Body)
		}
	}
	cur, err := s.st.GetMCPServer(ctx, srv.ID)
	storetest.Must(t, err, "read")
	cur.AdminDisabled = false
	storetest.Must(t, s.st.UpdateMCPServer(ctx, cur, cur.AdminVersion, store.AuditEntry{ID: "a2", At: time.Now(), ActorID: "admin", Action: "mcp_server.update",
		TargetType: "mcp_server", TargetID: srv.ID}), "enable")
	detail := apitest.Decode[map[string]any](t, s.get(serversPath+srv.ID, ""), http.StatusOK)
	wantFields(t, detail, map[string]any{"id": srv.ID, "is_active": true})
}

// TestServerDetail: GET /{id} adds server_info and tools from the last
// probe, whether saved by hand or measured on the real reference server.
func TestServerDetail(t *testing.T) {
	t.Parallel()
	s := newStack(t, local())
	ctx := context.Background()
	s.addServer(domain.MCPServer{ID: "recorded", Title: "Recorded", EndpointURL: "https://recorded.example.com/mcp"})
	s.addServer(domain.MCPServer{ID: "never-probed", Title: "Never probed", EndpointURL: "https://new.example.com/mcp"})
	storetest.Must(t, s.st.SaveMCPHealth(ctx, "recorded", domain.MCPHealth{
		Status: domain.HealthUp, CheckedAt: "2026-11-22T12:00:00Z", LatencyMS: 40, ProtocolVersion: "2025-06-18",
		ToolsCount: 2, ToolsHash: "h1", ToolsChangedAt: "2026-11-21T12:00:00Z",
		ServerInfo: &domain.MCPImplementation{Name: "recorded-server", Title: "Recorded Server", Version: "2.1.0"},
		Tools: []domain.MCPTool{
			{Name: "read", Title: "Read a page", Description: "Reads.", ReadOnly: true},
			{Name: "drop", Description: "Drops a table.", Destructive: true},
		},
	}), "health")

	// The real thing: the prober's handshake with the reference server.
	endpoint := referenceServer(t, localmcp.ModeStreamable)
	storetest.Must(t, seeddata.SetLocalReference(ctx, s.st, endpoint), "local reference")
	ref, err := s.st.GetMCPServer(ctx, seeddata.LocalReferenceID)
	storetest.Must(t, err, "get reference")
	prober := &mcp.Prober{Store: s.st, Client: mcp.Policy{AllowLoopback: true}.Client()}
	storetest.Must(t, s.st.SaveMCPHealth(ctx, ref.ID, prober.Probe(ctx, ref)), "probe")

	type detail struct {
		ID         string                    `json:"id"`
		ServerInfo *domain.MCPImplementation `json:"server_info"`
		Tools      []domain.MCPTool          `json:"tools"`
		Health     struct {
			Status          string `json:"status"`
			ToolsCount      int    `json:"tools_count"`
			ProtocolVersion string `json:"protocol_version"`
			CheckedAt       string `json:"checked_at"`
		} `json:"health"`
		ToolsChangedAt string `json:"tools_changed_at"`
	}

	t.Run("never probed", func(t *testing.T) {
		w := s.get(serversPath+"never-probed", "")
		raw := apitest.Decode[map[string]any](t, w, http.StatusOK)
		wantKeys(t, "detail", raw, append(slices.Clone(serverKeys), "server_info", "tools")...)
		if raw["server_info"] != nil {
			t.Errorf("server_info = %v, want null before any probe", raw["server_info"])
		}
		if tools := wantList(t, "tools", raw["tools"]); len(tools) != 0 {
			t.Errorf("tools = %v, want []", tools)
		}
	})
	t.Run("saved health", func(t *testing.T) {
		d := apitest.Decode[detail](t, s.get(serversPath+"recorded", ""), http.StatusOK)
		if d.ServerInfo == nil || *d.ServerInfo != (domain.MCPImplementation{Name: "recorded-server", Title: "Recorded Server", Version: "2.1.0"}) {
			t.Errorf("server_info = %+v", d.ServerInfo)
		}
		want := []domain.MCPTool{
			{Name: "read", Title: "Read a page", Description: "Reads.", ReadOnly: true},
			{Name: "drop", Description: "Drops a table.", Destructive: true},
		}
		if !reflect.DeepEqual(d.Tools, want) {
			t.Errorf("tools = %+v, want %+v", d.Tools, want)
		}
		if d.ToolsChangedAt != "2026-11-21T12:00:00Z" || d.Health.ToolsCount != 2 || d.Health.Status != "up" {
			t.Errorf("detail = %+v", d)
		}
	})
	t.Run("probed reference server", func(t *testing.T) {
		d := apitest.Decode[detail](t, s.get(serversPath+seeddata.LocalReferenceID, ""), http.StatusOK)
		if d.Health.Status != domain.HealthUp || d.Health.ProtocolVersion == "" {
			t.Errorf("health = %+v, want up with a protocol version", d.Health)
		}
		if d.ServerInfo == nil || d.ServerInfo.Name != "mcp-servers/everything" {
			t.Errorf("server_info = %+v", d.ServerInfo)
		}
		if len(d.Tools) < 10 || len(d.Tools) != d.Health.ToolsCount || !hasTool(d.Tools, "echo") {
			t.Errorf("%d tools (tools_count %d), want ≥ 10 with echo", len(d.Tools), d.Health.ToolsCount)
		}
		if _, err := time.Parse(time.RFC3339, d.Health.CheckedAt); err != nil {
			t.Errorf("checked_at = %q: %v", d.Health.CheckedAt, err)
		}
	})
	t.Run("unknown id", func(t *testing.T) {
		for _, id := range []string{"no-such-server", strings.Repeat("x", 201), "%20"} {
			e := apitest.WantError(t, s.get(serversPath+id, ""), http.StatusNotFound, "MCP server not found.")
			if e.Code != "not_found" {
				t.Errorf("%q: code = %q", id, e.Code)
			}
		}
	})
}

// TestServersQueryTooLong: search and filter values are bounded.
func TestServersQueryTooLong(t *testing.T) {
	t.Parallel()
	s, _ := seeded(t)
	tests := []struct {
		name   string
		query  url.Values
		status int
	}{
		{"search of 200 characters (one word too long to look for: lists all)", url.Values{"search": {strings.Repeat("a", 200)}}, http.StatusOK},
		{"search of 11 words", url.Values{"search": {"one two three four five six seven eight nine ten eleven"}}, http.StatusBadRequest},
		{"limit 0", url.Values{"limit": {"0"}}, http.StatusBadRequest},
		{"limit 61", url.Values{"limit": {"61"}}, http.StatusBadRequest},
		{"a cursor it did not give", url.Values{"cursor": {"bm90LWpzb24"}}, http.StatusBadRequest},
		{"search of 201 characters", url.Values{"search": {strings.Repeat("a", 201)}}, http.StatusBadRequest},
		{"search of 5000 accented characters", url.Values{"search": {strings.Repeat("é", 5000)}}, http.StatusBadRequest},
		{"model type of 201 characters", url.Values{"model_type": {strings.Repeat("a", 201)}}, http.StatusBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := s.get(serversPath+"?"+tt.query.Encode(), "")
			if tt.status == http.StatusOK {
				if page := apitest.Decode[serverPage](t, w, http.StatusOK); len(page.Items) == 0 {
					t.Error("listed nothing")
				}
				return
			}
			want := ""
			if strings.Contains(tt.name, "characters") {
				want = "The search text is too long (at most 200 characters)."
			}
			e := apitest.WantError(t, w, tt.status, want)
			if e.Code != "invalid" {
				t.Errorf("code = %q", e.Code)
			}
		})
	}
}

// serverPage is one page of GET /api/v1/mcp-servers/.
type serverPage struct {
	Items      []map[string]any `json:"items"`
	NextCursor *string          `json:"next_cursor"`
	Count      int              `json:"count"`
	CountExact bool             `json:"count_exact"`
}
