package store

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
)

// Refunds of an order: two idempotent single-item writes, the order's
// transition to REFUNDED and then the removal of the ownership it granted.
// A refund run again (a retried webhook) does both again and changes
// nothing.

// MarkOrderRefunded moves a paid order to REFUNDED (again, for a re-run) and
// answers it. The first caller's refunded_at and reason stay, so everyone
// after reads the same (deterministic activity keys). ErrOrderState when the
// order was never paid.
func (s *Store) MarkOrderRefunded(ctx context.Context, sid, reason string, now time.Time) (domain.Order, error) {
	update := "SET #s = :refunded, refunded_at = if_not_exists(refunded_at, :now)"
	values := map[string]types.AttributeValue{
		":paid":     &types.AttributeValueMemberS{Value: domain.OrderPaid},
		":refunded": &types.AttributeValueMemberS{Value: domain.OrderRefunded},
		":now":      &types.AttributeValueMemberS{Value: now.UTC().Format(time.RFC3339Nano)},
	}
	if reason != "" {
		update += ", refund_reason = if_not_exists(refund_reason, :reason)"
		values[":reason"] = &types.AttributeValueMemberS{Value: reason}
	}
	// Only a paid order can be refunded; a refunded one again, so a re-run
	// answers the order as the first run left it.
	return s.transitionOrder(ctx, "mark order refunded", sid, update,
		"attribute_exists(PK) AND (#s = :paid OR #s = :refunded)", values)
}

// RevokeOwnership removes uid's ownership of pid (a prompt or an agent) that order sid granted (a
// refund of that order). An ownership another order granted stays: a
// refunded second payment must not take away what the first one bought.
func (s *Store) RevokeOwnership(ctx context.Context, uid, pid, sid string) error {
	out, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName: aws.String(s.table),
		Key:       key(userPK(uid), ownSK(pid)),
		// Only the ownership this order granted; any other is no failure.
		ConditionExpression:       aws.String("order_id = :sid"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":sid": &types.AttributeValueMemberS{Value: sid}},
		ReturnValues:              types.ReturnValueAllOld,
	})
	if err != nil && !isConditionFailed(err) {
		return fmt.Errorf("revoke ownership: %w", err)
	}
	if err == nil && len(out.Attributes) > 0 {
		// This call removed it (a re-run finds nothing): the purchase is taken back from the counts of what was bought.
		var it ownItem
		if err := attributevalue.UnmarshalMap(out.Attributes, &it); err == nil {
			s.countPurchase(ctx, it, -1)
		}
	}
	return nil
}
