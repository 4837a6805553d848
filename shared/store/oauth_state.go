package store

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

type oauthStateItem struct {
	PK        string `dynamodbav:"PK"`
	SK        string `dynamodbav:"SK"`
	Verifier  string `dynamodbav:"verifier"`
	ExpiresAt int64  `dynamodbav:"expires_at"`
}

// SaveOAuthState keeps a PKCE verifier server-side under the state's nonce,
// so the verifier never travels through the browser.
func (s *Store) SaveOAuthState(ctx context.Context, nonce, verifier string, expires time.Time) error {
	it := oauthStateItem{PK: oauthStatePK(nonce), SK: skOAuthState, Verifier: verifier, ExpiresAt: expires.Unix()}
	if err := s.putNew(ctx, it); err != nil {
		return fmt.Errorf("save oauth state: %w", err)
	}
	return nil
}

// TakeOAuthState returns and deletes the verifier in one write, so a state
// is usable once; ErrNotFound for unknown, used or expired states.
func (s *Store) TakeOAuthState(ctx context.Context, nonce string, now time.Time) (string, error) {
	out, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName:    aws.String(s.table),
		Key:          key(oauthStatePK(nonce), skOAuthState),
		ReturnValues: types.ReturnValueAllOld,
	})
	if err != nil {
		return "", fmt.Errorf("take oauth state: %w", err)
	}
	if out.Attributes == nil {
		return "", ErrNotFound
	}
	var it oauthStateItem
	if err := attributevalue.UnmarshalMap(out.Attributes, &it); err != nil {
		return "", fmt.Errorf("take oauth state: %w", err)
	}
	if now.Unix() > it.ExpiresAt {
		return "", ErrNotFound
	}
	return it.Verifier, nil
}
