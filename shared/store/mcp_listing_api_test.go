package store_test

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// expectedAPI is the registry API's list as the whole registry says it
// (store.ListMCPServers, the source of truth): the servers q keeps, in the
// official order (served name, version, id), or by change for Since.
func expectedAPI(t *testing.T, st *store.Store, q store.MCPAPIQuery) []string {
	t.Helper()
	all, err := st.ListMCPServers(ctx)
	storetest.Must(t, err, "list all")
	var keep []domain.MCPServer
	for _, s := range all {
		_, updated := store.MCPServedTimes(s)
		switch {
		case !s.IsActive && !q.IncludeDeleted && q.Since.IsZero():
		case q.Search != "" && !strings.Contains(strings.ToLower(store.MCPServedName(s)), strings.ToLower(q.Search)):
		case q.Version != "" && q.Version != "latest" && store.MCPServedVersion(s) != q.Version:
		case !q.Since.IsZero() && updated.Before(q.Since):
		default:
			keep = append(keep, s)
		}
	}
	slices.SortFunc(keep, func(a, b domain.MCPServer) int {
		if !q.Since.IsZero() {
			_, ua := store.MCPServedTimes(a)
			_, ub := store.MCPServedTimes(b)
			return cmp.Or(ua.Compare(ub), strings.Compare(a.ID, b.ID))
		}
		return cmp.Or(strings.Compare(store.MCPServedName(a), store.MCPServedName(b)),
			strings.Compare(store.MCPServedVersion(a), store.MCPServedVersion(b)), strings.Compare(a.ID, b.ID))
	})
	return serverIDs(keep)
}

// readAllAPI walks the API's list page by page; each page's servers are
// answered too, by id (the last seen).
func readAllAPI(t *testing.T, st *store.Store, q store.MCPAPIQuery) (ids []string, sizes []int, byID map[string]domain.MCPServer) {
	t.Helper()
	byID = map[string]domain.MCPServer{}
	for i := 0; ; i++ {
		page, err := st.ListMCPAPIPage(ctx, q)
		if err != nil {
			t.Fatalf("page %d of %+v: %v", i, q, err)
		}
		for _, s := range page.Servers {
			byID[s.ID] = s
		}
		ids = append(ids, serverIDs(page.Servers)...)
		sizes = append(sizes, len(page.Servers))
		if page.NextCursor == "" {
			return ids, sizes, byID
		}
		if i > 2000 {
			t.Fatal("no end")
		}
		q.Cursor = page.NextCursor
	}
}

