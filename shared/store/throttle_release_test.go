package store_test

import (
	"testing"
	"time"

	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// TestReleaseGivesBackOneCount: a released attempt frees its place in the
// window it was counted in, never more than was counted, and never in a
// window opened since.
func TestReleaseGivesBackOneCount(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	start := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	const (
		limit  = 2
		length = time.Minute
	)
	next := start.Add(length + time.Second)
	admit := func(at time.Time) (store.Window, bool) {
		t.Helper()
		w, ok, err := st.Admit(ctx, "s", "k", limit, length, at)
		storetest.Must(t, err, "admit")
		return w, ok
	}
	release := func(w store.Window) {
		t.Helper()
		storetest.Must(t, st.Release(ctx, "s", "k", w), "release")
	}
	counted := func(at time.Time) int {
		t.Helper()
		w, err := st.FailureWindow(ctx, "s", "k", length, at)
		storetest.Must(t, err, "window")
		return w.Count
	}

	first, _ := admit(start)
	second, _ := admit(start.Add(time.Second))
	if _, ok := admit(start.Add(2 * time.Second)); ok {
		t.Fatal("a third attempt was admitted at a limit of 2")
	}
	release(second)
	if got := counted(start.Add(3 * time.Second)); got != 1 {
		t.Errorf("after one release the window counts %d, want 1", got)
	}
	if _, ok := admit(start.Add(4 * time.Second)); !ok {
		t.Error("the released place was not admitted again")
	}
	release(first)
	release(first)
	release(first) // more releases than counts: the count stops at zero
	if got := counted(start.Add(5 * time.Second)); got != 0 {
		t.Errorf("after releasing everything the window counts %d, want 0", got)
	}

	admit(next) // a new window
	release(first)
	if got := counted(next); got != 1 {
		t.Errorf("a release from the ended window changed the new one: it counts %d, want 1", got)
	}
	storetest.Must(t, st.Release(ctx, "s", "never-counted", first), "release of a key never counted")
}
