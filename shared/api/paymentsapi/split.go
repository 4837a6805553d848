package paymentsapi

import (
	"context"
	"errors"
	"math"

	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/payments"
	"aiwork/shared/store"
)

// msgCreatorCannotSell: the creator's payout account cannot take this
// sale yet (or they are suspended).
const msgCreatorCannotSell = "This prompt is not for sale right now."

// sale is how a prompt's checkout is charged: its price in cents and, for
// a creator's prompt, the creator's account and the split.
type sale struct {
	cents       int64
	destination string
	split       payments.Split
	creatorID   string
}

// saleOf prices p: the platform's own prompts are charged whole; a
// creator's is a destination charge to their account, split by the
// platform's fee, and refused while the creator cannot receive payments.
func (s *Service) saleOf(ctx context.Context, p domain.Prompt) (sale, error) {
	out := sale{cents: int64(math.Round(p.Price * 100))}
	if p.CreatorID == "" {
		return out, nil
	}
	c, err := s.st.GetCreator(ctx, p.CreatorID)
	if errors.Is(err, store.ErrNotFound) {
		return sale{}, httpx.Conflict(msgCreatorCannotSell)
	}
	if err != nil {
		return sale{}, err
	}
	acct, err := s.st.CreatorStripeAccount(ctx, p.CreatorID)
	if err != nil {
		return sale{}, err
	}
	if c.Suspended || !c.CanSell() || !c.PayoutsEnabled || acct == "" {
		return sale{}, httpx.Conflict(msgCreatorCannotSell)
	}
	split, err := payments.SplitSale(out.cents, s.cfg.PlatformFeePercent)
	if err != nil {
		return sale{}, err
	}
	out.destination, out.split, out.creatorID = acct, split, p.CreatorID
	return out, nil
}
