package payments

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/store"
)

var (
	// ErrNotPaid is a session whose money has not arrived.
	ErrNotPaid = errors.New("checkout session is not paid")
	// ErrRefunded is an order that was paid and then refunded.
	ErrRefunded = errors.New("order was refunded")
	// ErrDuplicateRefunded is a payment for a prompt the buyer already had
	// (bought in another checkout, or used free): it was refunded and the
	// buyer keeps the prompt.
	ErrDuplicateRefunded = errors.New("duplicate payment refunded")
)

// Fulfiller grants what was paid for. Every step is one conditional,
// idempotent write, so the webhook, its retries and the success page may all
// run it at once and the result is one ownership and one activity. A second
// payment for a prompt already owned is refunded through the provider, so
// one prompt costs its price once whatever the order of events.
type Fulfiller struct {
	st       *store.Store
	provider Provider
	now      func() time.Time
}

// NewFulfiller makes the fulfiller; provider refunds duplicate payments and
// expires the buyer's other open sessions for a prompt once it is owned.
func NewFulfiller(st *store.Store, provider Provider) *Fulfiller {
	return &Fulfiller{st: st, provider: provider, now: time.Now}
}

// Fulfil grants the prompt of a paid session and answers its order.
func (f *Fulfiller) Fulfil(ctx context.Context, provider string, sess Session) (domain.Order, error) {
	if !sess.Paid() {
		return domain.Order{}, ErrNotPaid
	}
	if err := f.ensureOrder(ctx, provider, sess); err != nil {
		return domain.Order{}, err
	}
	order, err := f.st.MarkOrderPaid(ctx, sess.ID, sess.PaymentIntent, f.now())
	if errors.Is(err, store.ErrOrderState) {
		order, _ = f.st.GetOrder(ctx, sess.ID)
		if order.RefundReason == domain.RefundDuplicate {
			return order, ErrDuplicateRefunded
		}
		return order, ErrRefunded
	}
	if err != nil {
		return domain.Order{}, fmt.Errorf("fulfil: %w", err)
	}
	granted, err := f.grant(ctx, order)
	if err != nil {
		return domain.Order{}, err
	}
	if !granted {
		return f.refundDuplicate(ctx, order)
	}
	if err := f.countSale(ctx, order); err != nil {
		return domain.Order{}, err
	}
	paidAt, _ := time.Parse(time.RFC3339Nano, order.PaidAt)
	amount := order.Amount
	if err := f.st.AddActivity(ctx, order.UserID, domain.Activity{
		ID: "purchase-" + order.SessionID, Type: domain.ActivityPurchase, Title: "Purchased " + article(order.Kind),
		Description: fmt.Sprintf("Bought \"%s\" for $%.2f.", order.PromptTitle, order.Amount),
		Amount:      &amount, PromptTitle: order.PromptTitle, CreatedAt: paidAt,
	}); err != nil {
		return domain.Order{}, fmt.Errorf("fulfil: %w", err)
	}
	// A refund that landed between our paid mark and the grant wins.
	if now, err := f.st.GetOrder(ctx, sess.ID); err == nil && now.Status == domain.OrderRefunded {
		if err := f.st.RevokeOwnership(ctx, now.UserID, now.PromptID, now.SessionID); err != nil {
			return domain.Order{}, fmt.Errorf("fulfil: %w", err)
		}
		return now, ErrRefunded
	}
	if err := f.expireOthers(ctx, order); err != nil {
		return domain.Order{}, err
	}
	return order, nil
}

// grant gives the order's buyer the prompt (or agent), and reports false
// when the buyer already had it another way: a free use of a prompt, or an
// ownership from another order. The ownership is one conditional write, so of two payments racing
// for one prompt exactly one is granted; a re-run finds its own order's.
func (f *Fulfiller) grant(ctx context.Context, order domain.Order) (bool, error) {
	if order.Kind != domain.KindAgent { // agents have no free uses
		free, err := f.st.FreeStatus(ctx, order.UserID, 0)
		if err != nil {
			return false, fmt.Errorf("fulfil: %w", err)
		}
		if slices.Contains(free.PromptIDs, order.PromptID) {
			return false, nil
		}
	}
	paidAt, _ := time.Parse(time.RFC3339Nano, order.PaidAt)
	created, err := f.st.GrantOwnership(ctx, order.UserID, domain.Ownership{
		PromptID: order.PromptID, Source: domain.SourcePurchase, OrderID: order.SessionID, Amount: order.Amount, CreatedAt: paidAt,
		Kind: order.Kind,
	})
	if err != nil || created {
		return created, err
	}
	own, err := f.st.OwnershipOf(ctx, order.UserID, order.PromptID)
	if err != nil {
		return false, fmt.Errorf("fulfil: %w", err)
	}
	return own.OrderID == order.SessionID, nil
}

