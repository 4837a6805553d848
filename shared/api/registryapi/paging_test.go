package registryapi_test

import (
	"fmt"
	"net/url"
	"sync"
	"testing"
	"time"

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
