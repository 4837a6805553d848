package payments_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"aiwork/shared/domain"
	"aiwork/shared/payments"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// An admin's refund on the local checkout: one refund at the provider for
// the order's id as its idempotency key, however often it is asked; the
// order REFUNDED with the admin's reason, the ownership gone, the buyer
// told once; the provider's charge.refunded that follows changes nothing.
func TestAdminRefundLocal(t *testing.T) {
	t.Parallel()
	st, f, sess := fulfilFixture(t)
	ctx := context.Background()
	order, err := f.Fulfil(ctx, "local", sess)
	storetest.Must(t, err, "fulfil")
	for range 2 {
		storetest.Must(t, f.RefundAtProvider(ctx, order), "refund at the provider")
		got, err := f.RefundOrder(ctx, sess.ID, "asked by the buyer")
		storetest.Must(t, err, "record refund")
		if got.Status != domain.OrderRefunded || got.RefundReason != "asked by the buyer" || got.RefundedAt == "" {
			t.Errorf("refunded order %+v", got)
		}
	}
	storetest.Must(t, f.Refund(ctx, sess.PaymentIntent), "charge.refunded after it")
	refunds, err := st.LocalRefunds(ctx, sess.ID)
	if err != nil || len(refunds) != 1 || refunds[0].IdemKey != sess.ID || refunds[0].Reason != payments.RefundRequested || refunds[0].AmountCents != 1250 {
		t.Fatalf("local refunds = %+v, %v; want one of 1250 keyed by the order's id, requested_by_customer", refunds, err)
	}
	if got := owned(t, st, "u1"); len(got) != 0 {
		t.Errorf("owned after refund = %v", got)
	}
	if acts := activitiesOf(t, st, "u1", domain.ActivityOther); len(acts) != 1 || acts[0].Title != "Purchase refunded" {
		t.Errorf("refund activities = %+v, want one", acts)
	}
	// A pending order was never paid: nothing to record.
	storetest.Must(t, st.PutOrder(ctx, domain.Order{SessionID: "cs_pending", UserID: "u1", PromptID: "p1", Status: domain.OrderPending, CreatedAt: "2026-01-01T00:00:00Z"}), "pending order")
	if _, err := f.RefundOrder(ctx, "cs_pending", ""); !errors.Is(err, store.ErrOrderState) {
		t.Errorf("refund of a pending order: %v, want ErrOrderState", err)
	}
}

// An admin's refund through Stripe: POST /v1/refunds for the payment
// intent, reason requested_by_customer, the order's id as the
// Idempotency-Key (stripe-mock checks the parameters against Stripe's API).
func TestAdminRefundStripe(t *testing.T) {
	t.Parallel()
	proxy := newRecordingProxy(t)
	st := storetest.New(t)
	f := payments.NewFulfiller(st, payments.NewStripe("sk_test_123", proxy.srv.URL))
	order := domain.Order{SessionID: "cs_test_admin", PaymentIntent: "pi_test_admin", Amount: 12.5, Status: domain.OrderPaid}
	if err := f.RefundAtProvider(t.Context(), order); err != nil {
		t.Fatalf("refund: %v (stripe-mock refused our parameters?)", err)
	}
	req := proxy.last(t)
	if req.method != http.MethodPost || req.path != "/v1/refunds" {
		t.Errorf("request = %s %s, want POST /v1/refunds", req.method, req.path)
	}
	if got := req.header.Get("Idempotency-Key"); got != "cs_test_admin" {
		t.Errorf("Idempotency-Key = %q, want the order's id", got)
	}
	for k, v := range map[string]string{"payment_intent": "pi_test_admin", "reason": "requested_by_customer", "metadata[session_id]": "cs_test_admin"} {
		if got := req.form.Get(k); got != v {
			t.Errorf("param %s = %q, want %q", k, got, v)
		}
	}
}