// Every write path keeps the registry API's copies in line, for every kind
// of page (plain, with the deleted, a search, an exact version, the
// changes since a time): an upsert that renames a server (its place
// moves), a deactivation by the sync, an admin's switch off and on, an
// admin's new server (served in our namespace), and probes (each one's
// figures on the copy).
func TestRegistryAPIListFollowsEveryWrite(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	all := registryServers(12)
	all[3].Version = "2.0.0"
	upsertAll(t, st, all)
	start := time.Now().UTC()
	check := func(step string) {
		t.Helper()
		for _, q := range []store.MCPAPIQuery{
			{}, {IncludeDeleted: true}, {Search: "WEATHER"}, {Search: "weather", IncludeDeleted: true}, {Search: "zebra"},
			{Version: "2.0.0"}, {Version: "latest"}, {Since: start}, {Since: start, Search: "github"},
		} {
			q.Limit = 3
			got, _, _ := readAllAPI(t, st, q)
			if want := expectedAPI(t, st, q); !slices.Equal(got, want) {
				t.Errorf("%s, %+v: %v, want %v", step, q, got, want)
			}
		}
	}
	check("upserted")

	all[1].Name = "io.example/aaa-first"
	storetest.Must(t, st.UpsertMCPServer(ctx, all[1]), "rename")
	check("renamed")

	storetest.Must(t, st.SetMCPServerActive(ctx, all[2].ID, false), "deactivate")
	check("deactivated")

	srv, err := st.GetMCPServer(ctx, all[4].ID)
	storetest.Must(t, err, "read")
	srv.AdminDisabled = true
	storetest.Must(t, st.UpdateMCPServer(ctx, srv, 0, store.AuditEntry{ActorID: "admin", Action: "mcp_server.update", TargetID: srv.ID}), "switch off")
	check("switched off")
	srv.AdminDisabled = false
	storetest.Must(t, st.UpdateMCPServer(ctx, srv, 1, store.AuditEntry{ActorID: "admin", Action: "mcp_server.update", TargetID: srv.ID}), "switch on")
	check("switched on")

	fresh := registryServer(100)
	fresh.ID, fresh.Name, fresh.Title = "fresh", "Weather desk", "Weather desk"
	storetest.Must(t, st.CreateMCPServer(ctx, fresh, store.AuditEntry{ActorID: "admin", Action: "mcp_server.create", TargetID: "fresh"}), "create")
	check("created")
	if found, err := st.MCPServersServedAs(ctx, store.MCPOwnNamespace+"/fresh"); err != nil || len(found) != 1 || found[0].ID != "fresh" {
		t.Errorf("the admin's server by its served name: %v, %v", serverIDs(found), err)
	}

	// Each probe's figures are on the copy a page reads, tools included;
	// a probe of a deactivated server too (include_deleted shows it).
	beforeProbes := time.Now().UTC()
	for i, id := range []string{all[0].ID, all[2].ID} {
		h := sampleHealth()
		h.CheckedAt, h.LatencyMS = fmt.Sprintf("2026-11-23T0%d:00:00Z", i), int64(40+i)
		storetest.Must(t, st.SaveMCPHealth(ctx, id, h), "probe")
		h.CheckedAt = fmt.Sprintf("2026-11-23T1%d:00:00Z", i)
		storetest.Must(t, st.SaveMCPHealth(ctx, id, h), "probe again")
		_, _, byID := readAllAPI(t, st, store.MCPAPIQuery{IncludeDeleted: true, Limit: 30})
		got := byID[id].Health
		if got.Status != domain.HealthUp || got.CheckedAt != h.CheckedAt || got.LatencyMS != h.LatencyMS || got.ToolsCount != 2 ||
			len(got.Tools) != 2 || !got.Tools[0].ReadOnly || got.Tools[0].Name != "echo" || !got.Tools[1].MayDestroy() || got.Tools[1].Name != "delete-all" {
			t.Errorf("%s's health on the list after two probes: %+v, want the second's (%s)", id, got, h.CheckedAt)
		}
	}
	check("probed")
	// A probe is no change as served.
	if got, _, _ := readAllAPI(t, st, store.MCPAPIQuery{Since: beforeProbes, Limit: 30}); len(got) > 0 {
		t.Errorf("changes since the probes began: %v, want none", got)
	}
	if n, err := st.BackfillMCPListings(ctx); err != nil || n != 0 {
		t.Errorf("backfill after the writes: %d, %v", n, err)
	}
}

// Paging at its boundaries: 0, limit and limit+1 servers at limit 4 (no
// empty last page), and the deleted partition merged in order.
func TestRegistryAPIListBoundaries(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 4, 5} {
		st := storetest.New(t)
		all := registryServers(n)
		storetest.Must(t, st.BulkLoadMCPServers(ctx, all), "load")
		got, sizes, _ := readAllAPI(t, st, store.MCPAPIQuery{Limit: 4})
		if want := expectedAPI(t, st, store.MCPAPIQuery{}); !slices.Equal(got, want) {
			t.Errorf("%d servers: %v, want %v", n, got, want)
		}
		wantSizes := map[int][]int{0: {0}, 4: {4}, 5: {4, 1}}[n]
		if !slices.Equal(sizes, wantSizes) {
			t.Errorf("%d servers at limit 4: pages %v, want %v", n, sizes, wantSizes)
		}
	}
	// Out of the listing: half of 9, read 2 at a time with and without them.
	st := storetest.New(t)
	all := registryServers(9)
	for i := range all {
		all[i].IsActive = i%2 == 0
	}
	storetest.Must(t, st.BulkLoadMCPServers(ctx, all), "load")
	for _, q := range []store.MCPAPIQuery{{Limit: 2}, {Limit: 2, IncludeDeleted: true}} {
		got, _, byID := readAllAPI(t, st, q)
		if want := expectedAPI(t, st, q); !slices.Equal(got, want) {
			t.Errorf("%+v: %v, want %v", q, got, want)
		}
		for _, s := range all {
			if g, ok := byID[s.ID]; ok && g.IsActive != s.IsActive {
				t.Errorf("%s served active %v, want %v", s.ID, g.IsActive, s.IsActive)
			}
		}
	}
}

