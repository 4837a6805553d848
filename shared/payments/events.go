package payments

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/stripe/stripe-go/v84"

	"aiwork/shared/store"
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
	case stripe.EventTypeAccountUpdated:
		acct, err := accountOf(ev)
		if err != nil {
			return err
		}
		return f.AccountUpdated(ctx, acct)
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

// RecordEvent notes a handled event on the order it is about, for the
// admins' order page (store.AddOrderEvent): a checkout session's events on
// its order, a charge's on the order its payment intent paid. Events about
// no order of ours, and types we do not use, are not recorded.
func (f *Fulfiller) RecordEvent(ctx context.Context, ev stripe.Event, received time.Time) error {
	var sid string
	switch ev.Type {
	case stripe.EventTypeCheckoutSessionCompleted, stripe.EventTypeCheckoutSessionAsyncPaymentSucceeded,
		stripe.EventTypeCheckoutSessionAsyncPaymentFailed, stripe.EventTypeCheckoutSessionExpired:
		sess, err := sessionOf(ev)
		if err != nil {
			return err
		}
		sid = sess.ID
	case stripe.EventTypeChargeRefunded:
		var ch stripe.Charge
		if err := json.Unmarshal(ev.Data.Raw, &ch); err != nil || ch.PaymentIntent == nil {
			return nil
		}
		o, err := f.st.OrderByPaymentIntent(ctx, ch.PaymentIntent.ID)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		sid = o.SessionID
	default:
		return nil
	}
	if _, err := f.st.GetOrder(ctx, sid); errors.Is(err, store.ErrNotFound) {
		return nil
	} else if err != nil {
		return err
	}
	return f.st.AddOrderEvent(ctx, sid, store.OrderEvent{ID: ev.ID, Type: string(ev.Type), ReceivedAt: received})
}
