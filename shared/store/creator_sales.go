package store

import (
	"context"
	"fmt"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// OrderSplit is how a creator's sale divides, recorded on its order
// (creator_id, fee_cents, net_cents beside the order's own attributes), so
// refunds and the creator's dashboard read what the checkout charged.
type OrderSplit struct {
	CreatorID string
	FeeCents  int64
	NetCents  int64
}

// SetOrderSplit records split on the order sid (which must exist). The
// order's other attributes are untouched, and a repeat writes the same.
func (s *Store) SetOrderSplit(ctx context.Context, sid string, split OrderSplit) error {
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String(s.table),
		Key:                 key(orderPK(sid), skOrder),
		UpdateExpression:    aws.String("SET creator_id = :c, fee_cents = :f, net_cents = :n"),
		ConditionExpression: aws.String("attribute_exists(PK)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":c": &types.AttributeValueMemberS{Value: split.CreatorID},
			":f": &types.AttributeValueMemberN{Value: strconv.FormatInt(split.FeeCents, 10)},
			":n": &types.AttributeValueMemberN{Value: strconv.FormatInt(split.NetCents, 10)},
		},
	})
	if isConditionFailed(err) {
		return fmt.Errorf("set order split: %w", ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("set order split: %w", err)
	}
	return nil
}

// GetOrderSplit reads the order's split: the zero split (no creator) for
// the platform's own sales; ErrNotFound when there is no such order.
func (s *Store) GetOrderSplit(ctx context.Context, sid string) (OrderSplit, error) {
	var it struct {
		CreatorID string `dynamodbav:"creator_id"`
		FeeCents  int64  `dynamodbav:"fee_cents"`
		NetCents  int64  `dynamodbav:"net_cents"`
	}
	if err := s.getItem(ctx, orderPK(sid), skOrder, &it); err != nil {
		return OrderSplit{}, fmt.Errorf("get order split: %w", err)
	}
	return OrderSplit{CreatorID: it.CreatorID, FeeCents: it.FeeCents, NetCents: it.NetCents}, nil
}
