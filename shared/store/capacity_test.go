package store_test

import (
	"testing"

	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// TestMeterCapacityCountsScans: a Scan made under MeterCapacity is counted
// as one (with the capacity it read), a read by key is not.
func TestMeterCapacityCountsScans(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	mustCreate(t, st, newUser("scan-u1", "scan@example.com", "scanner"))

	mctx, used := store.MeterCapacity(ctx)
	if _, err := st.GetUser(mctx, "scan-u1"); err != nil {
		t.Fatal(err)
	}
	if used.Scans() != 0 || used.Calls() != 1 || used.Read() <= 0 {
		t.Fatalf("after a GetItem: %d scans, %d calls, %.1f RCU; want 0 scans, 1 call, some RCU", used.Scans(), used.Calls(), used.Read())
	}
	read := used.Read()
	// The mailbox backfill reads the whole table: one Scan page here.
	if _, err := st.BackfillMailboxQuotas(mctx); err != nil {
		t.Fatal(err)
	}
	if used.Scans() != 1 || used.Read() <= read {
		t.Errorf("after a Scan: %d scans, %.1f RCU (%.1f before); want 1 scan and more RCU", used.Scans(), used.Read(), read)
	}
	// A context that is not metered counts nothing.
	if _, err := st.BackfillMailboxQuotas(ctx); err != nil {
		t.Fatal(err)
	}
	if used.Scans() != 1 {
		t.Errorf("an unmetered Scan was counted: %d scans", used.Scans())
	}
}
