package registryapi_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	apiv0 "github.com/modelcontextprotocol/registry/pkg/api/v0"
	"github.com/modelcontextprotocol/registry/pkg/model"

	"aiwork/shared/api/registryapi"
	"aiwork/shared/domain"
	"aiwork/shared/routes"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// Paging walks the whole catalogue, 1,000 servers stored through the
// store, seven at a time, and finds each exactly once, in the official
// order (name, then version).
func TestPagingWalks1000ServersOnce(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	const n = 1000
	names := make([]string, n)
	start := time.Now()
	var wg sync.WaitGroup
	work := make(chan int)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				srv := remoteServer(fmt.Sprintf("io.github.owner%03d/server-%d", n-i, i))
				names[i] = srv.Name
				storetest.Must(t, s.st.UpsertMCPServer(ctx, srv), "upsert")
			}
		}()
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
	t.Logf("stored %d servers in %v", n, time.Since(start))

	start = time.Now()
	seen := map[string]int{}
	cursor, pages, last := "", 0, ""
	for {
		path := "v0.1/servers?limit=7"
		if cursor != "" {
			path += "&cursor=" + url.QueryEscape(cursor)
		}
		list, _ := decodeList(t, s.get(path))
		pages++
		if len(list.Servers) > 7 {
			t.Fatalf("page %d has %d servers", pages, len(list.Servers))
		}
		for _, e := range list.Servers {
			seen[e.Server.Name]++
			if e.Server.Name <= last {
				t.Errorf("%s after %s: not in name order", e.Server.Name, last)
			}
			last = e.Server.Name
		}
		if list.Metadata.NextCursor == "" {
			break
		}
		if len(list.Servers) != 7 {
			t.Errorf("page %d: %d servers and a next cursor", pages, len(list.Servers))
		}
		cursor = list.Metadata.NextCursor
		if pages > n {
			t.Fatal("paging does not end")
		}
	}
	t.Logf("walked %d pages in %v", pages, time.Since(start))
	if pages != (n+6)/7 {
		t.Errorf("%d pages, want %d", pages, (n+6)/7)
	}
	for _, name := range names {
		if seen[name] != 1 {
			t.Errorf("%s seen %d times", name, seen[name])
		}
	}
	if len(seen) != n {
		t.Errorf("%d distinct servers, want %d", len(seen), n)
	}
}

// walk reads every page of a list query with limit, answering the names
// in the order served and each page's size.
func (s *stack) walk(query string, limit int) (names []string, sizes []int) {
	s.t.Helper()
	return s.walkFrom(query, limit, "")
}

// walkFrom is walk from the page after cursor.
func (s *stack) walkFrom(query string, limit int, cursor string) (names []string, sizes []int) {
	s.t.Helper()
	for pages := 0; ; pages++ {
		path := fmt.Sprintf("v0.1/servers?limit=%d", limit)
		if query != "" {
			path += "&" + query
		}
		if cursor != "" {
			path += "&cursor=" + url.QueryEscape(cursor)
		}
		list, _ := decodeList(s.t, s.get(path))
		for _, e := range list.Servers {
			names = append(names, e.Server.Name)
		}
		sizes = append(sizes, len(list.Servers))
		if list.Metadata.NextCursor == "" {
			return names, sizes
		}
		if pages > 10000 {
			s.t.Fatal("paging does not end")
		}
		cursor = list.Metadata.NextCursor
	}
}

// bulkServers are n registry entries stored at once (the store's batch
// load), named server-000... in order.
func bulkServers(t *testing.T, st *store.Store, n int, mutate func(i int, srv *domain.MCPServer)) []domain.MCPServer {
	t.Helper()
	out := make([]domain.MCPServer, n)
	for i := range out {
		out[i] = remoteServer(fmt.Sprintf("io.github.bulk/server-%04d", i))
		if mutate != nil {
			mutate(i, &out[i])
		}
	}
	storetest.Must(t, st.BulkLoadMCPServers(ctx, out), "load")
	return out
}

func namesOf(servers []domain.MCPServer, keep func(domain.MCPServer) bool) []string {
	var out []string
	for _, s := range servers {
		if keep == nil || keep(s) {
			out = append(out, s.Name)
		}
	}
	return out
}

// A list of 0, limit and limit+1 servers: one page, one full page without
// an empty one after it, two pages.
func TestPagingAtItsBoundaries(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n     int
		sizes []int
	}{{0, []int{0}}, {5, []int{5}}, {6, []int{5, 1}}} {
		s := newStack(t)
		all := bulkServers(t, s.st, tc.n, nil)
		got, sizes := s.walk("", 5)
		if want := namesOf(all, nil); !slices.Equal(got, want) || !slices.Equal(sizes, tc.sizes) {
			t.Errorf("%d servers at limit 5: %v in pages %v, want %v in %v", tc.n, got, sizes, want, tc.sizes)
		}
	}
}

