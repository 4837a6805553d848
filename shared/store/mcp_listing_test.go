package store_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// registryServer is the n-th of a generated registry: a few words and two
// model types repeating, names whose case differs from their order.
func registryServer(n int) domain.MCPServer {
	words := []string{"github", "postgres", "search", "weather", "notes"}
	s := mcpServer(fmt.Sprintf("s%05d", n), "")
	s.Name = fmt.Sprintf("io.example/%s-%05d", words[n%5], (n*7919)%100000)
	if n%3 == 0 {
		s.Title = fmt.Sprintf("%s %s Server", strings.ToUpper(words[(n/5)%5][:1])+words[(n/5)%5][1:], words[n%5])
	}
	s.Description = "Reads " + words[(n+2)%5] + " data"
	s.ModelType = []string{"documentation", "coding"}[n%2]
	return s
}

func registryServers(n int) []domain.MCPServer {
	out := make([]domain.MCPServer, n)
	for i := range out {
		out[i] = registryServer(i)
	}
	return out
}

// expectedServers is the list as the whole registry says it: listed
// servers of the model type with every word, by display name
// (case-insensitive) then id.
func expectedServers(all []domain.MCPServer, modelType string, words []string) []string {
	var keep []domain.MCPServer
	for _, s := range all {
		if !s.IsActive || s.AdminDisabled || (modelType != "" && s.ModelType != modelType) {
			continue
		}
		text := strings.ToLower(s.Title + " " + s.Name + " " + s.Description)
		ok := true
		for _, w := range words {
			if !slices.Contains(strings.FieldsFunc(text, func(r rune) bool { return !('a' <= r && r <= 'z' || '0' <= r && r <= '9') }), w) {
				ok = false
			}
		}
		if ok {
			keep = append(keep, s)
		}
	}
	name := func(s domain.MCPServer) string {
		if s.Title != "" {
			return strings.ToLower(s.Title) + "#" + s.ID
		}
		return strings.ToLower(s.Name) + "#" + s.ID
	}
	slices.SortFunc(keep, func(a, b domain.MCPServer) int { return strings.Compare(name(a), name(b)) })
	out := make([]string, len(keep))
	for i, s := range keep {
		out[i] = s.ID
	}
	return out
}

func serverIDs(ss []domain.MCPServer) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.ID
	}
	return out
}

func readAllServers(t *testing.T, st *store.Store, q store.MCPListQuery) (ids []string, sizes []int, first store.MCPListPage) {
	t.Helper()
	for i := 0; ; i++ {
		page, err := st.ListMCPServerPage(ctx, q)
		if err != nil {
			t.Fatalf("page %d: %v", i, err)
		}
		if i == 0 {
			first = page
		}
		ids = append(ids, serverIDs(page.Servers)...)
		sizes = append(sizes, len(page.Servers))
		if page.NextCursor == "" {
			return ids, sizes, first
		}
		if i > 1000 {
			t.Fatal("no end")
		}
		q.Cursor = page.NextCursor
	}
}

func upsertAll(t *testing.T, st *store.Store, ss []domain.MCPServer) {
	t.Helper()
	for _, s := range ss {
		storetest.Must(t, st.UpsertMCPServer(ctx, s), "upsert "+s.ID)
	}
}

func TestRegistryListPagesAtTheirBoundaries(t *testing.T) {
	t.Parallel()
	all := registryServers(48)
	st := storetest.New(t)
	storetest.Must(t, st.BulkLoadMCPServers(ctx, all), "load")
	want := expectedServers(all, "", nil)
	for _, limit := range []int{24, 47, 48, 49} {
		got, sizes, first := readAllServers(t, st, store.MCPListQuery{Limit: limit})
		if !slices.Equal(got, want) {
			t.Errorf("limit %d: %v, want %v", limit, got, want)
		}
		if first.Count != 48 || !first.CountExact {
			t.Errorf("limit %d: count %d exact %v", limit, first.Count, first.CountExact)
		}
		if limit == 24 && !slices.Equal(sizes, []int{24, 24}) {
			t.Errorf("limit 24: pages %v, want [24 24] (no empty last page)", sizes)
		}
	}
}

func TestRegistryListModelTypeAndSearch(t *testing.T) {
	t.Parallel()
	all := registryServers(60)
	st := storetest.New(t)
	storetest.Must(t, st.BulkLoadMCPServers(ctx, all), "load")
	for _, tc := range []struct {
		mt    string
		words []string
		exact bool
	}{
		{"coding", nil, true},
		{"", []string{"weather"}, true},
		{"documentation", []string{"github"}, false},
		{"", []string{"github", "postgres"}, false},
		{"", []string{"nothing"}, true},
		{"unknown", nil, true},
	} {
		want := expectedServers(all, tc.mt, tc.words)
		got, _, first := readAllServers(t, st, store.MCPListQuery{ModelType: tc.mt, Words: tc.words, Limit: 5})
		if !slices.Equal(got, want) {
			t.Errorf("%q %v: %v, want %v", tc.mt, tc.words, got, want)
		}
		if tc.exact && (first.Count != len(want) || !first.CountExact) {
			t.Errorf("%q %v: count %d exact %v, want %d", tc.mt, tc.words, first.Count, first.CountExact, len(want))
		}
		if len(want) == 0 && (len(first.Servers) != 0 || first.NextCursor != "" || first.Count != 0) {
			t.Errorf("%q %v: no results answered %+v", tc.mt, tc.words, first)
		}
	}
}