// refundDuplicate gives back a payment for a prompt the buyer already had.
// The idempotency key is the session's, so retries refund once.
func (f *Fulfiller) refundDuplicate(ctx context.Context, order domain.Order) (domain.Order, error) {
	if f.provider == nil {
		return domain.Order{}, fmt.Errorf("fulfil %s: duplicate payment and no provider to refund it", order.SessionID)
	}
	split, serr := f.isSplit(ctx, order.SessionID)
	if serr != nil {
		return domain.Order{}, serr
	}
	if _, err := f.provider.Refund(ctx, RefundRequest{
		SessionID: order.SessionID, PaymentIntent: order.PaymentIntent,
		AmountCents: int64(math.Round(order.Amount * 100)), IdempotencyKey: "duplicate-refund-" + order.SessionID, Reason: RefundDuplicate,
		Split: split,
	}); err != nil {
		return domain.Order{}, fmt.Errorf("refund duplicate %s: %w", order.SessionID, err)
	}
	order, err := f.st.MarkOrderRefunded(ctx, order.SessionID, domain.RefundDuplicate, f.now())
	if err != nil {
		return domain.Order{}, fmt.Errorf("refund duplicate %s: %w", order.SessionID, err)
	}
	refundedAt, _ := time.Parse(time.RFC3339Nano, order.RefundedAt)
	amount := order.Amount
	if err := f.st.AddActivity(ctx, order.UserID, domain.Activity{
		ID: "duplicate-refund-" + order.SessionID, Type: domain.ActivityOther, Title: DuplicateRefundedTitle,
		Description: fmt.Sprintf("You already had \"%s\", so this second payment of $%.2f was refunded.", order.PromptTitle, order.Amount),
		Amount:      &amount, PromptTitle: order.PromptTitle, CreatedAt: refundedAt,
	}); err != nil {
		return domain.Order{}, fmt.Errorf("refund duplicate %s: %w", order.SessionID, err)
	}
	slog.InfoContext(ctx, "duplicate payment refunded", "session", order.SessionID, "item", order.PromptID, "kind", domain.KindOf(order.Kind))
	return order, ErrDuplicateRefunded
}

// DuplicateRefundedTitle is the dashboard activity of a refunded duplicate.
const DuplicateRefundedTitle = "Duplicate payment refunded"

// expireOthers closes the buyer's other open checkouts for the prompt now
// that it is owned, so none of them can be paid by mistake, and removes the
// reusable-checkout record.
func (f *Fulfiller) expireOthers(ctx context.Context, order domain.Order) error {
	pending, err := f.st.PendingOrders(ctx, order.UserID, order.PromptID)
	if err != nil {
		return err
	}
	for _, o := range pending {
		if o.SessionID == order.SessionID || f.provider == nil {
			continue
		}
		if err := f.provider.ExpireSession(ctx, o.SessionID); err != nil {
			return fmt.Errorf("expire %s: %w", o.SessionID, err)
		}
		if err := f.Expire(ctx, o.SessionID); err != nil {
			return err
		}
	}
	if rec, err := f.st.GetOpenCheckout(ctx, order.UserID, order.PromptID); err == nil {
		return f.st.ReleaseCheckout(ctx, order.UserID, order.PromptID, rec.Token)
	} else if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	return nil
}

// ensureOrder stores the order when the event came before our own record
// of the checkout (or the checkout was made elsewhere), from the session's
// metadata: the buyer, the prompt or agent, and its kind.
func (f *Fulfiller) ensureOrder(ctx context.Context, provider string, sess Session) error {
	_, err := f.st.GetOrder(ctx, sess.ID)
	if err == nil || !errors.Is(err, store.ErrNotFound) {
		return err
	}
	if sess.UserID == "" || sess.PromptID == "" {
		return fmt.Errorf("fulfil %s: session has no user_id/prompt_id metadata", sess.ID)
	}
	item, err := f.st.Sellable(ctx, sess.Kind, sess.PromptID)
	if errors.Is(err, store.ErrNotFound) && sess.Kind == "" {
		// A session whose kind did not come back (a stand-in that keeps
		// only user_id and prompt_id): no prompt has an agent's id.
		item, err = f.st.Sellable(ctx, domain.KindAgent, sess.PromptID)
	}
	if err != nil {
		return fmt.Errorf("fulfil %s: %w", sess.ID, err)
	}
	return f.st.PutOrder(ctx, domain.Order{
		SessionID: sess.ID, UserID: sess.UserID, PromptID: item.ID, PromptTitle: item.Title,
		Amount: float64(sess.AmountCents) / 100, Status: domain.OrderPending, Provider: provider,
		CreatedAt: f.now().UTC().Format(time.RFC3339Nano), Kind: domain.StoredKind(item.Kind),
	})
}

