package payments

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/stripe/stripe-go/v84"
)

// HandleEvent applies one verified Stripe event. Types we do not use are
// ignored (nil); every handled type is idempotent.
func (f *Fulfiller) HandleEvent(ctx context.Context, provider string, ev stripe.Event) error {
	switch ev.Type {
	case stripe.EventTypeCheckoutSessionCompleted, stripe.EventTypeCheckoutSessionAsyncPaymentSucceeded:
		sess, err := sessionOf(ev)
		if err != nil {
			return err
		}
		if !sess.Paid() {
			return nil // a delayed payment method: async_payment_succeeded follows
		}
		_, err = f.Fulfil(ctx, provider, sess)
		if errors.Is(err, ErrRefunded) || errors.Is(err, ErrDuplicateRefunded) {
			return nil
		}
		return err
	case stripe.EventTypeCheckoutSessionAsyncPaymentFailed:
		sess, err := sessionOf(ev)
		if err != nil {
			return err
		}
		return f.Fail(ctx, sess.ID)
	case stripe.EventTypeCheckoutSessionExpired:
		sess, err := sessionOf(ev)
		if err != nil {
			return err
		}
		return f.Expire(ctx, sess.ID)
	case stripe.EventTypeChargeRefunded:
		var ch stripe.Charge
		if err := json.Unmarshal(ev.Data.Raw, &ch); err != nil {
			return fmt.Errorf("charge.refunded: %w", err)
		}
		if !ch.Refunded || ch.PaymentIntent == nil {
			slog.InfoContext(ctx, "partial refund keeps access", "charge", ch.ID)
			return nil
		}
		return f.Refund(ctx, ch.PaymentIntent.ID)
	}
	return nil
}

func sessionOf(ev stripe.Event) (Session, error) {
	var s stripe.CheckoutSession
	if err := json.Unmarshal(ev.Data.Raw, &s); err != nil {
		return Session{}, fmt.Errorf("%s: %w", ev.Type, err)
	}
	return fromStripe(&s), nil
}
