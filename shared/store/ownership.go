package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"aiwork/shared/domain"
)

type ownItem struct {
	PK        string  `dynamodbav:"PK"`
	SK        string  `dynamodbav:"SK"`
	PromptID  string  `dynamodbav:"prompt_id"`
	Source    string  `dynamodbav:"source"`
	OrderID   string  `dynamodbav:"order_id,omitempty"`
	Amount    float64 `dynamodbav:"amount"`
	CreatedAt string  `dynamodbav:"created_at"`
}

// GrantOwnership records that uid owns a prompt. Granting it again is a
// no-op answering created = false, so fulfilment can be re-run safely.
func (s *Store) GrantOwnership(ctx context.Context, uid string, o domain.Ownership) (created bool, err error) {
	it := ownItem{
		PK: userPK(uid), SK: ownSK(o.PromptID), PromptID: o.PromptID, Source: o.Source,
		OrderID: o.OrderID, Amount: o.Amount, CreatedAt: o.CreatedAt.UTC().Format(time.RFC3339Nano),
	}
	switch err := s.putNew(ctx, it); {
	case errors.Is(err, errExists):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("grant ownership: %w", err)
	}
	if o.Source == domain.SourcePurchase {
		s.countPromptUse(ctx, o.PromptID, 0, 1, o.Amount)
	}
	return true, nil
}

// Owns reports whether uid owns pid through a purchase.
func (s *Store) Owns(ctx context.Context, uid, pid string) (bool, error) {
	var it ownItem
	err := s.getItem(ctx, userPK(uid), ownSK(pid), &it)
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("owns: %w", err)
	}
	return true, nil
}

// OwnershipOf reads uid's ownership of pid (ErrNotFound if none): its
// OrderID says which order granted it.
func (s *Store) OwnershipOf(ctx context.Context, uid, pid string) (domain.Ownership, error) {
	var it ownItem
	if err := s.getItem(ctx, userPK(uid), ownSK(pid), &it); err != nil {
		return domain.Ownership{}, fmt.Errorf("ownership: %w", err)
	}
	created, _ := time.Parse(time.RFC3339Nano, it.CreatedAt)
	return domain.Ownership{PromptID: it.PromptID, Source: it.Source, OrderID: it.OrderID, Amount: it.Amount, CreatedAt: created}, nil
}

// OwnedPromptIDs lists the prompts uid owns, in id order.
func (s *Store) OwnedPromptIDs(ctx context.Context, uid string) ([]string, error) {
	items, err := queryAll[ownItem](ctx, s, partitionQuery(userPK(uid), ownPrefix), "owned prompts")
	if err != nil {
		return nil, err
	}
	ids := []string{}
	for _, it := range items {
		ids = append(ids, it.PromptID)
	}
	return ids, nil
}
