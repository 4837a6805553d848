package store_test

import (
	"testing"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// Each saved health is kept in the server's probe history, newest first,
// the newest MaxProbeHistory only.
func TestProbeHistoryKeepsTheNewest(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	storetest.Must(t, st.UpsertMCPServer(ctx, mcpServer("s1", "One")), "upsert")
	start := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for i := range store.MaxProbeHistory + 3 {
		h := domain.MCPHealth{Status: domain.HealthUp, CheckedAt: start.Add(time.Duration(i) * time.Minute).Format(time.RFC3339), LatencyMS: int64(i)}
		storetest.Must(t, st.SaveMCPHealth(ctx, "s1", h), "save health")
	}
	got, err := st.ProbeHistory(ctx, "s1")
	storetest.Must(t, err, "history")
	if len(got) != store.MaxProbeHistory || got[0].LatencyMS != int64(store.MaxProbeHistory+2) || got[len(got)-1].LatencyMS != 3 {
		t.Fatalf("history of %d, first %+v, last %+v", len(got), got[0], got[len(got)-1])
	}
	if other, err := st.ProbeHistory(ctx, "s2"); err != nil || len(other) != 0 {
		t.Errorf("another server's history: %v, %v", other, err)
	}
}
