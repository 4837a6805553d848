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

// One open checkout per user and prompt: the record under the user's
// partition says which checkout session a new "Purchase" answers, so a
// double click or 30 concurrent calls open one session, not 30. Whoever
// claims the record (a conditional write) creates the session; the others
// wait for it to be written.

// Checkout states: being created by the holder of Token, or open at URL.
const (
	CheckoutCreating = "creating"
	CheckoutOpen     = "open"
)

// OpenCheckout is the record of the user's checkout for one prompt.
type OpenCheckout struct {
	PromptID  string `dynamodbav:"prompt_id"`
	State     string `dynamodbav:"state"`
	Token     string `dynamodbav:"token"`
	SessionID string `dynamodbav:"session_id,omitempty"`
	URL       string `dynamodbav:"checkout_url,omitempty"`
	// LeaseUntil (Unix ms) ends a creator's claim that never finished.
	LeaseUntil int64  `dynamodbav:"lease_until"`
	CreatedAt  string `dynamodbav:"created_at,omitempty"`
}

// ErrCheckoutTaken is a claim that lost to another caller's.
var ErrCheckoutTaken = errors.New("checkout record changed")

type checkoutItem struct {
	PK string `dynamodbav:"PK"`
	SK string `dynamodbav:"SK"`
	OpenCheckout
}

// GetOpenCheckout reads uid's checkout record for pid (ErrNotFound if none).
func (s *Store) GetOpenCheckout(ctx context.Context, uid, pid string) (OpenCheckout, error) {
	var it checkoutItem
	if err := s.getItem(ctx, userPK(uid), checkoutSK(pid), &it); err != nil {
		return OpenCheckout{}, fmt.Errorf("open checkout: %w", err)
	}
	return it.OpenCheckout, nil
}

// ClaimCheckout makes the caller (token) the creator of uid's checkout for
// pid until leaseUntil, replacing the record whose token was seen ("" when
// there was none). ErrCheckoutTaken when the record changed since.
func (s *Store) ClaimCheckout(ctx context.Context, uid, pid, token, seen string, leaseUntil time.Time) error {
	av, err := attributevalue.MarshalMap(checkoutItem{PK: userPK(uid), SK: checkoutSK(pid), OpenCheckout: OpenCheckout{
		PromptID: pid, State: CheckoutCreating, Token: token, LeaseUntil: leaseUntil.UnixMilli(),
	}})
	if err != nil {
		return err
	}
	in := &dynamodb.PutItemInput{TableName: aws.String(s.table), Item: av}
	if seen == "" {
		in.ConditionExpression = aws.String("attribute_not_exists(PK)")
	} else {
		in.ConditionExpression = aws.String("#t = :seen")
		in.ExpressionAttributeNames = map[string]string{"#t": "token"}
		in.ExpressionAttributeValues = map[string]types.AttributeValue{":seen": &types.AttributeValueMemberS{Value: seen}}
	}
	_, err = s.db.PutItem(ctx, in)
	return conditional("claim checkout", err, ErrCheckoutTaken)
}

// OpenCheckoutAt records the session the claim's holder created.
// ErrCheckoutTaken when the claim was lost meanwhile (its lease ran out).
func (s *Store) OpenCheckoutAt(ctx context.Context, uid, pid, token, sid, url string, now time.Time) error {
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                aws.String(s.table),
		Key:                      key(userPK(uid), checkoutSK(pid)),
		UpdateExpression:         aws.String("SET #s = :open, session_id = :sid, checkout_url = :url, created_at = :now"),
		ConditionExpression:      aws.String("#t = :token"),
		ExpressionAttributeNames: map[string]string{"#s": "state", "#t": "token"},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":open":  &types.AttributeValueMemberS{Value: CheckoutOpen},
			":sid":   &types.AttributeValueMemberS{Value: sid},
			":url":   &types.AttributeValueMemberS{Value: url},
			":now":   &types.AttributeValueMemberS{Value: now.UTC().Format(time.RFC3339Nano)},
			":token": &types.AttributeValueMemberS{Value: token},
		},
	})
	return conditional("open checkout", err, ErrCheckoutTaken)
}

// ReleaseCheckout removes uid's checkout record for pid if it still holds
// token (a creator that failed, or a checkout that is over).
func (s *Store) ReleaseCheckout(ctx context.Context, uid, pid, token string) error {
	_, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName:                 aws.String(s.table),
		Key:                       key(userPK(uid), checkoutSK(pid)),
		ConditionExpression:       aws.String("#t = :token"),
		ExpressionAttributeNames:  map[string]string{"#t": "token"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":token": &types.AttributeValueMemberS{Value: token}},
	})
	if err != nil && !isConditionFailed(err) {
		return fmt.Errorf("release checkout: %w", err)
	}
	return nil
}
