// Package seeddata is the product's seed data: the categories, the prompts
// the catalogue starts with, the MCP registry's snapshot and the entries of
// the MCP servers local runs start. Seeding overwrites items with the same
// ids, so running it on every start is idempotent.
package seeddata

import (
	"context"
	"fmt"

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
	for _, p := range prompts {
		if err := st.PutPrompt(ctx, p); err != nil {
			return fmt.Errorf("seed: %w", err)
		}
	}
	return nil
}