// A catalogue that changes between two pages: a server added before the
// place reached is not shown (it is behind), one added after is; one
// deleted after the place is not; none is shown twice or skipped.
func TestPagingThroughAChange(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	all := bulkServers(t, s.st, 12, nil)
	first, _ := decodeList(t, s.get("v0.1/servers?limit=5"))
	before, after := remoteServer("io.github.bulk/server-0001a"), remoteServer("io.github.bulk/server-0009a")
	s.put(before, after)
	storetest.Must(t, s.st.SetMCPServerActive(ctx, all[8].ID, false), "deactivate")
	rest, _ := s.walkFrom("", 5, first.Metadata.NextCursor)
	var got []string
	for _, e := range first.Servers {
		got = append(got, e.Server.Name)
	}
	got = append(got, rest...)
	want := namesOf(all, func(srv domain.MCPServer) bool { return srv.ID != all[8].ID })
	want = slices.Insert(want, 9, after.Name) // after server-0009
	if !slices.Equal(got, want) {
		t.Errorf("pages through a change: %v, want %v", got, want)
	}
}

// Deleted servers (switched off by an admin, inactive upstream) are in the
// list only with include_deleted, in their places, paged with the others.
func TestPagingWithAndWithoutDeleted(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	all := bulkServers(t, s.st, 11, func(i int, srv *domain.MCPServer) { srv.IsActive = i%3 != 1 })
	disable(t, s.st, all[0].ID, true)
	all[0].IsActive = false
	live := namesOf(all, func(srv domain.MCPServer) bool { return srv.IsActive })
	if got, _ := s.walk("", 2); !slices.Equal(got, live) {
		t.Errorf("without the deleted: %v, want %v", got, live)
	}
	if got, _ := s.walk("include_deleted=true", 2); !slices.Equal(got, namesOf(all, nil)) {
		t.Errorf("with the deleted: %v, want %v", got, namesOf(all, nil))
	}
	list, _ := decodeList(t, s.get("v0.1/servers?include_deleted=true&limit=100"))
	for i, e := range list.Servers {
		if want := map[bool]model.Status{true: model.StatusActive, false: model.StatusDeleted}[all[i].IsActive]; e.Meta.Official.Status != want {
			t.Errorf("%s: %s, want %s", e.Server.Name, e.Meta.Official.Status, want)
		}
	}
}

// A cursor is refused when it is not one this list gave, or one of the
// other order (the changes since a time against the list by name).
func TestPagingRefusesOtherCursors(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	bulkServers(t, s.st, 4, nil)
	byName, _ := decodeList(t, s.get("v0.1/servers?limit=2"))
	since := "updated_since=2000-01-01T00:00:00Z"
	byChange, _ := decodeList(t, s.get("v0.1/servers?limit=2&"+since))
	for _, path := range []string{
		"v0.1/servers?cursor=" + url.QueryEscape(byChange.Metadata.NextCursor),
		"v0.1/servers?" + since + "&cursor=" + url.QueryEscape(byName.Metadata.NextCursor),
		"v0.1/servers?cursor=" + strings.Repeat("A", 2001),
		"v0.1/servers?cursor=e30", // {}
	} {
		wantProblem(t, s.get(path), http.StatusBadRequest, "cursor")
	}
}

// DESIGN §10: a page of the list at its default size (30) costs at most 4
// RCU at 2,400 servers; the changes since a time read what changed; a
// search reads names only, about 13 RCU a thousand.
func TestListPageCapacity(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	const n = 2400
	var tools []domain.MCPTool
	for i := range 10 {
		tools = append(tools, domain.MCPTool{Name: fmt.Sprintf("tool_number_%02d", i), ReadOnly: i%2 == 0})
	}
	bulkServers(t, s.st, n, func(i int, srv *domain.MCPServer) {
		srv.Description = strings.Repeat("Reads and writes the records of a service. ", 3)
		srv.Health = domain.MCPHealth{Status: domain.HealthUp, CheckedAt: "2026-11-22T12:00:00Z", LatencyMS: 120, ToolsCount: len(tools), Tools: tools}
		srv.IsActive = i%40 != 0
	})
	since := time.Now().UTC().Format(time.RFC3339Nano)
	s.put(remoteServer("io.github.bulk/server-0100a"), remoteServer("io.github.bulk/server-2000a"))
	metered := func(path string) (apiv0.ServerListResponse, float64) {
		t.Helper()
		mctx, used := store.MeterCapacity(ctx)
		req := httptest.NewRequest(http.MethodGet, routes.RegistryPrefix+path, nil).WithContext(mctx)
		w := httptest.NewRecorder()
		s.h.ServeHTTP(w, req)
		list, _ := decodeList(t, w)
		if used.Scans() > 0 {
			t.Errorf("%s: %d scans", path, used.Scans())
		}
		return list, used.Read()
	}
	for _, tc := range []struct {
		query  string
		budget float64
		size   int
	}{
		{"", 4, registryapi.DefaultLimit},
		{"include_deleted=true", 4, registryapi.DefaultLimit},
		{"updated_since=" + url.QueryEscape(since), 4, 2},
		{"search=server-01", 45, registryapi.DefaultLimit},
	} {
		cursor := ""
		for page := range 3 {
			path := "v0.1/servers?" + tc.query
			if cursor != "" {
				path += "&cursor=" + url.QueryEscape(cursor)
			}
			list, rcu := metered(path)
			t.Logf("?%s page %d at %d servers: %d servers, %.1f RCU", tc.query, page, n, len(list.Servers), rcu)
			if len(list.Servers) != tc.size || rcu > tc.budget {
				t.Errorf("?%s page %d: %d servers for %.1f RCU, want %d within %.1f", tc.query, page, len(list.Servers), rcu, tc.size, tc.budget)
			}
			if cursor = list.Metadata.NextCursor; cursor == "" {
				break
			}
		}
	}
}
