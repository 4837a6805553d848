package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// A creator's payout account: the Stripe Connect account id on the creator
// item (stripe_account_id) and, beside it, a lookup item
// STRIPEACCT#<account id> / STRIPEACCT → user_id, so Stripe's
// account.updated (which names the account only) finds its creator. The
// payout fields (payouts_status, charges_enabled, payouts_enabled) are
// Stripe's report, written here only.

const skStripeAccount = "STRIPEACCT"

// PKStripeAccount is the partition of a payout account's lookup item
// (STRIPEACCT#<account id>).
const PKStripeAccount = "STRIPEACCT#"

func stripeAccountPK(acct string) string { return PKStripeAccount + acct }

// ErrOtherStripeAccount is a creator who already has another payout account.
var ErrOtherStripeAccount = errors.New("creator has another payout account")

// CreatorStripeAccount answers uid's payout account id ("" when none yet);
// ErrNotFound when uid is no creator.
func (s *Store) CreatorStripeAccount(ctx context.Context, uid string) (string, error) {
	var it creatorItem
	if err := s.getItem(ctx, userPK(uid), skCreator, &it); err != nil {
		return "", fmt.Errorf("creator stripe account: %w", err)
	}
	return it.StripeAccountID, nil
}

// SetCreatorStripeAccount stores acct as uid's payout account, once: the
// lookup item first (so a webhook about acct finds uid as soon as the
// creator names it), then the creator item, on condition that it names no
// other account. Storing the same account again is a no-op (two requests
// made with one idempotency key get one account from Stripe);
// ErrOtherStripeAccount when the creator already has another one,
// ErrNotFound when uid is no creator. A new account starts as
// details_needed until Stripe reports otherwise.
func (s *Store) SetCreatorStripeAccount(ctx context.Context, uid, acct string) error {
	if acct == "" {
		return errors.New("set creator stripe account: empty account id")
	}
	// A non-creator gets no lookup item pointing at them.
	if _, err := s.CreatorStripeAccount(ctx, uid); err != nil {
		return err
	}
	_, err := s.db.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: aws.String(s.table),
		Item: map[string]types.AttributeValue{
			AttrPK:    &types.AttributeValueMemberS{Value: stripeAccountPK(acct)},
			AttrSK:    &types.AttributeValueMemberS{Value: skStripeAccount},
			"user_id": &types.AttributeValueMemberS{Value: uid},
		},
		ConditionExpression:       aws.String("attribute_not_exists(PK) OR user_id = :uid"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":uid": &types.AttributeValueMemberS{Value: uid}},
	})
	if isConditionFailed(err) {
		return fmt.Errorf("set creator stripe account: %s belongs to another creator", acct)
	}
	if err != nil {
		return fmt.Errorf("set creator stripe account: %w", err)
	}
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String(s.table),
		Key:                 key(userPK(uid), skCreator),
		UpdateExpression:    aws.String("SET stripe_account_id = :a, payouts_status = if_not_exists(payouts_status, :dn)"),
		ConditionExpression: aws.String("attribute_exists(PK) AND (attribute_not_exists(stripe_account_id) OR stripe_account_id = :a)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":a":  &types.AttributeValueMemberS{Value: acct},
			":dn": &types.AttributeValueMemberS{Value: "details_needed"},
		},
	})
	if isConditionFailed(err) {
		if _, gerr := s.CreatorStripeAccount(ctx, uid); gerr != nil {
			return gerr
		}
		return ErrOtherStripeAccount
	}
	if err != nil {
		return fmt.Errorf("set creator stripe account: %w", err)
	}
	return nil
}

// CreatorByStripeAccount answers the creator (user id) whose payout account
// is acct; ErrNotFound when no creator stored it.
func (s *Store) CreatorByStripeAccount(ctx context.Context, acct string) (string, error) {
	var it struct {
		UserID string `dynamodbav:"user_id"`
	}
	if err := s.getItem(ctx, stripeAccountPK(acct), skStripeAccount, &it); err != nil {
		return "", fmt.Errorf("creator by stripe account: %w", err)
	}
	return it.UserID, nil
}

// CreatorPayouts is a payout account's state as Stripe reports it.
type CreatorPayouts struct {
	Status         string // none | details_needed | pending | enabled
	ChargesEnabled bool
	PayoutsEnabled bool
}

// SetCreatorPayouts writes Stripe's report about acct on its creator, uid,
// on condition that the creator's account is still acct (ErrNotFound
// otherwise). The same report written twice leaves the item as it was.
func (s *Store) SetCreatorPayouts(ctx context.Context, uid, acct string, p CreatorPayouts) error {
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String(s.table),
		Key:                 key(userPK(uid), skCreator),
		UpdateExpression:    aws.String("SET payouts_status = :st, charges_enabled = :ce, payouts_enabled = :pe"),
		ConditionExpression: aws.String("stripe_account_id = :a"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":a":  &types.AttributeValueMemberS{Value: acct},
			":st": &types.AttributeValueMemberS{Value: p.Status},
			":ce": &types.AttributeValueMemberBOOL{Value: p.ChargesEnabled},
			":pe": &types.AttributeValueMemberBOOL{Value: p.PayoutsEnabled},
		},
	})
	if isConditionFailed(err) {
		return fmt.Errorf("set creator payouts: %w", ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("set creator payouts: %w", err)
	}
	return nil
}