// Every write path keeps the copies and counts in line: an upsert that
// changes the title (the card moves and its words change), a deactivation
// by the sync, an admin's switch off and back on, an admin's new server,
// and a probe that changes the status (shown on the card).
func TestRegistryListFollowsEveryWrite(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	all := registryServers(12)
	upsertAll(t, st, all)
	check := func(step string) {
		t.Helper()
		for _, q := range []store.MCPListQuery{{}, {ModelType: "coding"}, {Words: []string{"weather"}}, {Words: []string{"zebra"}}, {ModelType: "documentation", Words: []string{"github"}}} {
			q.Limit = 5
			got, _, first := readAllServers(t, st, q)
			want := expectedServers(all, q.ModelType, q.Words)
			if !slices.Equal(got, want) {
				t.Errorf("%s, %+v: %v, want %v", step, q, got, want)
			}
			if first.CountExact && first.Count != len(want) {
				t.Errorf("%s, %+v: count %d, want %d", step, q, first.Count, len(want))
			}
		}
	}
	check("upserted")

	all[1].Title = "Zebra weather"
	storetest.Must(t, st.UpsertMCPServer(ctx, all[1]), "retitle")
	check("retitled")

	storetest.Must(t, st.SetMCPServerActive(ctx, all[2].ID, false), "deactivate")
	all[2].IsActive = false
	check("deactivated")

	srv, err := st.GetMCPServer(ctx, all[4].ID)
	storetest.Must(t, err, "read")
	srv.AdminDisabled = true
	storetest.Must(t, st.UpdateMCPServer(ctx, srv, 0, store.AuditEntry{ActorID: "admin", Action: "mcp_server.update", TargetID: srv.ID}), "switch off")
	all[4].AdminDisabled = true
	check("switched off")
	srv.AdminDisabled = false
	storetest.Must(t, st.UpdateMCPServer(ctx, srv, 1, store.AuditEntry{ActorID: "admin", Action: "mcp_server.update", TargetID: srv.ID}), "switch on")
	all[4].AdminDisabled = false
	check("switched on")

	fresh := registryServer(100)
	fresh.ID, fresh.Title = "fresh", "Aardvark weather"
	storetest.Must(t, st.CreateMCPServer(ctx, fresh, store.AuditEntry{ActorID: "admin", Action: "mcp_server.create", TargetID: "fresh"}), "create")
	all = append(all, fresh)
	check("created")

	h := sampleHealth()
	storetest.Must(t, st.SaveMCPHealth(ctx, all[0].ID, h), "probe")
	page, err := st.ListMCPServerPage(ctx, store.MCPListQuery{Words: []string{strings.ToLower(strings.Split(all[0].Name, "/")[1][:strings.Index(strings.Split(all[0].Name, "/")[1], "-")])}, Limit: 60})
	storetest.Must(t, err, "page")
	for _, s := range page.Servers {
		if s.ID == all[0].ID && s.Health.Status != domain.HealthUp {
			t.Errorf("card shows %q after the probe, want up", s.Health.Status)
		}
	}
	// The backfill finds nothing behind.
	if n, err := st.BackfillMCPListings(ctx); err != nil || n != 0 {
		t.Errorf("backfill after the writes: %d, %v", n, err)
	}
}

func TestRegistryListChangesBetweenPages(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	all := registryServers(30)
	upsertAll(t, st, all)
	q := store.MCPListQuery{Limit: 10}
	first, err := st.ListMCPServerPage(ctx, q)
	storetest.Must(t, err, "first page")
	shown := serverIDs(first.Servers)
	// One gone from the page shown, one gone from the pages to come, one
	// new before the place the list is at.
	later := expectedServers(all, "", nil)[20]
	for _, id := range []string{shown[9], later} {
		storetest.Must(t, st.SetMCPServerActive(ctx, id, false), "deactivate "+id)
	}
	fresh := registryServer(500)
	fresh.ID, fresh.Title = "fresh", "AAA first"
	storetest.Must(t, st.UpsertMCPServer(ctx, fresh), "new")
	q.Cursor = first.NextCursor
	rest, _, _ := readAllServers(t, st, q)
	seen := map[string]bool{}
	for _, id := range append(slices.Clone(shown), rest...) {
		if seen[id] {
			t.Errorf("%s shown twice", id)
		}
		seen[id] = true
	}
	for _, s := range all {
		if !seen[s.ID] && s.ID != shown[9] && s.ID != later {
			t.Errorf("%s skipped", s.ID)
		}
	}
	if slices.Contains(rest, later) {
		t.Error("a deactivated server is listed on a later page")
	}
}

