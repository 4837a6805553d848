package paymentsapi_test

import (
	"context"
	"net/http"
	"sync"
	"testing"

	"aiwork/shared/payments"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// 20 buyers pay for one creator's prompt at once through the local
// checkout: 20 sales in the creator's ledger, each split exactly; paying
// again (a second delivery) counts nothing; a refund, delivered twice,
// takes back exactly one sale's fee and net.
func TestConcurrentSalesFillTheLedger(t *testing.T) {
	t.Parallel()
	s := newFeeStack(t, 20, fixture("cp", 9.99))
	creator := s.sellerOf("ledger", true, "cp")
	urls := make([]string, 20)
	sids := make([]string, 20)
	for i := range urls {
		_, token := s.User("payer" + string(rune('a'+i)))
		co := s.checkout(token, "cp")
		urls[i], sids[i] = co.CheckoutURL, co.SessionID
	}
	var wg sync.WaitGroup
	codes := make([]int, 20)
	for i := range urls {
		wg.Add(1)
		go func() { defer wg.Done(); codes[i] = s.Do("POST", urls[i]+"/pay", "", "").Code }()
	}
	wg.Wait()
	for i, c := range codes {
		if c != http.StatusSeeOther {
			t.Fatalf("pay %d: %d", i, c)
		}
	}
	ctx := context.Background()
	f := payments.NewFulfiller(s.St, nil)
	for _, sid := range sids[:2] { // the success page runs fulfilment again
		sess, err := payments.NewLocal(s.St).GetSession(ctx, sid)
		storetest.Must(t, err, "session")
		if _, err := f.Fulfil(ctx, "local", sess); err != nil {
			t.Fatalf("fulfil again: %v", err)
		}
	}
	total, prompts, err := s.St.CreatorLedgerOf(ctx, creator)
	storetest.Must(t, err, "ledger")
	if want := (store.CreatorLedger{Sales: 20, GrossCents: 20 * 999, FeeCents: 20 * 200, NetCents: 20 * 799}); total != want {
		t.Errorf("after 20 sales: %+v; want %+v", total, want)
	}
	if len(prompts) != 1 || prompts[0].PromptID != "cp" || prompts[0].Sales != 20 || prompts[0].NetCents != 20*799 {
		t.Errorf("prompt counters: %+v", prompts)
	}
	order, err := s.St.GetOrder(ctx, sids[0])
	storetest.Must(t, err, "order")
	for range 2 {
		storetest.Must(t, f.Refund(ctx, order.PaymentIntent), "refund")
	}
	total, _, err = s.St.CreatorLedgerOf(ctx, creator)
	storetest.Must(t, err, "ledger")
	if want := (store.CreatorLedger{Sales: 20, GrossCents: 20 * 999, FeeCents: 19 * 200, NetCents: 19 * 799, RefundCents: 999, Refunded: 1}); total != want {
		t.Errorf("after a refund delivered twice: %+v; want %+v", total, want)
	}
}
