package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
)

var (
	ErrEmailTaken    = errors.New("email already registered")
	ErrUsernameTaken = errors.New("username already taken")
)

// orphanGuardAge is how old a uniqueness guard must be, with its user record
// missing, before another registration may take it over. A younger guard may
// belong to a registration still in progress.
const orphanGuardAge = time.Minute

type userItem struct {
	PK           string `dynamodbav:"PK"`
	SK           string `dynamodbav:"SK"`
	ID           string `dynamodbav:"id"`
	Email        string `dynamodbav:"email"`
	Username     string `dynamodbav:"username"`
	FullName     string `dynamodbav:"full_name"`
	PasswordHash string `dynamodbav:"password_hash,omitempty"`
	GoogleSub    string `dynamodbav:"google_sub,omitempty"`
	IsSuperuser  bool   `dynamodbav:"is_superuser"`
	// IsVerified: the owner proved the email address (a mailed link, a
	// password reset link, or Google's verified email). Accounts stored
	// before the attribute existed read as unverified.
	IsVerified bool   `dynamodbav:"is_verified"`
	CreatedAt  string `dynamodbav:"created_at"`
	Disabled   bool   `dynamodbav:"disabled,omitempty"`
	// GSI2: the admins' listing of every account (keys.go); UsernameLower
	// is what their search matches (emails are stored lower-case).
	GSI2PK        string `dynamodbav:"GSI2PK,omitempty"`
	GSI2SK        string `dynamodbav:"GSI2SK,omitempty"`
	UsernameLower string `dynamodbav:"username_lower,omitempty"`
}

type guardItem struct {
	PK        string `dynamodbav:"PK"`
	SK        string `dynamodbav:"SK"`
	UserID    string `dynamodbav:"user_id"`
	CreatedAt string `dynamodbav:"created_at"`
}

func (it userItem) domain() domain.User {
	created, _ := time.Parse(time.RFC3339Nano, it.CreatedAt)
	return domain.User{
		ID: it.ID, Email: it.Email, Username: it.Username, FullName: it.FullName,
		IsSuperuser: it.IsSuperuser, IsVerified: it.IsVerified, PasswordHash: it.PasswordHash, GoogleSub: it.GoogleSub,
		CreatedAt: created, Disabled: it.Disabled,
	}
}

// CreateUser stores a new account whose email and username are unique,
// case-insensitively. The profile is written first (unreachable until a guard
// points at it), then the email guard, then the username guard; a lost race
// undoes what this call wrote, so concurrent registrations of one email end
// with exactly one account.
func (s *Store) CreateUser(ctx context.Context, u domain.User) error {
	item := userItem{
		PK: userPK(u.ID), SK: skProfile, ID: u.ID, Email: u.Email, Username: u.Username,
		FullName: u.FullName, PasswordHash: u.PasswordHash, GoogleSub: u.GoogleSub,
		IsSuperuser: u.IsSuperuser, IsVerified: u.IsVerified, CreatedAt: u.CreatedAt.UTC().Format(time.RFC3339Nano),
		GSI2PK: GSI2Users, GSI2SK: userGSI2SK(u.CreatedAt, u.ID), UsernameLower: strings.ToLower(u.Username),
	}
	if err := s.putNew(ctx, item); err != nil {
		return fmt.Errorf("create user: %w", err)
	}
	if err := s.claimGuard(ctx, emailGuardPK(u.Email), u.ID); err != nil {
		s.deleteProfile(ctx, u.ID)
		if errors.Is(err, errGuardTaken) {
			return ErrEmailTaken
		}
		return fmt.Errorf("create user: %w", err)
	}
	if err := s.claimGuard(ctx, usernameGuardPK(u.Username), u.ID); err != nil {
		s.releaseGuard(ctx, emailGuardPK(u.Email), u.ID)
		s.deleteProfile(ctx, u.ID)
		if errors.Is(err, errGuardTaken) {
			return ErrUsernameTaken
		}
		return fmt.Errorf("create user: %w", err)
	}
	return nil
}

