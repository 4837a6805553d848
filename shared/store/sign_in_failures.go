package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// SignInFailure is why a user's sign-in to an MCP server failed, in the
// product's words: the sign-in's return address carries only its id, so
// no text of the address is shown, and only that user reads it.
type SignInFailure struct {
	ServerID string
	Code     string
	Detail   string
	Expires  time.Time
}

type signInFailureItem struct {
	PK        string `dynamodbav:"PK"`
	SK        string `dynamodbav:"SK"`
	ServerID  string `dynamodbav:"server_id"`
	Code      string `dynamodbav:"code"`
	Detail    string `dynamodbav:"detail"`
	ValidTo   int64  `dynamodbav:"valid_to"`   // unix ms
	ExpiresAt int64  `dynamodbav:"expires_at"` // TTL (unix s)
}

// PutSignInFailure keeps f for uid under the hash of its id until f.Expires.
func (s *Store) PutSignInFailure(ctx context.Context, uid, idHash string, f SignInFailure) error {
	it := signInFailureItem{PK: userPK(uid), SK: signInFailureSK(idHash), ServerID: f.ServerID, Code: f.Code, Detail: f.Detail,
		ValidTo: f.Expires.UnixMilli(), ExpiresAt: f.Expires.Unix()}
	if err := s.putNew(ctx, it); err != nil {
		return fmt.Errorf("put sign-in failure: %w", err)
	}
	return nil
}

// SignInFailure answers uid's failure by the hash of its id; ErrNotFound
// when there is none for uid (another user's included) or it has expired
// (the table's TTL deletes late, so the time is checked here).
func (s *Store) SignInFailure(ctx context.Context, uid, idHash string, now time.Time) (SignInFailure, error) {
	var it signInFailureItem
	err := s.getItem(ctx, userPK(uid), signInFailureSK(idHash), &it)
	if errors.Is(err, ErrNotFound) {
		return SignInFailure{}, ErrNotFound
	}
	if err != nil {
		return SignInFailure{}, fmt.Errorf("sign-in failure: %w", err)
	}
	if !now.Before(time.UnixMilli(it.ValidTo)) {
		return SignInFailure{}, ErrNotFound
	}
	return SignInFailure{ServerID: it.ServerID, Code: it.Code, Detail: it.Detail, Expires: time.UnixMilli(it.ValidTo)}, nil
}
