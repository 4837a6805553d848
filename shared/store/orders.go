package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Order states: PENDING → PAID → REFUNDED, or PENDING → EXPIRED / FAILED.
const (
	OrderPending  = "PENDING"
	OrderPaid     = "PAID"
	OrderExpired  = "EXPIRED"
	OrderFailed   = "FAILED"
	OrderRefunded = "REFUNDED"
)

const (
	skOrder = "ORDER"
	// orderIndexPrefix starts a user's orders in GSI1 (by creation time).
	orderIndexPrefix = "ORDER#"
)

// RefundDuplicate is the refund reason of a payment for a prompt the buyer
// already had: we refund it ourselves and the buyer keeps the prompt.
const RefundDuplicate = "duplicate"

// Order is one checkout: who buys which prompt for how much.
type Order struct {
	SessionID   string  `dynamodbav:"session_id"`
	UserID      string  `dynamodbav:"user_id"`
	PromptID    string  `dynamodbav:"prompt_id"`
	PromptTitle string  `dynamodbav:"prompt_title"`
	Amount      float64 `dynamodbav:"amount"`
	Status      string  `dynamodbav:"status"`
	Provider    string  `dynamodbav:"provider"`
	CreatedAt   string  `dynamodbav:"created_at"`
	PaidAt      string  `dynamodbav:"paid_at,omitempty"`
	// PaymentIntent links refunds back to the order.
	PaymentIntent string `dynamodbav:"payment_intent,omitempty"`
	// RefundedAt is the first refund's time, so a re-run refund reads the same.
	RefundedAt string `dynamodbav:"refunded_at,omitempty"`
	// RefundReason is RefundDuplicate for our own refund of a second
	// payment; empty for a refund made at Stripe.
	RefundReason string `dynamodbav:"refund_reason,omitempty"`
}

type orderItem struct {
	PK     string `dynamodbav:"PK"`
	SK     string `dynamodbav:"SK"`
	GSI1PK string `dynamodbav:"GSI1PK"`
	GSI1SK string `dynamodbav:"GSI1SK"`
	Order
}

// PutOrder stores a new order; an order already stored under the session
// id is left as it is (a retried create, or a webhook that came first).
func (s *Store) PutOrder(ctx context.Context, o Order) error {
	created, _ := time.Parse(time.RFC3339Nano, o.CreatedAt)
	it := orderItem{PK: orderPK(o.SessionID), SK: skOrder, GSI1PK: userPK(o.UserID), GSI1SK: orderIndexPrefix + sortableTime(created), Order: o}
	if err := s.putNew(ctx, it); err != nil && !errors.Is(err, errExists) {
		return fmt.Errorf("put order: %w", err)
	}
	return nil
}

// GetOrder reads an order by checkout session id.
func (s *Store) GetOrder(ctx context.Context, sid string) (Order, error) {
	var it orderItem
	if err := s.getItem(ctx, orderPK(sid), skOrder, &it); err != nil {
		return Order{}, fmt.Errorf("get order: %w", err)
	}
	return it.Order, nil
}

// ErrOrderState is a transition the order's current state does not allow.
var ErrOrderState = errors.New("order is not in a state that allows this")

// MarkOrderPaid moves an order to PAID from any state but REFUNDED and
// answers it. The first caller's paid_at stays, so everyone after reads the
// same time (deterministic activity keys).
func (s *Store) MarkOrderPaid(ctx context.Context, sid, paymentIntent string, now time.Time) (Order, error) {
	out, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                aws.String(s.table),
		Key:                      key(orderPK(sid), skOrder),
		UpdateExpression:         aws.String("SET #s = :paid, paid_at = if_not_exists(paid_at, :now), payment_intent = :pi"),
		ConditionExpression:      aws.String("attribute_exists(PK) AND #s <> :refunded"),
		ExpressionAttributeNames: map[string]string{"#s": "status"},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":paid":     &types.AttributeValueMemberS{Value: OrderPaid},
			":refunded": &types.AttributeValueMemberS{Value: OrderRefunded},
			":now":      &types.AttributeValueMemberS{Value: now.UTC().Format(time.RFC3339Nano)},
			":pi":       &types.AttributeValueMemberS{Value: paymentIntent},
		},
		ReturnValues: types.ReturnValueAllNew,
	})
	if isConditionFailed(err) {
		return Order{}, ErrOrderState
	}
	if err != nil {
		return Order{}, fmt.Errorf("mark order paid: %w", err)
	}
	var it orderItem
	if err := attributevalue.UnmarshalMap(out.Attributes, &it); err != nil {
		return Order{}, err
	}
	if paymentIntent != "" {
		if err := s.put(ctx, map[string]any{AttrPK: paymentPK(paymentIntent), AttrSK: skOrder, "session_id": sid}); err != nil {
			return Order{}, fmt.Errorf("index payment intent: %w", err)
		}
	}
	return it.Order, nil
}