func TestRegistryListRefusesCursorsItDidNotGive(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	storetest.Must(t, st.BulkLoadMCPServers(ctx, registryServers(20)), "load")
	page, err := st.ListMCPServerPage(ctx, store.MCPListQuery{Limit: 5})
	storetest.Must(t, err, "page")
	for _, q := range []store.MCPListQuery{
		{Limit: 5, Cursor: "%%%"},
		{Limit: 5, Cursor: "bm90LWpzb24"},
		{Limit: 5, ModelType: "coding", Cursor: page.NextCursor},
		{Limit: 5, Words: []string{"weather"}, Cursor: page.NextCursor},
	} {
		if _, err := st.ListMCPServerPage(ctx, q); !errors.Is(err, store.ErrBadCursor) {
			t.Errorf("%+v: %v, want ErrBadCursor", q, err)
		}
	}
}

// Servers stored before the listing (no revision, no copies) are listed by
// the backfill.
func TestBackfillMCPListings(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	all := registryServers(6)
	upsertAll(t, st, all)
	// As a table from before the listing: no revisions, no copies, no counts.
	for _, s := range all {
		_, err := st.DB().UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName: aws.String(st.Table()), Key: map[string]types.AttributeValue{
				"PK": &types.AttributeValueMemberS{Value: "MCP#" + s.ID}, "SK": &types.AttributeValueMemberS{Value: "SERVER"}},
			UpdateExpression: aws.String("REMOVE irev, srev, lfmt, idx"),
		})
		storetest.Must(t, err, "forget")
	}
	for _, it := range storetest.ScanAll(t, st) {
		pk := it["PK"].(*types.AttributeValueMemberS).Value
		if strings.HasPrefix(pk, "RLIST#") || strings.HasPrefix(pk, "RTOK#") {
			_, err := st.DB().DeleteItem(ctx, &dynamodb.DeleteItemInput{
				TableName: aws.String(st.Table()), Key: map[string]types.AttributeValue{"PK": it["PK"], "SK": it["SK"]}})
			storetest.Must(t, err, "delete copy")
		}
	}
	if page, err := st.ListMCPServerPage(ctx, store.MCPListQuery{Limit: 24}); err != nil || len(page.Servers) != 0 {
		t.Fatalf("before the backfill: %d servers, %v", len(page.Servers), err)
	}
	n, err := st.BackfillMCPListings(ctx)
	if err != nil || n != 6 {
		t.Fatalf("backfill: %d, %v", n, err)
	}
	got, _, first := readAllServers(t, st, store.MCPListQuery{Limit: 4})
	if want := expectedServers(all, "", nil); !slices.Equal(got, want) || first.Count != 6 {
		t.Errorf("after the backfill: %v (count %d), want %v", got, first.Count, want)
	}
}

// DESIGN §10: a page of 24 cards costs at most 4 RCU whatever the
// registry's size; 3,000 servers with descriptions of the official
// registry's usual length.
func TestRegistryListPageCapacity(t *testing.T) {
	t.Parallel()
	const n = 3000
	all := registryServers(n)
	for i := range all {
		all[i].Description = strings.Repeat(all[i].Description+" ", 8) // about 150 characters
		all[i].Health.Status = domain.HealthUp
	}
	st := storetest.New(t)
	storetest.Must(t, st.BulkLoadMCPServers(ctx, all), "load")
	for _, tc := range []struct {
		name string
		q    store.MCPListQuery
	}{
		{"all", store.MCPListQuery{}},
		{"a model type", store.MCPListQuery{ModelType: "coding"}},
		{"a one-word search", store.MCPListQuery{Words: []string{"weather"}}},
		{"a two-word search", store.MCPListQuery{Words: []string{"weather", "github"}}},
	} {
		q := tc.q
		q.Limit = 24
		for i := range 3 {
			mctx, used := store.MeterCapacity(ctx)
			page, err := st.ListMCPServerPage(mctx, q)
			storetest.Must(t, err, tc.name)
			if len(page.Servers) != 24 {
				t.Fatalf("%s page %d: %d servers", tc.name, i, len(page.Servers))
			}
			t.Logf("%s page %d at %d servers: %.1f RCU in %d calls", tc.name, i, n, used.Read(), used.Calls())
			if used.Read() > 4 {
				t.Errorf("%s page %d: %.1f RCU, budget 4", tc.name, i, used.Read())
			}
			q.Cursor = page.NextCursor
		}
	}
}
