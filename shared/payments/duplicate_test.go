package payments_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/payments"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// paidSession is a second paid checkout session of the fixture's prompt.
func paidSession(sess payments.Session, suffix string) payments.Session {
	sess.ID += suffix
	sess.PaymentIntent += suffix
	return sess
}

// refundedCents sums the local provider's refunds of the sessions.
func refundedCents(t *testing.T, st *store.Store, sids ...string) (cents int64, count int) {
	t.Helper()
	for _, sid := range sids {
		refunds, err := st.LocalRefunds(context.Background(), sid)
		storetest.Must(t, err, "local refunds")
		for _, r := range refunds {
			cents += r.AmountCents
			count++
		}
	}
	return cents, count
}

// Two sessions for one prompt, both paid, their fulfilments racing and then
// retried (webhook retries, the success page): one ownership, one purchase,
// the other payment refunded once, and the net charge is the price once.
func TestSecondPaymentIsRefunded(t *testing.T) {
	t.Parallel()
	for _, order := range []string{"first-then-second", "concurrent"} {
		t.Run(order, func(t *testing.T) {
			t.Parallel()
			st, f, a := fulfilFixture(t)
			b := paidSession(a, "-b")
			ctx := context.Background()
			errs := make([]error, 2)
			if order == "concurrent" {
				var wg sync.WaitGroup
				for i, s := range []payments.Session{a, b} {
					wg.Go(func() { _, errs[i] = f.Fulfil(ctx, "local", s) })
				}
				wg.Wait()
			} else {
				_, errs[0] = f.Fulfil(ctx, "local", a)
				_, errs[1] = f.Fulfil(ctx, "local", b)
			}
			// Retries of both, in either order.
			for _, s := range []payments.Session{b, a, b} {
				_, err := f.Fulfil(ctx, "local", s)
				errs = append(errs, err)
			}
			dups := 0
			for _, err := range errs {
				if errors.Is(err, payments.ErrDuplicateRefunded) {
					dups++
				} else if err != nil {
					t.Fatalf("fulfil: %v", err)
				}
			}
			if dups == 0 {
				t.Fatal("no fulfilment reported the duplicate")
			}
			statuses := map[string]int{orderStatus(t, st, a.ID): 1}
			statuses[orderStatus(t, st, b.ID)]++
			if statuses[domain.OrderPaid] != 1 || statuses[domain.OrderRefunded] != 1 {
				t.Errorf("order statuses = %v, want one PAID and one REFUNDED", statuses)
			}
			if got := owned(t, st, "u1"); len(got) != 1 || got[0] != "p1" {
				t.Errorf("owned = %v, want [p1]", got)
			}
			if got := len(activitiesOf(t, st, "u1", domain.ActivityPurchase)); got != 1 {
				t.Errorf("%d purchase activities, want 1", got)
			}
			var dupActs []domain.Activity
			for _, act := range activitiesOf(t, st, "u1", domain.ActivityOther) {
				if act.Title == "Duplicate payment refunded" {
					dupActs = append(dupActs, act)
				}
			}
			if len(dupActs) != 1 || dupActs[0].Amount == nil || *dupActs[0].Amount != 12.5 {
				t.Errorf("duplicate activities = %+v, want one of 12.50", dupActs)
			}
			cents, count := refundedCents(t, st, a.ID, b.ID)
			if count != 1 || cents != 1250 {
				t.Errorf("refunds: %d totalling %d cents, want 1 of 1250", count, cents)
			}
			if net := 2*int64(1250) - cents; net != 1250 {
				t.Errorf("net charge = %d cents, want the price once (1250)", net)
			}
		})
	}
}