// MarkOrderRefunded moves a paid order to REFUNDED (again, for a re-run) and
// answers it. The first caller's refunded_at and reason stay, so everyone
// after reads the same (deterministic activity keys). ErrOrderState when the
// order was never paid.
func (s *Store) MarkOrderRefunded(ctx context.Context, sid, reason string, now time.Time) (Order, error) {
	update := "SET #s = :refunded, refunded_at = if_not_exists(refunded_at, :now)"
	values := map[string]types.AttributeValue{
		":paid":     &types.AttributeValueMemberS{Value: OrderPaid},
		":refunded": &types.AttributeValueMemberS{Value: OrderRefunded},
		":now":      &types.AttributeValueMemberS{Value: now.UTC().Format(time.RFC3339Nano)},
	}
	if reason != "" {
		update += ", refund_reason = if_not_exists(refund_reason, :reason)"
		values[":reason"] = &types.AttributeValueMemberS{Value: reason}
	}
	out, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(s.table),
		Key:                       key(orderPK(sid), skOrder),
		UpdateExpression:          aws.String(update),
		ConditionExpression:       aws.String("attribute_exists(PK) AND (#s = :paid OR #s = :refunded)"),
		ExpressionAttributeNames:  map[string]string{"#s": "status"},
		ExpressionAttributeValues: values,
		ReturnValues:              types.ReturnValueAllNew,
	})
	if isConditionFailed(err) {
		return Order{}, ErrOrderState
	}
	if err != nil {
		return Order{}, fmt.Errorf("mark order refunded: %w", err)
	}
	var it orderItem
	if err := attributevalue.UnmarshalMap(out.Attributes, &it); err != nil {
		return Order{}, err
	}
	return it.Order, nil
}

// SetOrderStatus moves an order from one of the states in from to to.
// ErrOrderState when it is in none of them (an event that came too late).
func (s *Store) SetOrderStatus(ctx context.Context, sid, to string, from ...string) error {
	values := map[string]types.AttributeValue{":to": &types.AttributeValueMemberS{Value: to}}
	cond := "attribute_exists(PK) AND ("
	for i, f := range from {
		k := fmt.Sprintf(":f%d", i)
		values[k] = &types.AttributeValueMemberS{Value: f}
		if i > 0 {
			cond += " OR "
		}
		cond += "#s = " + k
	}
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(s.table),
		Key:                       key(orderPK(sid), skOrder),
		UpdateExpression:          aws.String("SET #s = :to"),
		ConditionExpression:       aws.String(cond + ")"),
		ExpressionAttributeNames:  map[string]string{"#s": "status"},
		ExpressionAttributeValues: values,
	})
	if isConditionFailed(err) {
		return ErrOrderState
	}
	if err != nil {
		return fmt.Errorf("set order status: %w", err)
	}
	return nil
}

// OrderByPaymentIntent finds the order a payment intent paid.
func (s *Store) OrderByPaymentIntent(ctx context.Context, pi string) (Order, error) {
	var ref struct {
		SessionID string `dynamodbav:"session_id"`
	}
	if err := s.getItem(ctx, paymentPK(pi), skOrder, &ref); err != nil {
		return Order{}, fmt.Errorf("order by payment intent: %w", err)
	}
	return s.GetOrder(ctx, ref.SessionID)
}

// RevokeOwnership removes uid's ownership of pid that order sid granted (a
// refund of that order). An ownership another order granted stays: a
// refunded second payment must not take away what the first one bought.
func (s *Store) RevokeOwnership(ctx context.Context, uid, pid, sid string) error {
	_, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName:                 aws.String(s.table),
		Key:                       key(userPK(uid), ownSK(pid)),
		ConditionExpression:       aws.String("order_id = :sid"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":sid": &types.AttributeValueMemberS{Value: sid}},
	})
	if err != nil && !isConditionFailed(err) {
		return fmt.Errorf("revoke ownership: %w", err)
	}
	return nil
}

