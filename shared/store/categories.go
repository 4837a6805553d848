package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"

	"aiwork/shared/domain"
)

type categoryItem struct {
	PK   string `dynamodbav:"PK"`
	SK   string `dynamodbav:"SK"`
	ID   string `dynamodbav:"id"`
	Name string `dynamodbav:"name"`
}

// PutCategory writes a category (seeding) unless it exists: an admin's
// rename stays.
func (s *Store) PutCategory(ctx context.Context, c domain.Category) error {
	if err := s.putNew(ctx, categoryItem{PK: pkCatalog, SK: categorySK(c.ID), ID: c.ID, Name: c.Name}); err != nil && !errors.Is(err, errExists) {
		return fmt.Errorf("put category: %w", err)
	}
	return nil
}

// Category reads one category.
func (s *Store) Category(ctx context.Context, id string) (domain.Category, error) {
	var it categoryItem
	if err := s.getItem(ctx, pkCatalog, categorySK(id), &it); err != nil {
		return domain.Category{}, fmt.Errorf("category: %w", err)
	}
	return domain.Category{ID: it.ID, Name: it.Name}, nil
}

// CategoryNames maps each category's id to its name (what the prompt
// rules check a prompt's category against).
func (s *Store) CategoryNames(ctx context.Context) (map[string]string, error) {
	cats, err := s.Categories(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(cats))
	for _, c := range cats {
		out[c.ID] = c.Name
	}
	return out, nil
}

// Categories lists every category in id order.
func (s *Store) Categories(ctx context.Context) ([]domain.Category, error) {
	in := partitionQuery(pkCatalog, categoryPrefix)
	// Categories change rarely (seeding, an admin): half-price eventually
	// consistent reads are enough.
	in.ConsistentRead = aws.Bool(false)
	items, err := queryAll[categoryItem](ctx, s, in, "list categories")
	if err != nil {
		return nil, err
	}
	return convertAll(items, func(it categoryItem) domain.Category { return domain.Category{ID: it.ID, Name: it.Name} }), nil
}