// A search or an exact version that matches little reads a bounded number
// of names a request and says where to go on: the walk still finds all.
func TestRegistryAPISearchReadsABoundedPart(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	const n, bound = 250, 100
	all := registryServers(n)
	all[7].Name, all[n-3].Name = "io.example/needle-one", "io.example/needle-two"
	storetest.Must(t, st.BulkLoadMCPServers(ctx, all), "load")
	q := store.MCPAPIQuery{Search: "needle", Limit: 30, Examine: bound}
	got, sizes, _ := readAllAPI(t, st, q)
	if want := expectedAPI(t, st, q); !slices.Equal(got, want) || len(want) != 2 {
		t.Errorf("search: %v, want %v", got, want)
	}
	if len(sizes) < 3 {
		t.Errorf("a search over %d names answered in %d requests (%v): each reads at most %d", n, len(sizes), sizes, bound)
	}
}

func TestRegistryAPIListRefusesCursorsItDidNotGive(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	storetest.Must(t, st.BulkLoadMCPServers(ctx, registryServers(10)), "load")
	byName, err := st.ListMCPAPIPage(ctx, store.MCPAPIQuery{Limit: 3})
	storetest.Must(t, err, "page")
	since := time.Now().Add(-time.Hour)
	byChange, err := st.ListMCPAPIPage(ctx, store.MCPAPIQuery{Limit: 3, Since: since})
	storetest.Must(t, err, "changes")
	if byName.NextCursor == "" || byChange.NextCursor == "" {
		t.Fatal("no second page")
	}
	for _, q := range []store.MCPAPIQuery{
		{Limit: 3, Cursor: "%%%"},
		{Limit: 3, Cursor: "bm90LWpzb24"},
		{Limit: 3, Cursor: "e30"}, // {}
		{Limit: 3, Since: since, Cursor: byName.NextCursor},
		{Limit: 3, Cursor: byChange.NextCursor},
		{Limit: 3, Search: "weather", Cursor: byChange.NextCursor},
		// A later time than the pages began at: its place is before it.
		{Limit: 3, Since: time.Now().Add(time.Hour), Cursor: byChange.NextCursor},
	} {
		if _, err := st.ListMCPAPIPage(ctx, q); !errors.Is(err, store.ErrBadCursor) {
			t.Errorf("%+v: %v, want ErrBadCursor", q, err)
		}
	}
	// A name-ordered cursor serves the other name-ordered pages.
	if _, err := st.ListMCPAPIPage(ctx, store.MCPAPIQuery{Limit: 3, IncludeDeleted: true, Cursor: byName.NextCursor}); err != nil {
		t.Errorf("include_deleted after a plain page: %v", err)
	}
}

