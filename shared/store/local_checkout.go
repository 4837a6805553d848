package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The local test checkout (shared/payments' LocalProvider, used when no
// Stripe key is set) keeps its own records of checkout sessions and refunds,
// standing in for Stripe's, in the product table: one partition per session
// holding the session and its refunds.

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

type localSessionItem struct {
	PK string `dynamodbav:"PK"`
	SK string `dynamodbav:"SK"`
	LocalSession
}

// PutLocalSession stores a new local checkout session.
func (s *Store) PutLocalSession(ctx context.Context, ls LocalSession) error {
	if err := s.putNew(ctx, localSessionItem{localCheckoutPK(ls.ID), skLocalSession, ls}); err != nil {
		return fmt.Errorf("put local session: %w", err)
	}
	return nil
}

// GetLocalSession reads a local checkout session.
func (s *Store) GetLocalSession(ctx context.Context, sid string) (LocalSession, error) {
	var it localSessionItem
	if err := s.getItem(ctx, localCheckoutPK(sid), skLocalSession, &it); err != nil {
		return LocalSession{}, fmt.Errorf("local session: %w", err)
	}
	return it.LocalSession, nil
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
		TableName:        aws.String(s.table),
		Key:              key(localCheckoutPK(sid), skLocalSession),
		UpdateExpression: aws.String(update),
		// Only an open session closes, once, as at Stripe; a missing one
		// has no status and fails the condition too.
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
	if err := attributevalue.UnmarshalMap(out.Attributes, &ls); err != nil {
		return LocalSession{}, fmt.Errorf("local session %s: %w", to, err)
	}
	return ls, nil
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

type localRefundItem struct {
	PK string `dynamodbav:"PK"`
	SK string `dynamodbav:"SK"`
	LocalRefund
}

// PutLocalRefund records a refund of a local session once per idempotency
// key and answers the stored one (a retry answers the first).
func (s *Store) PutLocalRefund(ctx context.Context, r LocalRefund) (LocalRefund, error) {
	it := localRefundItem{PK: localCheckoutPK(r.SessionID), SK: localRefundSK(r.IdemKey), LocalRefund: r}
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
	items, err := queryAll[localRefundItem](ctx, s, partitionQuery(localCheckoutPK(sid), localRefundPrefix), "local refunds")
	if err != nil {
		return nil, err
	}
	return convertAll(items, func(it localRefundItem) LocalRefund { return it.LocalRefund }), nil
}
