package store_test

import (
	"slices"
	"sync"
	"testing"
	"time"

	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// TestAdmitConcurrent: a burst of 30 attempts at one limit of 5 admits
// exactly 5 (one conditional write each), and the refused ones see the full
// window.
func TestAdmitConcurrent(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	const (
		n      = 30
		limit  = 5
		length = time.Minute
	)
	type result struct {
		w   store.Window
		ok  bool
		err error
	}
	results := make([]result, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			w, ok, err := st.Admit(ctx, "mcp-connect-host", "127.0.0.1", limit, length, now)
			results[i] = result{w, ok, err}
		})
	}
	wg.Wait()

	var counts []int
	for i, r := range results {
		if r.err != nil {
			t.Fatalf("attempt %d: %v", i, r.err)
		}
		if r.ok {
			counts = append(counts, r.w.Count)
		} else if r.w.Count != limit {
			t.Errorf("refused attempt %d saw window count %d, want %d", i, r.w.Count, limit)
		}
		if !r.w.Start.Equal(now) {
			t.Errorf("attempt %d: window from %v, want %v", i, r.w.Start, now)
		}
	}
	slices.Sort(counts)
	if !slices.Equal(counts, []int{1, 2, 3, 4, 5}) {
		t.Errorf("admitted with counts %v, want exactly 5 admitted, counted 1 to 5", counts)
	}
	if w, err := st.FailureWindow(ctx, "mcp-connect-host", "127.0.0.1", length, now); err != nil || w.Count != limit {
		t.Errorf("stored window = %+v, %v; want count %d", w, err, limit)
	}
}

// TestAdmitWindows: a fixed window admits limit attempts, refuses the rest
// until it ends, then a new window starts at the attempt that opens it;
// scopes and keys count apart.
func TestAdmitWindows(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	start := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	const (
		limit  = 2
		length = time.Minute
	)
	next := start.Add(length + 5*time.Second)
	steps := []struct {
		name       string
		scope, key string
		at         time.Time
		wantOK     bool
		wantCount  int
		wantStart  time.Time
	}{
		{"first opens the window", "s", "k", start, true, 1, start},
		{"second, later in the window", "s", "k", start.Add(30 * time.Second), true, 2, start},
		{"third refused", "s", "k", start.Add(40 * time.Second), false, 2, start},
		{"another key has its own window", "s", "other", start.Add(40 * time.Second), true, 1, start.Add(40 * time.Second)},
		{"another scope has its own window", "t", "k", start.Add(40 * time.Second), true, 1, start.Add(40 * time.Second)},
		{"refused just before the end", "s", "k", start.Add(length - time.Millisecond), false, 2, start},
		{"admitted after the end, in a new window", "s", "k", next, true, 1, next},
		{"counted in the new window", "s", "k", next.Add(time.Second), true, 2, next},
		{"refused in the new window", "s", "k", next.Add(2 * time.Second), false, 2, next},
	}
	for _, s := range steps {
		w, ok, err := st.Admit(ctx, s.scope, s.key, limit, length, s.at)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if ok != s.wantOK || w.Count != s.wantCount || !w.Start.Equal(s.wantStart) {
			t.Errorf("%s: admitted %v, window %d from %v; want %v, %d from %v", s.name, ok, w.Count, w.Start, s.wantOK, s.wantCount, s.wantStart)
		}
		if !ok {
			if ends := w.Ends(length); !ends.After(s.at) {
				t.Errorf("%s: refused by a window that ended at %v", s.name, ends)
			}
		}
	}
}
