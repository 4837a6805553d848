package promptsapi_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// The featured list reads what it shows, not the catalogue: at 2,000
// prompts a visitor's request costs a few units, and its six are the
// flagged one, the rated ones by rating, then the newest.
func TestFeaturedReadsWhatItShows(t *testing.T) {
	t.Parallel()
	s := newStack(t, 5, fixture("seeded", "writing", 1.99, -3650))
	at := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	ps := make([]domain.Prompt, 2000)
	for i := range ps {
		ps[i] = domain.Prompt{ID: fmt.Sprintf("bulk-%04d", i), Title: fmt.Sprintf("Bulk %d", i), Description: "Steps to paste",
			Content: "Write it.", Price: 4.99, CategoryID: "business", CreatedAt: at.Add(time.Duration(i) * time.Minute)}
	}
	ps[10].Featured = true
	ps[20].RatingSum, ps[20].RatingCount = 8, 2
	ps[30].RatingSum, ps[30].RatingCount = 5, 1
	storetest.Must(t, s.St.BulkLoadPrompts(t.Context(), ps), "load")

	mctx, used := store.MeterCapacity(t.Context())
	req := httptest.NewRequest(http.MethodGet, "/api/v1/prompts/featured", nil).WithContext(mctx)
	w := httptest.NewRecorder()
	s.H.ServeHTTP(w, req)
	got := ids(decode[[]promptJSON](t, w, http.StatusOK))
	want := []string{"bulk-0010", "bulk-0030", "bulk-0020", "bulk-1999", "bulk-1998", "bulk-1997"}
	if !slices.Equal(got, want) {
		t.Errorf("featured %v, want %v", got, want)
	}
	t.Logf("featured at 2,001 prompts: %.1f RCU in %d calls", used.Read(), used.Calls())
	if used.Read() > 6 || used.Scans() > 0 {
		t.Errorf("featured read %.1f RCU (%d scans) at 2,001 prompts: it should read what it shows", used.Read(), used.Scans())
	}
}
