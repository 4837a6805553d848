package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
)

// Admins' writes to the categories, each after its audit line
// (WithAudit). A name is unique ignoring case: a guard item per name
// (CATALOG / CATNAME#<lower-cased name>) is claimed before the category
// takes the name, and given back when it does not.

// ErrCategoryNameTaken: another category has the name.
var ErrCategoryNameTaken = errors.New("category name taken")

const categoryNamePrefix = "CATNAME#"

func categoryNameSK(name string) string { return categoryNamePrefix + strings.ToLower(name) }

type categoryNameGuard struct {
	PK         string `dynamodbav:"PK"`
	SK         string `dynamodbav:"SK"`
	CategoryID string `dynamodbav:"category_id"`
}

// claimName takes name's guard for category id; ErrCategoryNameTaken when
// another category holds it.
func (s *Store) claimName(ctx context.Context, id, name string) error {
	err := s.putNew(ctx, categoryNameGuard{PK: pkCatalog, SK: categoryNameSK(name), CategoryID: id})
	if errors.Is(err, errExists) {
		var g categoryNameGuard
		if gerr := s.getItem(ctx, pkCatalog, categoryNameSK(name), &g); gerr == nil && g.CategoryID == id {
			return nil
		}
		return ErrCategoryNameTaken
	}
	return err
}

func (s *Store) dropName(ctx context.Context, name string) {
	if _, err := s.db.DeleteItem(context.WithoutCancel(ctx), &dynamodb.DeleteItemInput{TableName: aws.String(s.table), Key: key(pkCatalog, categoryNameSK(name))}); err != nil {
		slog.WarnContext(ctx, "category name guard not removed", "name", name, "err", err)
	}
}

// CreateCategory adds a category.
func (s *Store) CreateCategory(ctx context.Context, c domain.Category, audit AuditEntry) error {
	return s.WithAudit(ctx, audit, func() error {
		if err := s.claimName(ctx, c.ID, c.Name); err != nil {
			return fmt.Errorf("create category: %w", err)
		}
		if err := s.putNew(ctx, categoryItem{PK: pkCatalog, SK: categorySK(c.ID), ID: c.ID, Name: c.Name}); err != nil {
			s.dropName(ctx, c.Name)
			return fmt.Errorf("create category: %w", err)
		}
		return nil
	})
}

// RenameCategory renames c (as read) to name; ErrVersionConflict when it
// changed meanwhile.
func (s *Store) RenameCategory(ctx context.Context, c domain.Category, name string, audit AuditEntry) error {
	sameName := strings.EqualFold(c.Name, name)
	return s.WithAudit(ctx, audit, func() error {
		if !sameName {
			if err := s.claimName(ctx, c.ID, name); err != nil {
				return fmt.Errorf("rename category: %w", err)
			}
		}
		_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName:                 aws.String(s.table),
			Key:                       key(pkCatalog, categorySK(c.ID)),
			UpdateExpression:          aws.String("SET #n = :new"),
			ConditionExpression:       aws.String("#n = :old"),
			ExpressionAttributeNames:  map[string]string{"#n": "name"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":new": &types.AttributeValueMemberS{Value: name}, ":old": &types.AttributeValueMemberS{Value: c.Name}},
		})
		if err := conditional("rename category", err, fmt.Errorf("rename category: %w", ErrVersionConflict)); err != nil {
			if !sameName {
				s.dropName(ctx, name)
			}
			return err
		}
		if !sameName {
			s.dropName(ctx, c.Name)
		}
		return nil
	})
}

// DeleteCategory removes c (its prompts are checked by the caller).
func (s *Store) DeleteCategory(ctx context.Context, c domain.Category, audit AuditEntry) error {
	return s.WithAudit(ctx, audit, func() error {
		_, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{
			TableName: aws.String(s.table), Key: key(pkCatalog, categorySK(c.ID)), ConditionExpression: aws.String("attribute_exists(PK)"),
		})
		if err := conditional("delete category", err, fmt.Errorf("delete category: %w", ErrVersionConflict)); err != nil {
			return err
		}
		s.dropName(ctx, c.Name)
		return nil
	})
}