// Stripe reports our own duplicate refund as charge.refunded: the buyer
// keeps the prompt the first payment bought, with no "Purchase refunded".
func TestDuplicateRefundEventKeepsTheFirstPurchase(t *testing.T) {
	t.Parallel()
	st, f, a := fulfilFixture(t)
	b := paidSession(a, "-b")
	ctx := context.Background()
	if _, err := f.Fulfil(ctx, "stripe", a); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Fulfil(ctx, "stripe", b); !errors.Is(err, payments.ErrDuplicateRefunded) {
		t.Fatalf("second payment: %v, want ErrDuplicateRefunded", err)
	}
	if err := f.Refund(ctx, b.PaymentIntent); err != nil {
		t.Fatal(err)
	}
	if got := owned(t, st, "u1"); len(got) != 1 {
		t.Errorf("owned after the duplicate's refund event = %v, want [p1]", got)
	}
	for _, act := range activitiesOf(t, st, "u1", domain.ActivityOther) {
		if act.Title == "Purchase refunded" {
			t.Errorf("the duplicate's refund event recorded %+v", act)
		}
	}
	// A refund of the first payment (made at Stripe) does take it away.
	if err := f.Refund(ctx, a.PaymentIntent); err != nil {
		t.Fatal(err)
	}
	if got := owned(t, st, "u1"); len(got) != 0 {
		t.Errorf("owned after refunding the first payment = %v, want nothing", got)
	}
}

// A payment for a prompt the buyer used free meanwhile is refunded too.
func TestPaymentAfterFreeUseIsRefunded(t *testing.T) {
	t.Parallel()
	st, f, sess := fulfilFixture(t)
	ctx := context.Background()
	if _, _, err := st.ClaimFree(ctx, "u1", "p1", 5); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Fulfil(ctx, "local", sess); !errors.Is(err, payments.ErrDuplicateRefunded) {
		t.Fatalf("fulfil: %v, want ErrDuplicateRefunded", err)
	}
	if cents, count := refundedCents(t, st, sess.ID); count != 1 || cents != 1250 {
		t.Errorf("refunds: %d totalling %d cents, want 1 of 1250", count, cents)
	}
	if got := owned(t, st, "u1"); len(got) != 0 {
		t.Errorf("owned = %v, want nothing (the free use gives access)", got)
	}
}

// Once a prompt is owned, the buyer's other open sessions for it are
// expired at the provider and their orders EXPIRED: they cannot be paid.
func TestOwningExpiresOtherOpenSessions(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	ctx := context.Background()
	storetest.Must(t, st.PutPrompt(ctx, domain.Prompt{
		ID: "p1", Title: "Launch plan", Description: "d", Content: "full text", Price: 12.5,
		CategoryID: "business", CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
	}), "prompt")
	local := payments.NewLocal(st)
	f := payments.NewFulfiller(st, local)
	open := func(pid string) string {
		s, err := local.CreateCheckout(ctx, payments.CheckoutRequest{UserID: "u1", PromptID: pid, ProductName: "x", AmountCents: 1250, IdempotencyKey: pid})
		storetest.Must(t, err, "checkout")
		storetest.Must(t, st.PutOrder(ctx, domain.Order{
			SessionID: s.ID, UserID: "u1", PromptID: pid, PromptTitle: "x", Amount: 12.5, Status: domain.OrderPending,
			Provider: "local", CreatedAt: time.Now().UTC().Format(time.RFC3339Nano),
		}), "order")
		return s.ID
	}
	paid, other, otherPrompt := open("p1"), open("p1"), open("p2")
	ls, err := st.CompleteLocalSession(ctx, paid, "pi_paid")
	storetest.Must(t, err, "pay")
	if _, err := f.Fulfil(ctx, "local", payments.Session{
		ID: ls.ID, Status: ls.Status, PaymentStatus: ls.PaymentStatus, UserID: "u1", PromptID: "p1", AmountCents: 1250, PaymentIntent: "pi_paid",
	}); err != nil {
		t.Fatal(err)
	}
	if got := orderStatus(t, st, other); got != domain.OrderExpired {
		t.Errorf("other session's order = %s, want EXPIRED", got)
	}
	if s, _ := local.GetSession(ctx, other); s.Status != "expired" {
		t.Errorf("other session = %s, want expired at the provider", s.Status)
	}
	if got := orderStatus(t, st, otherPrompt); got != domain.OrderPending {
		t.Errorf("another prompt's session = %s, want it left PENDING", got)
	}
}
