package payments

import (
	"context"
	"errors"
	"fmt"
	"time"

	"aiwork/shared/random"
	"aiwork/shared/store"
)

// LocalProvider is the local test checkout: sessions live in our table and
// are paid on a devserver page, where no money moves. Used when no Stripe key
// is set.
type LocalProvider struct {
	st *store.Store
	// CheckoutPath prefixes the session id in checkout URLs.
	CheckoutPath string
}

var _ Provider = (*LocalProvider)(nil)

// LocalCheckoutPath is where the devserver serves the local checkout page.
const LocalCheckoutPath = "/dev/checkout/"

// NewLocal makes the local test checkout provider.
func NewLocal(st *store.Store) *LocalProvider {
	return &LocalProvider{st: st, CheckoutPath: LocalCheckoutPath}
}

func (p *LocalProvider) Name() string { return "local" }

// CreateCheckout stores an open session; its URL is the local checkout page
// (relative to the site that asked, like Stripe's hosted page but on this host).
func (p *LocalProvider) CreateCheckout(ctx context.Context, req CheckoutRequest) (Session, error) {
	id := "cs_local_" + random.Hex(12)
	ls := store.LocalSession{
		ID: id, Status: "open", PaymentStatus: "unpaid", AmountCents: req.AmountCents, Currency: "usd",
		ProductName: req.ProductName, ClientRef: req.UserID,
		Metadata:   req.metadata(),
		SuccessURL: req.SuccessURL, CancelURL: req.CancelURL, Created: time.Now().Unix(), IdemKey: req.IdempotencyKey,
	}
	if err := p.st.PutLocalSession(ctx, ls); err != nil {
		return Session{}, fmt.Errorf("local checkout: %w", err)
	}
	return fromLocal(ls, p.CheckoutPath), nil
}

// GetSession reads a local session.
func (p *LocalProvider) GetSession(ctx context.Context, id string) (Session, error) {
	ls, err := p.st.GetLocalSession(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return Session{}, ErrUnknownSession
	}
	if err != nil {
		return Session{}, err
	}
	return fromLocal(ls, p.CheckoutPath), nil
}

func fromLocal(ls store.LocalSession, path string) Session {
	return Session{
		ID: ls.ID, URL: path + ls.ID, Status: ls.Status, PaymentStatus: ls.PaymentStatus,
		UserID: ls.Metadata["user_id"], PromptID: ls.Metadata["prompt_id"], Kind: ls.Metadata["kind"],
		AmountCents: ls.AmountCents, Currency: ls.Currency, PaymentIntent: ls.PaymentIntent,
	}
}

// Refund records the refund in our table, once per idempotency key: no
// money moved, so none moves back, but the record is what a test (and the
// local checkout page) can see.
func (p *LocalProvider) Refund(ctx context.Context, req RefundRequest) (string, error) {
	r, err := p.st.PutLocalRefund(ctx, store.LocalRefund{
		ID: "re_local_" + random.Hex(12), SessionID: req.SessionID, PaymentIntent: req.PaymentIntent,
		AmountCents: req.AmountCents, Reason: req.reason(), Created: time.Now().Unix(), IdemKey: req.IdempotencyKey,
	})
	if err != nil {
		return "", err
	}
	return r.ID, nil
}

// ExpireSession closes an open local session; its Pay button stops working.
func (p *LocalProvider) ExpireSession(ctx context.Context, id string) error {
	err := p.st.ExpireLocalSession(ctx, id)
	if errors.Is(err, store.ErrOrderState) {
		return nil
	}
	return err
}
