package paymentsapi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/payments"
	"aiwork/shared/random"
	"aiwork/shared/store"
)

const (
	// checkoutLease is how long the caller that claimed the checkout record
	// may take to create the session before another caller may take over.
	checkoutLease = 20 * time.Second
	// checkoutReuse: Stripe's sessions expire after 24 hours; an older one
	// is not offered again.
	checkoutReuse = 23 * time.Hour
	// Waiting for another caller's session: first and longest pause.
	firstPause, longestPause = 20 * time.Millisecond, 250 * time.Millisecond
)

// openCheckout answers the caller's open checkout for the item (a prompt
// or an agent), or opens one. While a session is open (its order PENDING) every call answers it,
// so a double click or 30 concurrent calls make one session; the caller
// that wins the record's conditional write creates it, the others wait for
// it to be written.
func (s *Service) openCheckout(ctx context.Context, uid string, item domain.Sellable, sl sale, base string) (CheckoutResponse, error) {
	pause := firstPause
	for {
		rec, err := s.st.GetOpenCheckout(ctx, uid, item.ID)
		found := err == nil
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return CheckoutResponse{}, err
		}
		if found {
			reuse, err := s.reusable(ctx, rec)
			if err != nil {
				return CheckoutResponse{}, err
			}
			if reuse {
				return CheckoutResponse{CheckoutURL: rec.URL, SessionID: rec.SessionID}, nil
			}
			if rec.State == store.CheckoutCreating && time.Now().UnixMilli() < rec.LeaseUntil {
				// Another call is creating the session: wait for it.
				if err := sleep(ctx, pause); err != nil {
					return CheckoutResponse{}, err
				}
				pause = min(2*pause, longestPause)
				continue
			}
		}
		token := newToken()
		seen := ""
		if found {
			seen = rec.Token
		}
		switch err := s.st.ClaimCheckout(ctx, uid, item.ID, token, seen, time.Now().Add(checkoutLease)); {
		case errors.Is(err, store.ErrCheckoutTaken):
			continue // another call claimed it first: read theirs
		case err != nil:
			return CheckoutResponse{}, err
		}
		return s.createSession(ctx, uid, item, sl, base, token)
	}
}

// reusable reports whether the record names a session the caller can still
// pay: written, young enough, and its order still PENDING.
func (s *Service) reusable(ctx context.Context, rec store.OpenCheckout) (bool, error) {
	if rec.State != store.CheckoutOpen || rec.SessionID == "" {
		return false, nil
	}
	created, err := time.Parse(time.RFC3339Nano, rec.CreatedAt)
	if err != nil || time.Since(created) > checkoutReuse {
		return false, nil
	}
	order, err := s.st.GetOrder(ctx, rec.SessionID)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return order.Status == domain.OrderPending, nil
}

// createSession opens the provider's session for the claim's holder and
// records it (the order, then the record others are waiting for).
func (s *Service) createSession(ctx context.Context, uid string, item domain.Sellable, sl sale, base, token string) (CheckoutResponse, error) {
	cents := sl.cents
	sess, err := s.provider.CreateCheckout(ctx, payments.CheckoutRequest{
		UserID: uid, PromptID: item.ID, Kind: item.Kind, ProductName: item.Title, AmountCents: cents,
		Destination: sl.destination, ApplicationFeeCents: sl.split.FeeCents,
		SuccessURL:     base + "/payment/success?session_id={CHECKOUT_SESSION_ID}",
		CancelURL:      base + "/payment/cancel",
		IdempotencyKey: idempotencyKey(uid, item.ID, cents, token),
	})
	if err != nil {
		// Let the next call try at once rather than after the lease.
		if rerr := s.st.ReleaseCheckout(context.WithoutCancel(ctx), uid, item.ID, token); rerr != nil {
			slog.ErrorContext(ctx, "release checkout claim", "err", rerr)
		}
		slog.ErrorContext(ctx, "create checkout", "provider", s.provider.Name(), "err", err)
		return CheckoutResponse{}, httpx.Errorf(httpx.CodeUpstream, "The payment provider could not start a checkout. Please try again.")
	}
	now := time.Now()
	if err := s.st.PutOrder(ctx, domain.Order{
		SessionID: sess.ID, UserID: uid, PromptID: item.ID, PromptTitle: item.Title, Amount: float64(cents) / 100,
		Status: domain.OrderPending, Provider: s.provider.Name(), CreatedAt: now.UTC().Format(time.RFC3339Nano),
		Kind: domain.StoredKind(item.Kind),
	}); err != nil {
		return CheckoutResponse{}, err
	}
	if sl.creatorID != "" {
		// The local checkout records the same split the destination charge makes.
		split := store.OrderSplit{CreatorID: sl.creatorID, FeeCents: sl.split.FeeCents, NetCents: sl.split.NetCents}
		if err := s.st.SetOrderSplit(ctx, sess.ID, split); err != nil {
			return CheckoutResponse{}, err
		}
	}
	// A lost claim (we outlived the lease) still answers our own session.
	if err := s.st.OpenCheckoutAt(ctx, uid, item.ID, token, sess.ID, sess.URL, now); err != nil && !errors.Is(err, store.ErrCheckoutTaken) {
		return CheckoutResponse{}, err
	}
	return CheckoutResponse{CheckoutURL: sess.URL, SessionID: sess.ID}, nil
}

// idempotencyKey ties the provider call to this claim: the Stripe client's
// own retries of it make one session.
func idempotencyKey(uid, pid string, cents int64, token string) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "checkout|%s|%s|%d|%s", uid, pid, cents, token))
	return hex.EncodeToString(sum[:16])
}

func newToken() string { return random.Hex(16) }

// sleep pauses for d unless ctx ends first.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