// GetUser reads a profile by id.
func (s *Store) GetUser(ctx context.Context, id string) (domain.User, error) {
	var it userItem
	if err := s.getItem(ctx, userPK(id), skProfile, &it); err != nil {
		return domain.User{}, fmt.Errorf("get user: %w", err)
	}
	return it.domain(), nil
}

// UserByEmail finds the account that owns email (any case).
func (s *Store) UserByEmail(ctx context.Context, email string) (domain.User, error) {
	return s.userByGuard(ctx, emailGuardPK(email))
}

// UserByGoogleSub finds the account linked to a Google subject.
func (s *Store) UserByGoogleSub(ctx context.Context, sub string) (domain.User, error) {
	return s.userByGuard(ctx, googleGuardPK(sub))
}

// LinkGoogle points a Google subject at an account. Linking the same pair
// again is a no-op; a subject linked to another account is ErrEmailTaken.
func (s *Store) LinkGoogle(ctx context.Context, sub, uid string) error {
	err := s.claimGuard(ctx, googleGuardPK(sub), uid)
	if errors.Is(err, errGuardTaken) {
		var g guardItem
		if gerr := s.getItem(ctx, googleGuardPK(sub), skGuard, &g); gerr == nil && g.UserID == uid {
			return nil
		}
		return ErrEmailTaken
	}
	if err != nil {
		return fmt.Errorf("link google: %w", err)
	}
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String(s.table),
		Key:                 key(userPK(uid), skProfile),
		UpdateExpression:    aws.String("SET google_sub = :sub"),
		ConditionExpression: aws.String("attribute_exists(PK)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":sub": &types.AttributeValueMemberS{Value: sub},
		},
	})
	if err != nil {
		return fmt.Errorf("link google: %w", err)
	}
	return nil
}

func (s *Store) userByGuard(ctx context.Context, guardPK string) (domain.User, error) {
	var g guardItem
	if err := s.getItem(ctx, guardPK, skGuard, &g); err != nil {
		return domain.User{}, err
	}
	return s.GetUser(ctx, g.UserID)
}

var errGuardTaken = errors.New("guard taken")

// claimGuard makes guardPK point at uid, unless another live account holds it.
func (s *Store) claimGuard(ctx context.Context, guardPK, uid string) error {
	now := time.Now().UTC()
	g := guardItem{PK: guardPK, SK: skGuard, UserID: uid, CreatedAt: now.Format(time.RFC3339Nano)}
	err := s.putNew(ctx, g)
	if !errors.Is(err, errExists) {
		return err
	}
	// Taken. Reclaim only an old guard whose account record is gone (a
	// registration that died half-way).
	var old guardItem
	if err := s.getItem(ctx, guardPK, skGuard, &old); err != nil {
		if errors.Is(err, ErrNotFound) {
			return s.claimGuard(ctx, guardPK, uid) // released meanwhile
		}
		return err
	}
	created, _ := time.Parse(time.RFC3339Nano, old.CreatedAt)
	if now.Sub(created) < orphanGuardAge {
		return errGuardTaken
	}
	if _, err := s.GetUser(ctx, old.UserID); !errors.Is(err, ErrNotFound) {
		if err != nil {
			return err
		}
		return errGuardTaken
	}
	av, err := attributevalue.MarshalMap(g)
	if err != nil {
		return err
	}
	_, err = s.db.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:           aws.String(s.table),
		Item:                av,
		ConditionExpression: aws.String("user_id = :old"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":old": &types.AttributeValueMemberS{Value: old.UserID},
		},
	})
	if isConditionFailed(err) {
		return errGuardTaken
	}
	return err
}

// releaseGuard deletes guardPK if it still points at uid. Best effort: a
// leftover guard is reclaimable later.
func (s *Store) releaseGuard(ctx context.Context, guardPK, uid string) {
	_, _ = s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName:           aws.String(s.table),
		Key:                 key(guardPK, skGuard),
		ConditionExpression: aws.String("user_id = :uid"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":uid": &types.AttributeValueMemberS{Value: uid},
		},
	})
}

func (s *Store) deleteProfile(ctx context.Context, uid string) {
	_, _ = s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(s.table), Key: key(userPK(uid), skProfile)})
}
