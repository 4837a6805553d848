package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// BackfillMailboxQuotas folds every account's free-use count from before
// quotas were per mailbox into its mailbox (what its next claim would do),
// so a new alias of a farmed address starts from what the address spent,
// not from a fresh quota. It scans the table once, so it runs outside
// requests: at the devserver's start, and once by the operator after the
// deploy (infra/cmd/backfill-admin-index runs it too). Folding is
// idempotent: running it again, or beside the functions, adds nothing.
// It answers how many accounts it folded.
func (s *Store) BackfillMailboxQuotas(ctx context.Context) (int, error) {
	p := dynamodb.NewScanPaginator(s.db, &dynamodb.ScanInput{
		TableName:                aws.String(s.table),
		FilterExpression:         aws.String("#sk = :quota AND begins_with(#pk, :users) AND (attribute_exists(used) OR attribute_exists(prompt_ids))"),
		ProjectionExpression:     aws.String("#pk"),
		ExpressionAttributeNames: map[string]string{"#pk": AttrPK, "#sk": AttrSK},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":quota": &types.AttributeValueMemberS{Value: skQuota}, ":users": &types.AttributeValueMemberS{Value: PKUser},
		},
	})
	folded := 0
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return folded, fmt.Errorf("backfill mailbox quotas: %w", err)
		}
		for _, item := range page.Items {
			pk, ok := item[AttrPK].(*types.AttributeValueMemberS)
			if !ok {
				continue
			}
			if _, err := s.claimHome(ctx, strings.TrimPrefix(pk.Value, PKUser)); err != nil {
				return folded, fmt.Errorf("backfill mailbox quotas: %w", err)
			}
			folded++
		}
	}
	return folded, nil
}
