package store_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// A burst of 30 concurrent takers at a limit of 3 gets exactly 3 slots; a
// slot given back makes room for exactly one more.
func TestStreamSlotsExactUnderConcurrency(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	const lease = 6 * time.Minute
	errs := make([]error, 30)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Go(func() { errs[i] = st.AcquireStreamSlot(ctx, "ada", 3, lease, now) })
	}
	wg.Wait()
	taken := 0
	for i, err := range errs {
		switch {
		case err == nil:
			taken++
		case !errors.Is(err, store.ErrTooManyStreams):
			t.Fatalf("taker %d: %v", i, err)
		}
	}
	if taken != 3 {
		t.Fatalf("%d slots taken, want exactly 3", taken)
	}
	if n, err := st.OpenStreams(ctx, "ada", now); err != nil || n != 3 {
		t.Fatalf("open streams = %d, %v; want 3", n, err)
	}
	// Another user counts apart.
	storetest.Must(t, st.AcquireStreamSlot(ctx, "bob", 3, lease, now), "bob's slot")

	storetest.Must(t, st.ReleaseStreamSlot(ctx, "ada"), "release")
	storetest.Must(t, st.AcquireStreamSlot(ctx, "ada", 3, lease, now), "the freed slot")
	if err := st.AcquireStreamSlot(ctx, "ada", 3, lease, now); !errors.Is(err, store.ErrTooManyStreams) {
		t.Fatalf("a fourth slot: %v, want ErrTooManyStreams", err)
	}
}

// Slots a crashed stream never gave back are freed once the lease of the
// last slot taken has run out: the next taker starts the counter over.
// Before that they stay taken; and giving back never drives it below zero.
func TestStreamSlotsLeakedSlotsExpireWithTheLease(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	start := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	const lease = 6 * time.Minute
	for range 2 {
		storetest.Must(t, st.AcquireStreamSlot(ctx, "ada", 2, lease, start), "slot")
	}
	// Both streams crashed: nothing is given back.
	if err := st.AcquireStreamSlot(ctx, "ada", 2, lease, start.Add(lease-time.Second)); !errors.Is(err, store.ErrTooManyStreams) {
		t.Fatalf("within the lease: %v, want ErrTooManyStreams", err)
	}
	later := start.Add(lease + time.Second)
	if n, err := st.OpenStreams(ctx, "ada", later); err != nil || n != 0 {
		t.Fatalf("open streams after the lease = %d, %v; want 0", n, err)
	}
	storetest.Must(t, st.AcquireStreamSlot(ctx, "ada", 2, lease, later), "slot after the lease")
	storetest.Must(t, st.AcquireStreamSlot(ctx, "ada", 2, lease, later), "second slot after the lease")
	if err := st.AcquireStreamSlot(ctx, "ada", 2, lease, later); !errors.Is(err, store.ErrTooManyStreams) {
		t.Fatalf("third slot after the reset: %v, want ErrTooManyStreams", err)
	}
	for range 5 {
		storetest.Must(t, st.ReleaseStreamSlot(ctx, "ada"), "release")
	}
	if n, err := st.OpenStreams(ctx, "ada", later); err != nil || n != 0 {
		t.Fatalf("open streams after releasing more than taken = %d, %v; want 0", n, err)
	}
	storetest.Must(t, st.ReleaseStreamSlot(ctx, "nobody"), "release without a counter")
}

// Concurrent takers of a stale counter (a leak past its lease) reset it
// once between them and still get exactly the limit.
func TestStreamSlotsStaleCounterResetOnceUnderConcurrency(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	start := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	const lease = time.Minute
	for range 3 {
		storetest.Must(t, st.AcquireStreamSlot(ctx, "ada", 3, lease, start), "leaked slot")
	}
	later := start.Add(2 * lease)
	errs := make([]error, 20)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Go(func() { errs[i] = st.AcquireStreamSlot(ctx, "ada", 3, lease, later) })
	}
	wg.Wait()
	taken := 0
	for i, err := range errs {
		switch {
		case err == nil:
			taken++
		case !errors.Is(err, store.ErrTooManyStreams):
			t.Fatalf("taker %d: %v", i, err)
		}
	}
	if n, _ := st.OpenStreams(ctx, "ada", later); taken != 3 || n != 3 {
		t.Fatalf("%d slots taken, counter %d; want exactly 3 and 3", taken, n)
	}
}
