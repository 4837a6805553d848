// Package seeddata is the product's seed data: the categories, the prompts
// the catalogue starts with, the MCP registry's snapshot and the entries of
// the MCP servers local runs start. Seeding overwrites items with the same
// ids, so running it on every start is idempotent.
package seeddata

import (
	"context"
	"fmt"

	"golang.org/x/sync/errgroup"

	"aiwork/shared/domain"
	"aiwork/shared/store"
)

// Categories are SPEC §3's sample categories, with stable ids.
var Categories = []domain.Category{
	{ID: "business", Name: "Business"},
	{ID: "writing", Name: "Writing"},
	{ID: "productivity", Name: "Productivity"},
	{ID: "content-creation", Name: "Content Creation"},
}

// Seed writes the catalogue.
func Seed(ctx context.Context, st *store.Store) error {
	for _, c := range Categories {
		if err := st.PutCategory(ctx, c); err != nil {
			return fmt.Errorf("seed: %w", err)
		}
	}
	prompts, err := Prompts()
	if err != nil {
		return err
	}
	// The prompts not there yet are written in batches with their
	// marketplace cards; the others one by one (PutPrompt keeps what an
	// admin changed, and writes the cards only when a prompt changed).
	ids := make([]string, len(prompts))
	for i, p := range prompts {
		ids[i] = p.ID
	}
	have, err := st.GetPrompts(ctx, ids)
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	var fresh []domain.Prompt
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(4)
	for _, p := range prompts {
		if _, ok := have[p.ID]; !ok {
			fresh = append(fresh, p)
			continue
		}
		g.Go(func() error {
			if err := st.PutPrompt(gctx, p); err != nil {
				return fmt.Errorf("seed: %w", err)
			}
			return nil
		})
	}
	g.Go(func() error {
		if err := st.BulkLoadPrompts(gctx, fresh); err != nil {
			return fmt.Errorf("seed: %w", err)
		}
		return nil
	})
	return g.Wait()
}
