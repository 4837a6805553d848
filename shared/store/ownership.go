package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
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
	// Kind: "" a prompt (every ownership before agents), KindAgent an
	// agent (its id in prompt_id).
	Kind string `dynamodbav:"kind,omitempty"`
}

func (it ownItem) domain() domain.Ownership {
	created, _ := time.Parse(time.RFC3339Nano, it.CreatedAt)
	return domain.Ownership{PromptID: it.PromptID, Source: it.Source, OrderID: it.OrderID, Amount: it.Amount, CreatedAt: created, Kind: it.Kind}
}

// countPurchase adds a purchase's ownership granted (n = 1) or taken back
// (n = -1) to the counts of what was bought: a prompt's purchases and
// revenue, an agent's purchases (which keep it from being deleted). Best
// effort, as the prompts' counts always were: the ownership is what counts.
func (s *Store) countPurchase(ctx context.Context, it ownItem, n int) {
	if it.Source != domain.SourcePurchase {
		return
	}
	if it.Kind == domain.KindAgent {
		if err := s.CountAgentPurchase(ctx, it.PromptID, n); err != nil {
			slog.WarnContext(ctx, "agent purchase not counted", "agent", it.PromptID, "err", err)
		}
		return
	}
	s.countPromptUse(ctx, it.PromptID, 0, n, float64(n)*it.Amount)
}

// GrantOwnership records that uid owns a prompt (or an agent, o.Kind). Granting it again is a
// no-op answering created = false, so fulfilment can be re-run safely.
func (s *Store) GrantOwnership(ctx context.Context, uid string, o domain.Ownership) (created bool, err error) {
	it := ownItem{
		PK: userPK(uid), SK: ownSK(o.PromptID), PromptID: o.PromptID, Source: o.Source,
		OrderID: o.OrderID, Amount: o.Amount, CreatedAt: o.CreatedAt.UTC().Format(time.RFC3339Nano),
		Kind: domain.StoredKind(o.Kind),
	}
	switch err := s.putNew(ctx, it); {
	case errors.Is(err, errExists):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("grant ownership: %w", err)
	}
	s.countPurchase(ctx, it, 1)
	return true, nil
}

// Owns reports whether uid owns pid (a prompt or an agent) through a purchase.
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
	return it.domain(), nil
}

// OwnedPromptIDs lists the prompts uid owns, in id order (not the agents:
// OwnedAgentIDs).
func (s *Store) OwnedPromptIDs(ctx context.Context, uid string) ([]string, error) {
	return s.ownedIDs(ctx, uid, "")
}

// OwnedAgentIDs lists the agents uid bought, in id order.
func (s *Store) OwnedAgentIDs(ctx context.Context, uid string) ([]string, error) {
	return s.ownedIDs(ctx, uid, domain.KindAgent)
}

// ownedIDs lists the ids of uid's ownerships of the stored kind.
func (s *Store) ownedIDs(ctx context.Context, uid, kind string) ([]string, error) {
	items, err := queryAll[ownItem](ctx, s, partitionQuery(userPK(uid), ownPrefix), "owned items")
	if err != nil {
		return nil, err
	}
	ids := []string{}
	for _, it := range items {
		if it.Kind == kind {
			ids = append(ids, it.PromptID)
		}
	}
	return ids, nil
}
