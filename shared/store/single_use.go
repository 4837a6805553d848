package store

import (
	"context"
	"maps"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// A single-use pending item (a mailed link, a paused chat reply, a
// server's question) is stored under the hash of its token with valid_to
// (unix ms) and, once used, used_at.

// use is what one kind of pending item adds to its single use.
type use struct {
	set    string // assignments after "used_at = :now"
	remove string // attributes the use clears
	cond   string // conditions besides exists, never used and valid
	names  map[string]string
	values map[string]types.AttributeValue
}

// useOnce uses the pending item at pk/sk: one conditional write sets
// used_at only if the item exists, was never used, is valid at now and
// passes u.cond, so of concurrent uses exactly one passes. used is false
// when the condition refused (the caller reads the item to say why); out,
// when not nil, receives the item as it was before the use.
func (s *Store) useOnce(ctx context.Context, pk, sk string, u use, now time.Time, out any) (used bool, err error) {
	update := "SET used_at = :now"
	if u.set != "" {
		update += ", " + u.set
	}
	if u.remove != "" {
		update += " REMOVE " + u.remove
	}
	cond := "attribute_exists(PK) AND attribute_not_exists(used_at) AND valid_to > :now"
	if u.cond != "" {
		cond += " AND " + u.cond
	}
	values := maps.Clone(u.values)
	if values == nil {
		values = map[string]types.AttributeValue{}
	}
	values[":now"] = &types.AttributeValueMemberN{Value: strconv.FormatInt(now.UnixMilli(), 10)}
	in := &dynamodb.UpdateItemInput{
		TableName:                 aws.String(s.table),
		Key:                       key(pk, sk),
		UpdateExpression:          aws.String(update),
		ConditionExpression:       aws.String(cond),
		ExpressionAttributeValues: values,
	}
	if len(u.names) > 0 {
		in.ExpressionAttributeNames = u.names
	}
	if out != nil {
		in.ReturnValues = types.ReturnValueAllOld
	}
	res, err := s.db.UpdateItem(ctx, in)
	switch {
	case isConditionFailed(err):
		return false, nil
	case err != nil:
		return false, err
	case out != nil:
		if err := attributevalue.UnmarshalMap(res.Attributes, out); err != nil {
			return false, err
		}
	}
	return true, nil
}
