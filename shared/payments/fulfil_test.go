package payments_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/payments"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// fulfilFixture is a store with one prompt, and a paid session that buys it.
func fulfilFixture(t *testing.T) (*store.Store, *payments.Fulfiller, payments.Session) {
	t.Helper()
	st := storetest.New(t)
	storetest.Must(t, st.PutPrompt(context.Background(), domain.Prompt{
		ID: "p1", Title: "Launch plan", Description: "d", Content: "full text", Price: 12.5,
		CategoryID: "business", CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
	}), "prompt")
	sess := payments.Session{
		ID: "cs_test_" + t.Name(), Status: "complete", PaymentStatus: "paid",
		UserID: "u1", PromptID: "p1", AmountCents: 1250, Currency: "usd", PaymentIntent: "pi_" + t.Name(),
	}
	return st, payments.NewFulfiller(st, payments.NewLocal(st)), sess
}

func activitiesOf(t *testing.T, st *store.Store, uid, typ string) []domain.Activity {
	t.Helper()
	acts, err := st.Activities(context.Background(), uid)
	storetest.Must(t, err, "activities")
	var out []domain.Activity
	for _, a := range acts {
		if a.Type == typ {
			out = append(out, a)
		}
	}
	return out
}

func owned(t *testing.T, st *store.Store, uid string) []string {
	t.Helper()
	ids, err := st.OwnedPromptIDs(context.Background(), uid)
	storetest.Must(t, err, "owned prompts")
	return ids
}

func orderStatus(t *testing.T, st *store.Store, sid string) string {
	t.Helper()
	o, err := st.GetOrder(context.Background(), sid)
	storetest.Must(t, err, "get order "+sid)
	return o.Status
}

// 30 concurrent fulfilments of one paid session (webhook, its retries and the
// success page at once) grant once. No order exists beforehand, so the order
// is also created concurrently from the session's metadata.
func TestFulfilConcurrentIsIdempotent(t *testing.T) {
	t.Parallel()
	st, f, sess := fulfilFixture(t)
	const n = 30
	orders := make([]domain.Order, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { orders[i], errs[i] = f.Fulfil(context.Background(), "stripe", sess) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("fulfil %d: %v", i, err)
		}
		if orders[i].PaidAt == "" || orders[i].PaidAt != orders[0].PaidAt {
			t.Errorf("fulfil %d paid_at = %q, want everyone to read the first %q", i, orders[i].PaidAt, orders[0].PaidAt)
		}
	}
	if got, want := owned(t, st, "u1"), []string{"p1"}; !slices.Equal(got, want) {
		t.Errorf("owned = %v, want %v", got, want)
	}
	acts := activitiesOf(t, st, "u1", domain.ActivityPurchase)
	if len(acts) != 1 {
		t.Fatalf("%d purchase activities, want 1: %+v", len(acts), acts)
	}
	if a := acts[0]; a.PromptTitle != "Launch plan" || a.Amount == nil || *a.Amount != 12.5 {
		t.Errorf("activity = %+v, want prompt_title Launch plan and amount 12.5", a)
	}
	o, err := st.GetOrder(context.Background(), sess.ID)
	storetest.Must(t, err, "order")
	want := domain.Order{
		SessionID: sess.ID, UserID: "u1", PromptID: "p1", PromptTitle: "Launch plan", Amount: 12.5,
		Status: domain.OrderPaid, Provider: "stripe", PaymentIntent: sess.PaymentIntent,
	}
	o.CreatedAt, o.PaidAt = "", ""
	if o != want {
		t.Errorf("order = %+v, want %+v", o, want)
	}
	byPI, err := st.OrderByPaymentIntent(context.Background(), sess.PaymentIntent)
	if err != nil || byPI.SessionID != sess.ID {
		t.Errorf("order by payment intent = %+v, %v; want session %s", byPI, err, sess.ID)
	}
}

func TestFulfilUnpaidSession(t *testing.T) {
	t.Parallel()
	tests := []struct{ status, paymentStatus string }{
		{"open", "unpaid"},
		{"complete", "unpaid"},
		{"expired", "unpaid"},
	}
	for _, tc := range tests {
		st, f, sess := fulfilFixture(t)
		sess.Status, sess.PaymentStatus = tc.status, tc.paymentStatus
		if _, err := f.Fulfil(context.Background(), "stripe", sess); !errors.Is(err, payments.ErrNotPaid) {
			t.Errorf("%s/%s: error = %v, want ErrNotPaid", tc.status, tc.paymentStatus, err)
		}
		if got := owned(t, st, "u1"); len(got) != 0 {
			t.Errorf("%s/%s: owned = %v, want nothing", tc.status, tc.paymentStatus, got)
		}
		if _, err := st.GetOrder(context.Background(), sess.ID); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s/%s: an order was stored (err %v)", tc.status, tc.paymentStatus, err)
		}
	}
}

