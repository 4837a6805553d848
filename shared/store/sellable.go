package store

import (
	"context"

	"aiwork/shared/domain"
)

// Sellable reads what a checkout sells: the agent id when kind is
// domain.KindAgent, else the prompt id ("" is a prompt, as on every order
// before agents). ErrNotFound when it is gone.
func (s *Store) Sellable(ctx context.Context, kind, id string) (domain.Sellable, error) {
	if kind == domain.KindAgent {
		a, err := s.GetAgent(ctx, id)
		if err != nil {
			return domain.Sellable{}, err
		}
		return domain.SellableAgent(a), nil
	}
	p, err := s.GetPrompt(ctx, id)
	if err != nil {
		return domain.Sellable{}, err
	}
	return domain.SellablePrompt(p), nil
}
