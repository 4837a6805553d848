package store

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Queries: the key conditions the store's listings use, and the one loop
// that reads every page of a query.

// partitionQuery selects the items of partition pk whose SK begins with
// prefix ("" for all of them), strongly consistent: most partitions queried
// are the caller's own, read right after their own writes.
func partitionQuery(pk, prefix string) *dynamodb.QueryInput {
	in := prefixQuery(AttrPK, AttrSK, pk, prefix)
	in.ConsistentRead = aws.Bool(true)
	return in
}

// gsi1Query selects the GSI1 entries under pk whose GSI1SK begins with
// prefix ("" for all of them), in GSI1SK order. An index reads eventually
// consistent only.
func gsi1Query(pk, prefix string) *dynamodb.QueryInput {
	in := prefixQuery(AttrGSI1PK, AttrGSI1SK, pk, prefix)
	in.IndexName = aws.String(IndexGSI1)
	return in
}

func prefixQuery(pkAttr, skAttr, pk, prefix string) *dynamodb.QueryInput {
	cond := pkAttr + " = :pk"
	values := map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: pk}}
	if prefix != "" {
		cond += " AND begins_with(" + skAttr + ", :prefix)"
		values[":prefix"] = &types.AttributeValueMemberS{Value: prefix}
	}
	return &dynamodb.QueryInput{KeyConditionExpression: aws.String(cond), ExpressionAttributeValues: values}
}

// queryItems runs a query through every page and answers the raw items;
// what names the query in errors. Every query that may span pages goes
// through here (or queryAll), so none stops at DynamoDB's 1 MB page.
func queryItems(ctx context.Context, s *Store, in *dynamodb.QueryInput, what string) ([]map[string]types.AttributeValue, error) {
	in.TableName = aws.String(s.table)
	p := dynamodb.NewQueryPaginator(s.db, in)
	var out []map[string]types.AttributeValue
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		out = append(out, page.Items...)
	}
	return out, nil
}

// queryAll is queryItems unmarshalling each item into a T.
func queryAll[T any](ctx context.Context, s *Store, in *dynamodb.QueryInput, what string) ([]T, error) {
	raw, err := queryItems(ctx, s, in, what)
	if err != nil {
		return nil, err
	}
	var out []T
	if err := attributevalue.UnmarshalListOfMaps(raw, &out); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}

// convertAll maps every item through f (an item's domain conversion); the
// answer is never nil, so an empty listing encodes as [].
func convertAll[T, D any](items []T, f func(T) D) []D {
	out := make([]D, len(items))
	for i, it := range items {
		out[i] = f(it)
	}
	return out
}