func TestRefundThenFulfil(t *testing.T) {
	t.Parallel()
	st, f, sess := fulfilFixture(t)
	ctx := context.Background()
	if _, err := f.Fulfil(ctx, "stripe", sess); err != nil {
		t.Fatalf("fulfil: %v", err)
	}
	// Refunding twice (a retried event) is one refund.
	for range 2 {
		if err := f.Refund(ctx, sess.PaymentIntent); err != nil {
			t.Fatalf("refund: %v", err)
		}
	}
	if got := owned(t, st, "u1"); len(got) != 0 {
		t.Errorf("owned after refund = %v, want nothing", got)
	}
	if got := orderStatus(t, st, sess.ID); got != domain.OrderRefunded {
		t.Errorf("order status = %s, want %s", got, domain.OrderRefunded)
	}
	refunds := activitiesOf(t, st, "u1", domain.ActivityOther)
	if len(refunds) != 1 || refunds[0].PromptTitle != "Launch plan" || refunds[0].Amount == nil || *refunds[0].Amount != 12.5 {
		t.Errorf("refund activities = %+v, want one for Launch plan, 12.5", refunds)
	}

	// A late or replayed fulfilment does not give the prompt back.
	o, err := f.Fulfil(ctx, "stripe", sess)
	if !errors.Is(err, payments.ErrRefunded) {
		t.Errorf("fulfil after refund: error = %v, want ErrRefunded", err)
	}
	if o.Status != domain.OrderRefunded {
		t.Errorf("fulfil after refund answered order %+v, want it REFUNDED", o)
	}
	if got := owned(t, st, "u1"); len(got) != 0 {
		t.Errorf("owned after refund and fulfil = %v, want nothing", got)
	}
	if got := orderStatus(t, st, sess.ID); got != domain.OrderRefunded {
		t.Errorf("order status = %s, want %s", got, domain.OrderRefunded)
	}
	if got := len(activitiesOf(t, st, "u1", domain.ActivityPurchase)); got != 1 {
		t.Errorf("%d purchase activities, want 1", got)
	}

	// A refund for a payment we never saw changes nothing.
	if err := f.Refund(ctx, "pi_unknown"); err != nil {
		t.Errorf("refund of an unknown payment: %v", err)
	}
}

// Expire and Fail move only a pending order; an order already paid (or an
// unknown one) is left alone.
func TestExpireAndFail(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		paid   bool
		action func(f *payments.Fulfiller, ctx context.Context, sid string) error
		want   string
	}{
		{"expire pending", false, (*payments.Fulfiller).Expire, domain.OrderExpired},
		{"fail pending", false, (*payments.Fulfiller).Fail, domain.OrderFailed},
		{"expire paid", true, (*payments.Fulfiller).Expire, domain.OrderPaid},
		{"fail paid", true, (*payments.Fulfiller).Fail, domain.OrderPaid},
	}
	for _, tc := range tests {
		st, f, sess := fulfilFixture(t)
		ctx := context.Background()
		storetest.Must(t, st.PutOrder(ctx, domain.Order{
			SessionID: sess.ID, UserID: "u1", PromptID: "p1", PromptTitle: "Launch plan", Amount: 12.5,
			Status: domain.OrderPending, Provider: "stripe", CreatedAt: time.Now().UTC().Format(time.RFC3339Nano),
		}), "order")
		if tc.paid {
			if _, err := f.Fulfil(ctx, "stripe", sess); err != nil {
				t.Fatalf("%s: fulfil: %v", tc.name, err)
			}
		}
		if err := tc.action(f, ctx, sess.ID); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
		if got := orderStatus(t, st, sess.ID); got != tc.want {
			t.Errorf("%s: status = %s, want %s", tc.name, got, tc.want)
		}
		if got, want := len(owned(t, st, "u1")) == 1, tc.paid; got != want {
			t.Errorf("%s: owns = %v, want %v", tc.name, got, want)
		}
		if err := tc.action(f, ctx, "cs_unknown"); err != nil {
			t.Errorf("%s on an unknown session: %v", tc.name, err)
		}
	}
}
