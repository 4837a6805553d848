package payments_test

import (
	"testing"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/payments"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

func TestSplitSaleRoundsTheFeeHalfUp(t *testing.T) {
	for _, c := range []struct {
		price    int64
		percent  int
		fee, net int64
	}{
		{99, 20, 20, 79},    // 19.8 ¢ → 20 ¢
		{101, 20, 20, 81},   // 20.2 ¢ → 20 ¢
		{999, 20, 200, 799}, // 199.8 ¢ → 200 ¢
		{99, 15, 15, 84},    // 14.85 ¢ → 15 ¢
		{101, 15, 15, 86},   // 15.15 ¢ → 15 ¢
		{999, 15, 150, 849}, // 149.85 ¢ → 150 ¢
		{10, 15, 2, 8},      // 1.5 ¢ → 2 ¢: half up
		{30, 5, 2, 28},      // 1.5 ¢ → 2 ¢
		{1000, 20, 200, 800},
		{1, 20, 0, 1},
		{0, 20, 0, 0},
		{999, 0, 0, 999},
		{999, 100, 999, 0},
	} {
		got, err := payments.SplitSale(c.price, c.percent)
		if err != nil || got.FeeCents != c.fee || got.NetCents != c.net || got.PriceCents != c.price {
			t.Errorf("SplitSale(%d, %d) = %+v, %v; want fee %d net %d", c.price, c.percent, got, err, c.fee, c.net)
		}
	}
	// Fee and net always add up to the price, whatever the price.
	for _, percent := range []int{0, 1, 15, 20, 33, 50, 99, 100} {
		for price := int64(0); price <= 2000; price++ {
			s, _ := payments.SplitSale(price, percent)
			if s.FeeCents+s.NetCents != price || s.FeeCents < 0 || s.NetCents < 0 {
				t.Fatalf("SplitSale(%d, %d) = %+v: does not add up", price, percent, s)
			}
		}
	}
	for _, bad := range []struct {
		price   int64
		percent int
	}{{-1, 20}, {100, -1}, {100, 101}} {
		if _, err := payments.SplitSale(bad.price, bad.percent); err == nil {
			t.Errorf("SplitSale(%d, %d) accepted", bad.price, bad.percent)
		}
	}
}

// A creator's sale is a destination charge: Stripe is told the fee and the
// creator's account (stripe-mock checks the shapes); the platform's own
// prompts carry neither.
func TestStripeCheckoutSplitsACreatorsSale(t *testing.T) {
	t.Parallel()
	proxy := newRecordingProxy(t)
	p := payments.NewStripe("sk_test_123", proxy.srv.URL)
	req := checkoutRequest()
	req.AmountCents = 999
	split, _ := payments.SplitSale(999, 20)
	req.Destination, req.ApplicationFeeCents = "acct_creator_1", split.FeeCents
	if _, err := p.CreateCheckout(t.Context(), req); err != nil {
		t.Fatalf("create checkout: %v", err)
	}
	form := proxy.last(t).form
	if form.Get("payment_intent_data[application_fee_amount]") != "200" ||
		form.Get("payment_intent_data[transfer_data][destination]") != "acct_creator_1" {
		t.Errorf("a creator's sale sent %v; want a 200 ¢ fee and the creator's account", form)
	}
	if _, err := p.CreateCheckout(t.Context(), checkoutRequest()); err != nil {
		t.Fatalf("create checkout: %v", err)
	}
	form = proxy.last(t).form
	if form.Has("payment_intent_data[application_fee_amount]") || form.Has("payment_intent_data[transfer_data][destination]") {
		t.Errorf("the platform's own sale sent a split: %v", form)
	}
}

// Refunding a creator's sale takes back the creator's transfer and the
// platform's fee in the same refund; the platform's own sale is refunded
// as before.
func TestRefundOfACreatorsSaleReversesTheSplit(t *testing.T) {
	t.Parallel()
	proxy := newRecordingProxy(t)
	st := storetest.New(t)
	f := payments.NewFulfiller(st, payments.NewStripe("sk_test_123", proxy.srv.URL))
	ctx := t.Context()
	order := domain.Order{SessionID: "cs_split_refund", UserID: "buyer", PromptID: "cp", PaymentIntent: "pi_split_refund", Amount: 9.99,
		Status: domain.OrderPaid, Provider: "stripe", CreatedAt: time.Now().UTC().Format(time.RFC3339Nano)}
	storetest.Must(t, st.PutOrder(ctx, order), "put order")
	storetest.Must(t, st.SetOrderSplit(ctx, order.SessionID, store.OrderSplit{CreatorID: "maker", FeeCents: 200, NetCents: 799}), "split")
	if err := f.RefundAtProvider(ctx, order); err != nil {
		t.Fatalf("refund: %v", err)
	}
	if form := proxy.last(t).form; form.Get("reverse_transfer") != "true" || form.Get("refund_application_fee") != "true" {
		t.Errorf("a creator's refund sent %v; want reverse_transfer and refund_application_fee", form)
	}
	own := domain.Order{SessionID: "cs_own_refund", PaymentIntent: "pi_own_refund", Amount: 5, Status: domain.OrderPaid}
	if err := f.RefundAtProvider(ctx, own); err != nil {
		t.Fatalf("refund: %v", err)
	}
	if form := proxy.last(t).form; form.Has("reverse_transfer") || form.Has("refund_application_fee") {
		t.Errorf("the platform's own refund sent %v", form)
	}
}
