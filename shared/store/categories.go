package store

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

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
	p := dynamodb.NewQueryPaginator(s.db, &dynamodb.QueryInput{
		TableName:              aws.String(s.table),
		KeyConditionExpression: aws.String("PK = :pk AND begins_with(SK, :cat)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk":  &types.AttributeValueMemberS{Value: pkCatalog},
			":cat": &types.AttributeValueMemberS{Value: "CAT#"},
		},
	})
	var cats []domain.Category
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("list categories: %w", err)
		}
		var items []categoryItem
		if err := attributevalue.UnmarshalListOfMaps(page.Items, &items); err != nil {
			return nil, fmt.Errorf("list categories: %w", err)
		}
		for _, it := range items {
			cats = append(cats, domain.Category{ID: it.ID, Name: it.Name})
		}
	}
	return cats, nil
}
