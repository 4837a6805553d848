// Package payments sells prompts: a checkout provider (Stripe, or the local
// test checkout when no Stripe key is set), and the one idempotent fulfilment
// that both the webhook and the success page run.
package payments

import (
	"context"
	"errors"

	"aiwork/shared/domain"
	"aiwork/shared/store"
)

// CheckoutRequest is one prompt (or agent) bought by one user.
type CheckoutRequest struct {
	UserID string
	// PromptID is the prompt's id, or the agent's when Kind is
	// domain.KindAgent (stored as the session's "kind" metadata; "" a
	// prompt).
	PromptID       string
	Kind           string
	ProductName    string
	AmountCents    int64
	SuccessURL     string // contains {CHECKOUT_SESSION_ID}
	CancelURL      string
	IdempotencyKey string
	// Destination is the creator's connected account for a creator's
	// prompt ("" for the platform's own): a destination charge, of which
	// the platform keeps ApplicationFeeCents (SplitSale).
	Destination         string
	ApplicationFeeCents int64
}

// metadata is what the session (and its payment) carries for fulfilment:
// the buyer, the item and, for an agent, its kind.
func (r CheckoutRequest) metadata() map[string]string {
	m := map[string]string{"user_id": r.UserID, "prompt_id": r.PromptID}
	if k := domain.StoredKind(r.Kind); k != "" {
		m["kind"] = k
	}
	return m
}

// Session is a checkout session as the provider reports it.
type Session struct {
	ID            string
	URL           string
	Status        string // open | complete | expired
	PaymentStatus string // paid | unpaid | no_payment_required
	UserID        string
	PromptID      string
	Kind          string // its "kind" metadata: "" a prompt (or a session from before agents)
	AmountCents   int64
	Currency      string
	PaymentIntent string
}

// Paid reports whether the money has arrived.
func (s Session) Paid() bool {
	return s.Status == "complete" && (s.PaymentStatus == "paid" || s.PaymentStatus == "no_payment_required")
}

// RefundRequest returns the whole payment of one paid session.
type RefundRequest struct {
	SessionID     string
	PaymentIntent string
	AmountCents   int64
	// IdempotencyKey makes a retried refund the same refund.
	IdempotencyKey string
	// Reason is the refund's reason at the provider: RefundDuplicate (also
	// when empty) or RefundRequested.
	Reason string
	// Split is a creator's sale (a destination charge): the refund takes
	// back the creator's transfer and the platform's fee with it.
	Split bool
}

// Refund reasons, as Stripe names them.
const (
	// RefundDuplicate: a second payment for a prompt the buyer had.
	RefundDuplicate = "duplicate"
	// RefundRequested: an admin refunded the order (the buyer asked).
	RefundRequested = "requested_by_customer"
)

// reason is r's reason at the provider.
func (r RefundRequest) reason() string {
	if r.Reason == "" {
		return RefundDuplicate
	}
	return r.Reason
}

// Provider creates, reads and closes checkout sessions and refunds them.
type Provider interface {
	// Name is "stripe" or "local".
	Name() string
	CreateCheckout(ctx context.Context, req CheckoutRequest) (Session, error)
	GetSession(ctx context.Context, id string) (Session, error)
	// Refund returns a paid session's whole payment, for the request's
	// reason; the same key answers the same refund id.
	Refund(ctx context.Context, req RefundRequest) (refundID string, err error)
	// ExpireSession closes an open session so it can no longer be paid. A
	// session that is no longer open is left as it is (nil).
	ExpireSession(ctx context.Context, id string) error
}

// ErrUnknownSession is a session id the provider does not know.
var ErrUnknownSession = errors.New("unknown checkout session")

// ProviderFor is Stripe when a secret key is configured (apiURL: another
// Stripe API address, for tests and make run-lambda), else the local test
// checkout.
func ProviderFor(st *store.Store, stripeKey, apiURL string) Provider {
	if stripeKey != "" {
		return NewStripe(stripeKey, apiURL)
	}
	return NewLocal(st)
}
