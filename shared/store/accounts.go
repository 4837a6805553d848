package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
)

// ErrAlreadyVerified refuses a Google take-over of an account whose email
// is verified: such an account is linked, never taken over.
var ErrAlreadyVerified = errors.New("account email already verified")

// MarkVerified records that the owner proved the account's email address,
// and makes the account an admin when admin is set (ADMIN_EMAILS: granted
// only to a proven address). One conditional write on the profile; doing
// it again changes nothing.
func (s *Store) MarkVerified(ctx context.Context, uid string, admin bool) (domain.User, error) {
	set := "SET is_verified = :t"
	if admin {
		set += ", is_superuser = :t"
	}
	return s.updateProfile(ctx, "mark verified", uid, set, "attribute_exists(PK)", map[string]types.AttributeValue{
		":t": &types.AttributeValueMemberBOOL{Value: true},
	})
}

// ResetPassword sets a new password hash through a mailed reset link, which
// also proves the address: the account becomes verified (and an admin when
// admin is set). The caller then ends every session of the user.
func (s *Store) ResetPassword(ctx context.Context, uid, hash string, admin bool) (domain.User, error) {
	set := "SET password_hash = :h, is_verified = :t"
	if admin {
		set += ", is_superuser = :t"
	}
	return s.updateProfile(ctx, "reset password", uid, set, "attribute_exists(PK)", map[string]types.AttributeValue{
		":h": &types.AttributeValueMemberS{Value: hash},
		":t": &types.AttributeValueMemberBOOL{Value: true},
	})
}

// TakeOverForGoogle hands an account whose email was never verified to the
// Google identity sub that proved the address: in one write the password
// (set by whoever registered the address) is removed, the subject recorded
// and the email marked verified. The condition refuses a verified account
// (ErrAlreadyVerified): that one is linked instead, keeping its password.
// The caller ends every earlier session and then claims the Google guard.
func (s *Store) TakeOverForGoogle(ctx context.Context, uid, sub string, admin bool) (domain.User, error) {
	set := "SET google_sub = :sub, is_verified = :t"
	if admin {
		set += ", is_superuser = :t"
	}
	u, err := s.updateProfile(ctx, "google take-over", uid, set+" REMOVE password_hash",
		"attribute_exists(PK) AND (attribute_not_exists(is_verified) OR is_verified = :f)",
		map[string]types.AttributeValue{
			":sub": &types.AttributeValueMemberS{Value: sub},
			":t":   &types.AttributeValueMemberBOOL{Value: true},
			":f":   &types.AttributeValueMemberBOOL{Value: false},
		})
	if errors.Is(err, errConditionFailed) {
		if _, gerr := s.GetUser(ctx, uid); gerr != nil {
			return domain.User{}, gerr
		}
		return domain.User{}, ErrAlreadyVerified
	}
	return u, err
}

var errConditionFailed = errors.New("condition failed")

// updateProfile runs one conditional UpdateItem on uid's profile and
// answers the account after it: ErrNotFound when the profile is missing
// and the condition only asked for it, errConditionFailed otherwise.
func (s *Store) updateProfile(ctx context.Context, op, uid, update, cond string, values map[string]types.AttributeValue) (domain.User, error) {
	out, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(s.table),
		Key:                       key(userPK(uid), skProfile),
		UpdateExpression:          aws.String(update),
		ConditionExpression:       aws.String(cond),
		ExpressionAttributeValues: values,
		ReturnValues:              types.ReturnValueAllNew,
	})
	if isConditionFailed(err) {
		if cond == "attribute_exists(PK)" {
			return domain.User{}, fmt.Errorf("%s: %w", op, ErrNotFound)
		}
		return domain.User{}, fmt.Errorf("%s: %w", op, errConditionFailed)
	}
	if err != nil {
		return domain.User{}, fmt.Errorf("%s: %w", op, err)
	}
	var it userItem
	if err := attributevalue.UnmarshalMap(out.Attributes, &it); err != nil {
		return domain.User{}, fmt.Errorf("%s: %w", op, err)
	}
	return it.domain(), nil
}

// DeleteUser removes an account: its profile first (so its uniqueness
// guards become reclaimable and its tokens stop working), then every other
// item of its partition (sessions, quota, ownerships, activities), then the
// guards that still point at it. Safe to run again after a failure.
func (s *Store) DeleteUser(ctx context.Context, uid string) error {
	u, err := s.GetUser(ctx, uid)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return fmt.Errorf("delete user: %w", err)
	}
	keys, err := s.partitionKeys(ctx, userPK(uid), "")
	if err != nil {
		return fmt.Errorf("delete user: %w", err)
	}
	s.deleteProfile(ctx, uid)
	for _, k := range keys {
		if _, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(s.table), Key: k}); err != nil {
			return fmt.Errorf("delete user: %w", err)
		}
	}
	if u.ID != "" {
		s.releaseGuard(ctx, emailGuardPK(u.Email), uid)
		s.releaseGuard(ctx, usernameGuardPK(u.Username), uid)
		if u.GoogleSub != "" {
			s.releaseGuard(ctx, googleGuardPK(u.GoogleSub), uid)
		}
	}
	return nil
}
