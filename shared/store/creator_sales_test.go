package store_test

import (
	"sync"
	"testing"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// 20 sales at once, each counted twice (webhook and success page), and one
// refund delivered twice: every sale counts once, the refund takes back
// exactly its split.
func TestCreatorLedgerCountsOnce(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	split := store.OrderSplit{CreatorID: "maker", FeeCents: 200, NetCents: 799}
	var wg sync.WaitGroup
	for i := range 20 {
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := st.CountCreatorSale(ctx, "cs_"+string(rune('a'+i)), domain.KindPrompt, "cp", split, 999)
				storetest.Must(t, err, "count sale")
			}()
		}
	}
	wg.Wait()
	storetest.Must(t, st.PutOrder(ctx, domain.Order{SessionID: "cs_x", UserID: "b", PromptID: "cp2", Amount: 1.01, Status: domain.OrderPaid, CreatedAt: time.Now().UTC().Format(time.RFC3339Nano)}), "order")
	other := store.OrderSplit{CreatorID: "maker", FeeCents: 20, NetCents: 81}
	if first, err := st.CountCreatorSale(ctx, "cs_x", domain.KindPrompt, "cp2", other, 101); err != nil || !first {
		t.Fatalf("a new sale: %v, %v", first, err)
	}
	for i, want := range []bool{true, false} {
		if first, err := st.CountCreatorRefund(ctx, "cs_a", domain.KindPrompt, "cp", split, 999); err != nil || first != want {
			t.Errorf("refund delivery %d: %v, %v; want %v", i, first, err, want)
		}
	}
	if first, err := st.CountCreatorRefund(ctx, "cs_never_sold", domain.KindPrompt, "cp", split, 999); err != nil || first {
		t.Errorf("refund of a sale never counted: %v, %v; want nothing taken back", first, err)
	}
	for range 2 { // one user's free use, counted once
		_, err := st.CountCreatorFreeUse(ctx, "maker", "cp", "user-free")
		storetest.Must(t, err, "free use")
	}
	total, prompts, err := st.CreatorLedgerOf(ctx, "maker")
	storetest.Must(t, err, "ledger")
	want := store.CreatorLedger{Sales: 21, GrossCents: 20*999 + 101, FeeCents: 19*200 + 20, NetCents: 19*799 + 81, RefundCents: 999, Refunded: 1, FreeUses: 1}
	if total != want {
		t.Errorf("totals = %+v; want %+v", total, want)
	}
	if len(prompts) != 2 || prompts[0].PromptID != "cp" || prompts[0].Sales != 20 || prompts[0].NetCents != 19*799 || prompts[0].FreeUses != 1 ||
		prompts[1].PromptID != "cp2" || prompts[1].NetCents != 81 {
		t.Errorf("prompts = %+v", prompts)
	}
	if total, prompts, err := st.CreatorLedgerOf(ctx, "nobody"); err != nil || total != (store.CreatorLedger{}) || len(prompts) != 0 {
		t.Errorf("an empty ledger: %+v %+v %v", total, prompts, err)
	}
}
