package payments

import (
	"context"
	"errors"
	"fmt"
	"math"

	"aiwork/shared/domain"
	"aiwork/shared/store"
)

// Split is how one sale of a creator's prompt or agent divides: the platform's fee
// (Stripe's application_fee_amount) and the creator's net (what the
// destination charge transfers), in cents. FeeCents + NetCents is always
// the price.
type Split struct {
	PriceCents int64
	FeeCents   int64
	NetCents   int64
}

// SplitSale divides a price in cents by the platform's fee percent (0–100).
// The fee rounds half up to the cent (20 % of 99 ¢ is 19.8 ¢ → 20 ¢; 15 % of
// 10 ¢ is 1.5 ¢ → 2 ¢) and the creator gets the rest, so no cent is lost or
// made up. Integer arithmetic only: a float would round 0.5 ¢ either way.
func SplitSale(priceCents int64, feePercent int) (Split, error) {
	if priceCents < 0 {
		return Split{}, fmt.Errorf("split: negative price %d", priceCents)
	}
	if feePercent < 0 || feePercent > 100 {
		return Split{}, fmt.Errorf("split: fee percent %d is not 0–100", feePercent)
	}
	fee := (priceCents*int64(feePercent) + 50) / 100
	return Split{PriceCents: priceCents, FeeCents: fee, NetCents: priceCents - fee}, nil
}

// isSplit reports whether the order sid was a creator's sale (a split
// recorded at checkout).
func (f *Fulfiller) isSplit(ctx context.Context, sid string) (bool, error) {
	split, err := f.st.GetOrderSplit(ctx, sid)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return split.CreatorID != "", nil
}

// countSale adds a paid creator's sale to their ledger (once per order).
func (f *Fulfiller) countSale(ctx context.Context, order domain.Order) error {
	split, err := f.st.GetOrderSplit(ctx, order.SessionID)
	if err != nil || split.CreatorID == "" {
		return err
	}
	_, err = f.st.CountCreatorSale(ctx, order.SessionID, order.Kind, order.PromptID, split, int64(math.Round(order.Amount*100)))
	return err
}

// countRefund takes a refunded creator's sale back out of their ledger
// (once per order).
func (f *Fulfiller) countRefund(ctx context.Context, order domain.Order) error {
	split, err := f.st.GetOrderSplit(ctx, order.SessionID)
	if err != nil || split.CreatorID == "" {
		return err
	}
	_, err = f.st.CountCreatorRefund(ctx, order.SessionID, order.Kind, order.PromptID, split, int64(math.Round(order.Amount*100)))
	return err
}
