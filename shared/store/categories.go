package store

import (
	"context"
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

// PutCategory writes a category; writing the same one again changes nothing.
func (s *Store) PutCategory(ctx context.Context, c domain.Category) error {
	if err := s.put(ctx, categoryItem{PK: pkCatalog, SK: categorySK(c.ID), ID: c.ID, Name: c.Name}); err != nil {
		return fmt.Errorf("put category: %w", err)
	}
	return nil
}

// Categories lists every category in id order.
func (s *Store) Categories(ctx context.Context) ([]domain.Category, error) {
	in := partitionQuery(pkCatalog, categoryPrefix)
	// Categories change only when seeded: half-price eventually consistent
	// reads are enough.
	in.ConsistentRead = aws.Bool(false)
	items, err := queryAll[categoryItem](ctx, s, in, "list categories")
	if err != nil {
		return nil, err
	}
	return convertAll(items, func(it categoryItem) domain.Category { return domain.Category{ID: it.ID, Name: it.Name} }), nil
}
