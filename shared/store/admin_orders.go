package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
)

// The admins' orders: every order listed through GSI2 (ORDERS), or one
// buyer's through GSI1 (USER#<uid>), newest first; the provider's events
// about an order; and the claim that lets one admin refund run at a time.

// OrderQuery filters the admins' order listing.
type OrderQuery struct {
	// Status is a domain.Order* state ("" for any).
	Status string
	// UserID and PromptID, when set, are matched whole.
	UserID, PromptID string
	// From and To bound the creation time: at or after From, before To
	// (zero: unbounded).
	From, To time.Time
	Limit    int
	// Cursor is the next of the page before ("" for the first page).
	Cursor string
}

// AdminOrders lists the orders q selects, newest first, a page at a time:
// the page, the cursor of the next ("" on the last) and how many match in
// all. ErrBadCursor for a cursor this listing did not give.
func (s *Store) AdminOrders(ctx context.Context, q OrderQuery) (orders []domain.Order, next string, total int, err error) {
	l := listing{index: IndexGSI2, pkAttr: AttrGSI2PK, skAttr: AttrGSI2SK, pk: GSI2Orders,
		names: map[string]string{}, values: map[string]types.AttributeValue{}}
	if !q.From.IsZero() {
		l.lo = sortableTime(q.From)
	}
	if !q.To.IsZero() {
		// Keys are <time>#<id>: a bare time sorts before every key of that
		// time, so BETWEEN ends just before To.
		l.hi = sortableTime(q.To)
	}
	if q.UserID != "" {
		// One buyer's orders: their GSI1 entries (ORDER#<time>, beside their
		// ratings), so the range always names the ORDER# entries.
		l.index, l.pkAttr, l.skAttr, l.pk = IndexGSI1, AttrGSI1PK, AttrGSI1SK, userPK(q.UserID)
		l.lo, l.hi = orderIndexPrefix, orderIndexPrefix+"~"
		if !q.From.IsZero() {
			l.lo = orderGSI1SK(q.From)
		}
		if !q.To.IsZero() {
			l.hi = orderGSI1SK(q.To.Add(-time.Nanosecond))
		}
	}
	var conds []string
	if q.Status != "" {
		conds = append(conds, "#st = :st")
		l.names["#st"] = "status"
		l.values[":st"] = &types.AttributeValueMemberS{Value: q.Status}
	}
	if q.PromptID != "" {
		conds = append(conds, "prompt_id = :pid")
		l.values[":pid"] = &types.AttributeValueMemberS{Value: q.PromptID}
	}
	l.filter = strings.Join(conds, " AND ")
	if len(l.names) == 0 {
		l.names = nil
	}
	return listingPage(ctx, s, l, q.Limit, q.Cursor, "admin orders", orderItem.domain)
}

// OrderEvent is one event the payments provider sent about an order.
type OrderEvent struct {
	ID, Type   string
	ReceivedAt time.Time
}

type orderEventItem struct {
	PK         string `dynamodbav:"PK"`
	SK         string `dynamodbav:"SK"`
	ID         string `dynamodbav:"id"`
	Type       string `dynamodbav:"type"`
	ReceivedAt string `dynamodbav:"received_at"`
}

// AddOrderEvent records an event about order sid, once (a retried event
// keeps its first record).
func (s *Store) AddOrderEvent(ctx context.Context, sid string, e OrderEvent) error {
	it := orderEventItem{PK: orderPK(sid), SK: orderEventSK(e.ID), ID: e.ID, Type: e.Type, ReceivedAt: e.ReceivedAt.UTC().Format(time.RFC3339Nano)}
	if err := s.putNew(ctx, it); err != nil && !errors.Is(err, errExists) {
		return fmt.Errorf("add order event: %w", err)
	}
	return nil
}

// OrderEvents lists the events recorded about order sid, oldest first.
func (s *Store) OrderEvents(ctx context.Context, sid string) ([]OrderEvent, error) {
	items, err := queryAll[orderEventItem](ctx, s, partitionQuery(orderPK(sid), orderEventPrefix), "order events")
	if err != nil {
		return nil, err
	}
	out := convertAll(items, func(it orderEventItem) OrderEvent {
		at, _ := time.Parse(time.RFC3339Nano, it.ReceivedAt)
		return OrderEvent{ID: it.ID, Type: it.Type, ReceivedAt: at}
	})
	slices.SortStableFunc(out, func(a, b OrderEvent) int { return a.ReceivedAt.Compare(b.ReceivedAt) })
	return out, nil
}

// ErrRefundUnderWay: another admin's refund of the order holds its claim.
var ErrRefundUnderWay = errors.New("a refund of this order is under way")

// ClaimOrderRefund marks paid order sid as being refunded by claim (one
// conditional write), so that of two refunds clicked at once one goes to
// the provider. A claim older than stale (its request died) may be taken
// over. ErrNotFound, ErrOrderState when the order is not PAID (refunded
// meanwhile, or never paid), ErrRefundUnderWay when another claim holds it.
func (s *Store) ClaimOrderRefund(ctx context.Context, sid, claim string, now time.Time, stale time.Duration) (domain.Order, error) {
	if !keyFits(orderPK(sid), skOrder) {
		return domain.Order{}, ErrNotFound
	}
	o, err := s.transitionOrder(ctx, "claim order refund", sid, "SET refund_claim = :c, refund_claimed_at = :now",
		"attribute_exists(PK) AND #s = :paid AND (attribute_not_exists(refund_claim) OR refund_claim = :c OR refund_claimed_at < :stale)",
		map[string]types.AttributeValue{
			":c":     &types.AttributeValueMemberS{Value: claim},
			":now":   &types.AttributeValueMemberN{Value: strconv.FormatInt(now.UnixMilli(), 10)},
			":stale": &types.AttributeValueMemberN{Value: strconv.FormatInt(now.Add(-stale).UnixMilli(), 10)},
			":paid":  &types.AttributeValueMemberS{Value: domain.OrderPaid},
		})
	if !errors.Is(err, ErrOrderState) {
		return o, err
	}
	cur, gerr := s.GetOrder(ctx, sid)
	switch {
	case errors.Is(gerr, ErrNotFound):
		return domain.Order{}, ErrNotFound
	case gerr != nil:
		return domain.Order{}, gerr
	case cur.Status != domain.OrderPaid:
		return cur, ErrOrderState
	}
	return cur, ErrRefundUnderWay
}

// ReleaseOrderRefund gives up claim on order sid (its refund failed at the
// provider), so the next click may try again. Another claim is left alone.
func (s *Store) ReleaseOrderRefund(ctx context.Context, sid, claim string) error {
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String(s.table), Key: key(orderPK(sid), skOrder),
		UpdateExpression:          aws.String("REMOVE refund_claim, refund_claimed_at"),
		ConditionExpression:       aws.String("refund_claim = :c"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":c": &types.AttributeValueMemberS{Value: claim}},
	})
	return conditional("release order refund", err, nil)
}
