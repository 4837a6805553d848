package payments

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/store"
)

var (
	// ErrNotPaid is a session whose money has not arrived.
	ErrNotPaid = errors.New("checkout session is not paid")
	// ErrRefunded is an order that was paid and then refunded.
	ErrRefunded = errors.New("order was refunded")
)

// Fulfiller grants what was paid for. Every step is one conditional,
// idempotent write, so the webhook, its retries and the success page may all
// run it at once and the result is one ownership and one activity.
type Fulfiller struct {
	st  *store.Store
	now func() time.Time
}

// NewFulfiller makes the fulfiller.
func NewFulfiller(st *store.Store) *Fulfiller { return &Fulfiller{st: st, now: time.Now} }

// Fulfil grants the prompt of a paid session and answers its order.
func (f *Fulfiller) Fulfil(ctx context.Context, provider string, sess Session) (store.Order, error) {
	if !sess.Paid() {
		return store.Order{}, ErrNotPaid
	}
	if err := f.ensureOrder(ctx, provider, sess); err != nil {
		return store.Order{}, err
	}
	order, err := f.st.MarkOrderPaid(ctx, sess.ID, sess.PaymentIntent, f.now())
	if errors.Is(err, store.ErrOrderState) {
		order, _ = f.st.GetOrder(ctx, sess.ID)
		return order, ErrRefunded
	}
	if err != nil {
		return store.Order{}, fmt.Errorf("fulfil: %w", err)
	}
	paidAt, _ := time.Parse(time.RFC3339Nano, order.PaidAt)
	if _, err := f.st.GrantOwnership(ctx, order.UserID, domain.Ownership{
		PromptID: order.PromptID, Source: domain.SourcePurchase, OrderID: order.SessionID, Amount: order.Amount, CreatedAt: paidAt,
	}); err != nil {
		return store.Order{}, fmt.Errorf("fulfil: %w", err)
	}
	amount := order.Amount
	if err := f.st.AddActivity(ctx, order.UserID, domain.Activity{
		ID: "purchase-" + order.SessionID, Type: domain.ActivityPurchase, Title: "Purchased a prompt",
		Description: fmt.Sprintf("Bought \"%s\" for $%.2f.", order.PromptTitle, order.Amount),
		Amount:      &amount, PromptTitle: order.PromptTitle, CreatedAt: paidAt,
	}); err != nil {
		return store.Order{}, fmt.Errorf("fulfil: %w", err)
	}
	// A refund that landed between our paid mark and the grant wins.
	if now, err := f.st.GetOrder(ctx, sess.ID); err == nil && now.Status == store.OrderRefunded {
		if err := f.st.RevokeOwnership(ctx, now.UserID, now.PromptID); err != nil {
			return store.Order{}, fmt.Errorf("fulfil: %w", err)
		}
		return now, ErrRefunded
	}
	return order, nil
}

// ensureOrder stores the order when the event came before our own record
// of the checkout (or the checkout was made elsewhere), from the session's
// metadata.
func (f *Fulfiller) ensureOrder(ctx context.Context, provider string, sess Session) error {
	_, err := f.st.GetOrder(ctx, sess.ID)
	if err == nil || !errors.Is(err, store.ErrNotFound) {
		return err
	}
	if sess.UserID == "" || sess.PromptID == "" {
		return fmt.Errorf("fulfil %s: session has no user_id/prompt_id metadata", sess.ID)
	}
	p, err := f.st.GetPrompt(ctx, sess.PromptID)
	if err != nil {
		return fmt.Errorf("fulfil %s: %w", sess.ID, err)
	}
	return f.st.PutOrder(ctx, store.Order{
		SessionID: sess.ID, UserID: sess.UserID, PromptID: p.ID, PromptTitle: p.Title,
		Amount: float64(sess.AmountCents) / 100, Status: store.OrderPending, Provider: provider,
		CreatedAt: f.now().UTC().Format(time.RFC3339Nano),
	})
}

// Expire marks a still-pending order expired; later states are kept (an
// expiry that arrives after payment changes nothing).
func (f *Fulfiller) Expire(ctx context.Context, sid string) error {
	return ignoreState(f.st.SetOrderStatus(ctx, sid, store.OrderExpired, store.OrderPending))
}

// Fail marks a pending order whose delayed payment failed.
func (f *Fulfiller) Fail(ctx context.Context, sid string) error {
	return ignoreState(f.st.SetOrderStatus(ctx, sid, store.OrderFailed, store.OrderPending))
}

// Refund takes access away after a full refund: the order becomes REFUNDED,
// the ownership is removed and an activity says so. Partial refunds keep
// access. Idempotent.
func (f *Fulfiller) Refund(ctx context.Context, paymentIntent string) error {
	order, err := f.st.OrderByPaymentIntent(ctx, paymentIntent)
	if errors.Is(err, store.ErrNotFound) {
		slog.WarnContext(ctx, "refund for an unknown payment", "payment_intent", paymentIntent)
		return nil
	}
	if err != nil {
		return err
	}
	order, err = f.st.MarkOrderRefunded(ctx, order.SessionID, f.now())
	if errors.Is(err, store.ErrOrderState) {
		slog.WarnContext(ctx, "refund for an order that was never paid", "payment_intent", paymentIntent)
		return nil
	}
	if err != nil {
		return err
	}
	if err := f.st.RevokeOwnership(ctx, order.UserID, order.PromptID); err != nil {
		return err
	}
	// The first refund's time keys the activity, so a re-run writes nothing.
	refundedAt, _ := time.Parse(time.RFC3339Nano, order.RefundedAt)
	amount := order.Amount
	return f.st.AddActivity(ctx, order.UserID, domain.Activity{
		ID: "refund-" + order.SessionID, Type: domain.ActivityOther, Title: "Purchase refunded",
		Description: fmt.Sprintf("Your purchase of \"%s\" was refunded; the prompt is no longer in your library.", order.PromptTitle),
		Amount:      &amount, PromptTitle: order.PromptTitle, CreatedAt: refundedAt,
	})
}

func ignoreState(err error) error {
	if errors.Is(err, store.ErrOrderState) || errors.Is(err, store.ErrNotFound) {
		return nil
	}
	return err
}
