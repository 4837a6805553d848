package store

import (
	"context"
	"errors"
	"reflect"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
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
// An attempt whose answer was lost (it timed out and the SDK sent the call
// again) may have written the item itself: after a retried call the item
// found at the key is read back, and the very item this call wrote counts
// as written, not as taken.
func (s *Store) putNew(ctx context.Context, item any) error {
	av, err := attributevalue.MarshalMap(item)
	if err != nil {
		return err
	}
	attempts := 0
	_, err = s.db.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:           aws.String(s.table),
		Item:                av,
		ConditionExpression: aws.String("attribute_not_exists(PK)"),
	}, countAttempts(&attempts))
	if isConditionFailed(err) {
		if attempts > 1 && s.holdsItem(ctx, av) {
			return nil
		}
		return errExists
	}
	return err
}

// holdsItem reports whether the table holds exactly item at item's key.
func (s *Store) holdsItem(ctx context.Context, item map[string]types.AttributeValue) bool {
	res, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      aws.String(s.table),
		Key:            map[string]types.AttributeValue{AttrPK: item[AttrPK], AttrSK: item[AttrSK]},
		ConsistentRead: aws.Bool(true),
	})
	return err == nil && reflect.DeepEqual(res.Item, item)
}

// countAttempts counts the attempts the SDK makes for one call (its retry
// loop runs the finalize steps after it once per attempt).
func countAttempts(n *int) func(*dynamodb.Options) {
	return func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
			return stack.Finalize.Add(middleware.FinalizeMiddlewareFunc("countAttempts",
				func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
					*n++
					return next.HandleFinalize(ctx, in)
				}), middleware.After)
		})
	}
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