// Expire marks a still-pending order expired; later states are kept (an
// expiry that arrives after payment changes nothing).
func (f *Fulfiller) Expire(ctx context.Context, sid string) error {
	return ignoreState(f.st.SetOrderStatus(ctx, sid, domain.OrderExpired, domain.OrderPending))
}

// Fail marks a pending order whose delayed payment failed.
func (f *Fulfiller) Fail(ctx context.Context, sid string) error {
	return ignoreState(f.st.SetOrderStatus(ctx, sid, domain.OrderFailed, domain.OrderPending))
}

// Refund takes access away after a full refund made at the provider (its
// charge.refunded event): the order becomes REFUNDED, the ownership is
// removed and an activity says so. Partial refunds keep access. Idempotent.
func (f *Fulfiller) Refund(ctx context.Context, paymentIntent string) error {
	order, err := f.st.OrderByPaymentIntent(ctx, paymentIntent)
	if errors.Is(err, store.ErrNotFound) {
		slog.WarnContext(ctx, "refund for an unknown payment", "payment_intent", paymentIntent)
		return nil
	}
	if err != nil {
		return err
	}
	order, err = f.st.MarkOrderRefunded(ctx, order.SessionID, "", f.now())
	if errors.Is(err, store.ErrOrderState) {
		slog.WarnContext(ctx, "refund for an order that was never paid", "payment_intent", paymentIntent)
		return nil
	}
	if err != nil {
		return err
	}
	if order.RefundReason == domain.RefundDuplicate {
		return nil // our own refund of a second payment: already recorded
	}
	return f.takeBack(ctx, order)
}

// RefundAtProvider returns a paid order's whole payment through the
// provider, as an admin asked (reason RefundRequested). The idempotency
// key is the order's id, so a retry, or a second click, is the same
// refund. RefundOrder then records it.
func (f *Fulfiller) RefundAtProvider(ctx context.Context, order domain.Order) error {
	if f.provider == nil {
		return fmt.Errorf("refund %s: no payments provider", order.SessionID)
	}
	split, err := f.isSplit(ctx, order.SessionID)
	if err != nil {
		return err
	}
	if _, err := f.provider.Refund(ctx, RefundRequest{
		SessionID: order.SessionID, PaymentIntent: order.PaymentIntent, AmountCents: int64(math.Round(order.Amount * 100)),
		IdempotencyKey: order.SessionID, Reason: RefundRequested, Split: split,
	}); err != nil {
		return fmt.Errorf("refund %s: %w", order.SessionID, err)
	}
	return nil
}

// RefundOrder records the full refund of order sid made at the provider
// (RefundAtProvider): REFUNDED with reason (the first one stays), the
// ownership it granted removed, the buyer told. Idempotent: the provider's
// charge.refunded event that follows, or a retry, changes nothing more.
// ErrOrderState (store) when the order was never paid.
func (f *Fulfiller) RefundOrder(ctx context.Context, sid, reason string) (domain.Order, error) {
	order, err := f.st.MarkOrderRefunded(ctx, sid, reason, f.now())
	if err != nil {
		return order, err
	}
	return order, f.takeBack(ctx, order)
}

// takeBack removes the ownership a refunded order granted and tells the
// buyer. The first refund's time keys the activity, so a re-run writes
// nothing.
func (f *Fulfiller) takeBack(ctx context.Context, order domain.Order) error {
	if err := f.st.RevokeOwnership(ctx, order.UserID, order.PromptID, order.SessionID); err != nil {
		return err
	}
	if err := f.countRefund(ctx, order); err != nil {
		return err
	}
	refundedAt, _ := time.Parse(time.RFC3339Nano, order.RefundedAt)
	amount := order.Amount
	gone := "the prompt is no longer in your library."
	if order.Kind == domain.KindAgent {
		gone = "you can no longer chat with the agent."
	}
	return f.st.AddActivity(ctx, order.UserID, domain.Activity{
		ID: "refund-" + order.SessionID, Type: domain.ActivityOther, Title: "Purchase refunded",
		Description: fmt.Sprintf("Your purchase of \"%s\" was refunded; %s", order.PromptTitle, gone),
		Amount:      &amount, PromptTitle: order.PromptTitle, CreatedAt: refundedAt,
	})
}

// article names what an order bought in the buyer's activity: "a prompt"
// or "an agent".
func article(kind string) string {
	if kind == domain.KindAgent {
		return "an agent"
	}
	return "a prompt"
}

func ignoreState(err error) error {
	if errors.Is(err, store.ErrOrderState) || errors.Is(err, store.ErrNotFound) {
		return nil
	}
	return err
}
