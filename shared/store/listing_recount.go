package store

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// A listing partition's COUNT moves with its membership copies, in a write
// of its own (the local engine has no transactions, and DynamoDB's would
// double each copy's price). A sync stopped between the two leaves the
// count off by one, and the prompt behind (its srev short of irev): the
// backfill that finishes such a prompt then recounts the partitions it is
// listed in (recountListings).

// recountListings sets each partition's COUNT to the number of membership
// copies it holds: a Query of the partition's newest-order copies, counted
// by DynamoDB (Select COUNT: only the count comes back, the copies are
// still read).
func (s *Store) recountListings(ctx context.Context, pks []string) error {
	slices.Sort(pks)
	for _, pk := range slices.Compact(pks) {
		in := partitionQuery(pk, listNewest)
		in.TableName, in.Select = aws.String(s.table), types.SelectCount
		n := 0
		for p := dynamodb.NewQueryPaginator(s.db, in); p.HasMorePages(); {
			page, err := p.NextPage(ctx)
			if err != nil {
				return fmt.Errorf("recount listing %s: %w", pk, err)
			}
			n += int(page.Count)
		}
		_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName: aws.String(s.table), Key: key(pk, skListCount),
			UpdateExpression:          aws.String("SET n = :n"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":n": &types.AttributeValueMemberN{Value: strconv.Itoa(n)}},
		})
		if err != nil {
			return fmt.Errorf("recount listing %s: %w", pk, err)
		}
	}
	return nil
}

// listedIn is the partitions prompt pid's item records copies in.
func (s *Store) listedIn(ctx context.Context, pid string) ([]string, error) {
	it, found, err := s.readPromptItem(ctx, pid)
	if err != nil || !found {
		return nil, err
	}
	var pks []string
	for _, k := range it.Idx {
		if isMembership(k) {
			pk, _ := splitListingKey(k)
			pks = append(pks, pk)
		}
	}
	return pks, nil
}
