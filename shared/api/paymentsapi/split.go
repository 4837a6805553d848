package paymentsapi

import (
	"context"
	"errors"
	"fmt"

	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/payments"
	"aiwork/shared/store"
)

// notForSale: the item is off sale, or the creator's payout account
// cannot take this sale yet (or they are suspended): "This prompt is not
// for sale right now." / "This agent is …".
func notForSale(item domain.Sellable) error {
	return httpx.Conflict(fmt.Sprintf("This %s is not for sale right now.", item.Noun()))
}

// sale is how a checkout is charged: the item's price in cents and, for a
// creator's prompt or agent, the creator's account and the split.
type sale struct {
	cents       int64
	destination string
	split       payments.Split
	creatorID   string
}

// saleOf prices item: the platform's own prompts are charged whole; a
// creator's prompt or agent is a destination charge to their account,
// split by the platform's fee, and refused while the creator cannot
// receive payments.
func (s *Service) saleOf(ctx context.Context, item domain.Sellable) (sale, error) {
	out := sale{cents: item.PriceCents()}
	if item.CreatorID == "" {
		return out, nil
	}
	c, err := s.st.GetCreator(ctx, item.CreatorID)
	if errors.Is(err, store.ErrNotFound) {
		return sale{}, notForSale(item)
	}
	if err != nil {
		return sale{}, err
	}
	acct, err := s.st.CreatorStripeAccount(ctx, item.CreatorID)
	if err != nil {
		return sale{}, err
	}
	if c.Suspended || !c.CanSell() || !c.PayoutsEnabled || acct == "" {
		return sale{}, notForSale(item)
	}
	split, err := payments.SplitSale(out.cents, s.cfg.PlatformFeePercent)
	if err != nil {
		return sale{}, err
	}
	out.destination, out.split, out.creatorID = acct, split, item.CreatorID
	return out, nil
}