// EventProcessed reports whether a webhook event was handled before.
func (s *Store) EventProcessed(ctx context.Context, id string) (bool, error) {
	var it map[string]any
	err := s.getItem(ctx, eventPK(id), "EVENT", &it)
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// MarkEventProcessed records a handled event, after its work succeeded; the
// record expires after 30 days (Stripe retries for 3).
func (s *Store) MarkEventProcessed(ctx context.Context, id, typ string, now time.Time) error {
	return s.put(ctx, map[string]any{
		AttrPK: eventPK(id), AttrSK: "EVENT", "type": typ,
		"processed_at": now.UTC().Format(time.RFC3339Nano), AttrExpires: now.Add(30 * 24 * time.Hour).Unix(),
	})
}

// LocalSession is the local test checkout's record of a checkout session,
// standing in for Stripe's.
type LocalSession struct {
	ID            string            `dynamodbav:"id"`
	Status        string            `dynamodbav:"status"`
	PaymentStatus string            `dynamodbav:"payment_status"`
	AmountCents   int64             `dynamodbav:"amount_cents"`
	Currency      string            `dynamodbav:"currency"`
	ProductName   string            `dynamodbav:"product_name"`
	ClientRef     string            `dynamodbav:"client_reference_id"`
	Metadata      map[string]string `dynamodbav:"metadata"`
	SuccessURL    string            `dynamodbav:"success_url"`
	CancelURL     string            `dynamodbav:"cancel_url"`
	PaymentIntent string            `dynamodbav:"payment_intent,omitempty"`
	Created       int64             `dynamodbav:"created"`
	IdemKey       string            `dynamodbav:"idempotency_key"`
}

// PutLocalSession stores a new local checkout session.
func (s *Store) PutLocalSession(ctx context.Context, ls LocalSession) error {
	item := struct {
		PK string `dynamodbav:"PK"`
		SK string `dynamodbav:"SK"`
		LocalSession
	}{localPayPK(ls.ID), "SESSION", ls}
	return s.putNew(ctx, item)
}

// GetLocalSession reads a local checkout session.
func (s *Store) GetLocalSession(ctx context.Context, sid string) (LocalSession, error) {
	var ls LocalSession
	if err := s.getItem(ctx, localPayPK(sid), "SESSION", &ls); err != nil {
		return LocalSession{}, fmt.Errorf("local session: %w", err)
	}
	return ls, nil
}

// CompleteLocalSession marks an open local session paid, once.
func (s *Store) CompleteLocalSession(ctx context.Context, sid, paymentIntent string) (LocalSession, error) {
	return s.closeLocalSession(ctx, sid, "SET #s = :to, payment_status = :paid, payment_intent = :pi", "complete",
		map[string]types.AttributeValue{
			":paid": &types.AttributeValueMemberS{Value: "paid"},
			":pi":   &types.AttributeValueMemberS{Value: paymentIntent},
		})
}

// ExpireLocalSession closes an open local session (as Stripe's expire
// does); ErrOrderState when it is not open.
func (s *Store) ExpireLocalSession(ctx context.Context, sid string) error {
	_, err := s.closeLocalSession(ctx, sid, "SET #s = :to", "expired", map[string]types.AttributeValue{})
	return err
}

// closeLocalSession moves an open local session to status to with update
// (values beside :to and :open) and answers it; ErrOrderState when the
// session is not open.
func (s *Store) closeLocalSession(ctx context.Context, sid, update, to string, values map[string]types.AttributeValue) (LocalSession, error) {
	values[":to"] = &types.AttributeValueMemberS{Value: to}
	values[":open"] = &types.AttributeValueMemberS{Value: "open"}
	out, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(s.table),
		Key:                       key(localPayPK(sid), "SESSION"),
		UpdateExpression:          aws.String(update),
		ConditionExpression:       aws.String("#s = :open"),
		ExpressionAttributeNames:  map[string]string{"#s": "status"},
		ExpressionAttributeValues: values,
		ReturnValues:              types.ReturnValueAllNew,
	})
	if isConditionFailed(err) {
		return LocalSession{}, ErrOrderState
	}
	if err != nil {
		return LocalSession{}, fmt.Errorf("local session %s: %w", to, err)
	}
	var ls LocalSession
	err = attributevalue.UnmarshalMap(out.Attributes, &ls)
	return ls, err
}

// LocalRefund is the local test checkout's record of a refund, standing in
// for Stripe's; one per idempotency key.
type LocalRefund struct {
	ID            string `dynamodbav:"id"`
	SessionID     string `dynamodbav:"session_id"`
	PaymentIntent string `dynamodbav:"payment_intent"`
	AmountCents   int64  `dynamodbav:"amount_cents"`
	Reason        string `dynamodbav:"reason"`
	Created       int64  `dynamodbav:"created"`
	IdemKey       string `dynamodbav:"idempotency_key"`
}

const localRefundPrefix = "REFUND#"

type localRefundItem struct {
	PK string `dynamodbav:"PK"`
	SK string `dynamodbav:"SK"`
	LocalRefund
}

// PutLocalRefund records a refund of a local session once per idempotency
// key and answers the stored one (a retry answers the first).
func (s *Store) PutLocalRefund(ctx context.Context, r LocalRefund) (LocalRefund, error) {
	it := localRefundItem{PK: localPayPK(r.SessionID), SK: localRefundPrefix + r.IdemKey, LocalRefund: r}
	err := s.putNew(ctx, it)
	if errors.Is(err, errExists) {
		err = s.getItem(ctx, it.PK, it.SK, &it)
	}
	if err != nil {
		return LocalRefund{}, fmt.Errorf("local refund: %w", err)
	}
	return it.LocalRefund, nil
}

// LocalRefunds lists the refunds of a local session.
func (s *Store) LocalRefunds(ctx context.Context, sid string) ([]LocalRefund, error) {
	items, err := queryAll[localRefundItem](ctx, s, &dynamodb.QueryInput{
		KeyConditionExpression: aws.String("PK = :pk AND begins_with(SK, :refund)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk":     &types.AttributeValueMemberS{Value: localPayPK(sid)},
			":refund": &types.AttributeValueMemberS{Value: localRefundPrefix},
		},
		ConsistentRead: aws.Bool(true),
	}, "local refunds")
	refunds := make([]LocalRefund, len(items))
	for i, it := range items {
		refunds[i] = it.LocalRefund
	}
	return refunds, err
}
