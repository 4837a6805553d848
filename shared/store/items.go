package store

import (
	"context"
	"errors"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// errExists is a create-only put that found the item already there.
var errExists = errors.New("item exists")

func key(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		AttrPK: &types.AttributeValueMemberS{Value: pk},
		AttrSK: &types.AttributeValueMemberS{Value: sk},
	}
}

// DynamoDB's key size limits: a partition key value of at most 2048 bytes,
// a sort key value of at most 1024 bytes (UTF-8).
const (
	maxPartitionKeyBytes = 2048
	maxSortKeyBytes      = 1024
)

// keyFits reports whether DynamoDB can address an item by pk and sk. An id
// taken from a request (a path segment, a body field) can make a key that
// is too long; DynamoDB would refuse the call with a ValidationException.
func keyFits(pk, sk string) bool {
	return len(pk) <= maxPartitionKeyBytes && len(sk) <= maxSortKeyBytes
}

// getItem reads one item into out, strongly consistent; ErrNotFound if
// absent. A key too long for DynamoDB names no item: ErrNotFound too, so an
// over-long id from a request is a 404 and not an internal error.
func (s *Store) getItem(ctx context.Context, pk, sk string, out any) error {
	if !keyFits(pk, sk) {
		return ErrNotFound
	}
	res, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      aws.String(s.table),
		Key:            key(pk, sk),
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return err
	}
	if res.Item == nil {
		return ErrNotFound
	}
	return attributevalue.UnmarshalMap(res.Item, out)
}

// putNew writes item only if no item has its key; errExists otherwise.
func (s *Store) putNew(ctx context.Context, item any) error {
	av, err := attributevalue.MarshalMap(item)
	if err != nil {
		return err
	}
	_, err = s.db.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:           aws.String(s.table),
		Item:                av,
		ConditionExpression: aws.String("attribute_not_exists(PK)"),
	})
	if isConditionFailed(err) {
		return errExists
	}
	return err
}

// put writes item unconditionally (idempotent overwrites such as seeding).
func (s *Store) put(ctx context.Context, item any) error {
	av, err := attributevalue.MarshalMap(item)
	if err != nil {
		return err
	}
	_, err = s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table), Item: av})
	return err
}
