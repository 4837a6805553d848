package payments_test

import (
	"context"
	"net/url"
	"testing"
	"time"

	"aiwork/shared/payments"
	"aiwork/shared/testbed/faultproxy"
)

// Stripe answering nothing (a silent port) fails the checkout after the
// bounded request and its one retry, not when the caller gives up; the
// same call works once Stripe answers again.
func TestStripeSilentIsBounded(t *testing.T) {
	t.Parallel()
	u, err := url.Parse(stripeMockURL(t))
	if err != nil {
		t.Fatal(err)
	}
	proxy := faultproxy.Start(t, u.Host)
	p := payments.NewStripeWithTimeout("sk_test_123", proxy.URL(), 300*time.Millisecond)
	proxy.Set(faultproxy.Silent)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	if _, err := p.CreateCheckout(ctx, checkoutRequest()); err == nil || ctx.Err() != nil {
		t.Fatalf("a silent Stripe: %v (caller's context: %v); want the provider's own timeout", err, ctx.Err())
	}
	proxy.Set(faultproxy.Pass)
	if sess, err := p.CreateCheckout(ctx, checkoutRequest()); err != nil || sess.ID == "" {
		t.Fatalf("after Stripe came back: %+v, %v", sess, err)
	}
}