// DESIGN §10: a page of the registry API (30, its default) costs at most 4
// RCU whatever the registry's size; 2,400 servers with descriptions of the
// official registry's usual length and a probe's health with ten tools.
// The changes since a time read what changed, not the registry.
func TestRegistryAPIPageCapacity(t *testing.T) {
	t.Parallel()
	const n = 2400
	all := registryServers(n)
	var tools []domain.MCPTool
	for i := range 10 {
		tools = append(tools, domain.MCPTool{Name: fmt.Sprintf("tool_number_%02d", i), Description: strings.Repeat("does a thing ", 10), ReadOnly: i%2 == 0})
	}
	for i := range all {
		all[i].Description = strings.Repeat(all[i].Description+" ", 8) // about 150 characters
		all[i].Health = domain.MCPHealth{Status: domain.HealthUp, CheckedAt: "2026-11-22T12:00:00Z", LatencyMS: 120, ToolsCount: len(tools), Tools: tools}
		all[i].IsActive = i%50 != 0
	}
	st := storetest.New(t)
	storetest.Must(t, st.BulkLoadMCPServers(ctx, all), "load")
	// Three servers change after the load.
	since := time.Now().UTC()
	for _, i := range []int{5, 600, 1700} {
		all[i].Title += " (renamed)"
		storetest.Must(t, st.UpsertMCPServer(ctx, all[i]), "change")
	}
	for _, tc := range []struct {
		name   string
		q      store.MCPAPIQuery
		budget float64
		size   int
	}{
		{"the list", store.MCPAPIQuery{}, 4, 30},
		{"with the deleted", store.MCPAPIQuery{IncludeDeleted: true}, 4, 30},
		{"changed since", store.MCPAPIQuery{Since: since}, 4, 3},
	} {
		q := tc.q
		q.Limit = 30
		for i := range 3 {
			mctx, used := store.MeterCapacity(ctx)
			page, err := st.ListMCPAPIPage(mctx, q)
			storetest.Must(t, err, tc.name)
			if len(page.Servers) != tc.size {
				t.Fatalf("%s page %d: %d servers, want %d", tc.name, i, len(page.Servers), tc.size)
			}
			t.Logf("%s page %d at %d servers: %.1f RCU in %d calls", tc.name, i, n, used.Read(), used.Calls())
			if used.Read() > tc.budget || used.Scans() > 0 {
				t.Errorf("%s page %d: %.1f RCU (%d scans), budget %.1f", tc.name, i, used.Read(), used.Scans(), tc.budget)
			}
			if page.NextCursor == "" {
				break
			}
			q.Cursor = page.NextCursor
		}
	}
	// A search that finds little reads names, bounded whatever the size.
	mctx, used := store.MeterCapacity(ctx)
	_, err := st.ListMCPAPIPage(mctx, store.MCPAPIQuery{Search: "no-such-name", Limit: 30})
	storetest.Must(t, err, "search")
	t.Logf("a search that finds nothing, first request: %.1f RCU in %d calls", used.Read(), used.Calls())
	if used.Read() > 60 {
		t.Errorf("a search request read %.1f RCU: its names should be bounded (%d)", used.Read(), store.MCPAPIMaxExamined)
	}
}

// Servers listed before the registry API had copies (the listing's first
// format) get them from the backfill.
func TestBackfillGivesTheRegistryAPIItsCopies(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	all := registryServers(5)
	upsertAll(t, st, all)
	storetest.Must(t, st.SetMCPServerActive(ctx, all[1].ID, false), "deactivate")
	// As the first format left them: no API items, none in idx.
	for _, it := range storetest.ScanAll(t, st) {
		pk := it["PK"].(*types.AttributeValueMemberS).Value
		switch {
		case strings.HasPrefix(pk, "RLIST#API#"):
			_, err := st.DB().DeleteItem(ctx, &dynamodb.DeleteItemInput{
				TableName: aws.String(st.Table()), Key: map[string]types.AttributeValue{"PK": it["PK"], "SK": it["SK"]}})
			storetest.Must(t, err, "delete API item")
		case strings.HasPrefix(pk, "MCP#") && it["SK"].(*types.AttributeValueMemberS).Value == "SERVER":
			var keep []string
			for _, k := range it["idx"].(*types.AttributeValueMemberSS).Value {
				if !strings.HasPrefix(k, "RLIST#API#") {
					keep = append(keep, k)
				}
			}
			in := &dynamodb.UpdateItemInput{
				TableName: aws.String(st.Table()), Key: map[string]types.AttributeValue{"PK": it["PK"], "SK": it["SK"]},
				UpdateExpression:          aws.String("SET lfmt = :one REMOVE idx"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}},
			}
			if len(keep) > 0 { // a server out of the listing had none
				in.UpdateExpression = aws.String("SET lfmt = :one, idx = :idx")
				in.ExpressionAttributeValues[":idx"] = &types.AttributeValueMemberSS{Value: keep}
			}
			_, err := st.DB().UpdateItem(ctx, in)
			storetest.Must(t, err, "first format")
		}
	}
	q := store.MCPAPIQuery{IncludeDeleted: true, Limit: 10}
	if got, _, _ := readAllAPI(t, st, q); len(got) != 0 {
		t.Fatalf("before the backfill: %v", got)
	}
	if n, err := st.BackfillMCPListings(ctx); err != nil || n != 5 {
		t.Fatalf("backfill: %d, %v", n, err)
	}
	for _, q := range []store.MCPAPIQuery{q, {Limit: 10}, {Search: "io.example", Limit: 10}} {
		if got, want := func() ([]string, []string) { g, _, _ := readAllAPI(t, st, q); return g, expectedAPI(t, st, q) }(); !slices.Equal(got, want) || len(want) == 0 {
			t.Errorf("after the backfill, %+v: %v, want %v", q, got, want)
		}
	}
}
