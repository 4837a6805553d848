package store

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// ToolAllowance is a tool a user lets the chat call without asking, on one
// registry server.
type ToolAllowance struct {
	ServerID  string
	Tool      string
	CreatedAt string // RFC 3339
}

type toolAllowItem struct {
	PK        string `dynamodbav:"PK"`
	SK        string `dynamodbav:"SK"`
	ServerID  string `dynamodbav:"server_id"`
	Tool      string `dynamodbav:"tool"`
	CreatedAt string `dynamodbav:"created_at"`
}

// AllowToolAlways records that uid always allows tool on serverID. Saying
// it again keeps the first record (idempotent).
func (s *Store) AllowToolAlways(ctx context.Context, uid, serverID, tool string, now time.Time) error {
	it := toolAllowItem{PK: userPK(uid), SK: toolAllowSK(serverID, tool), ServerID: serverID, Tool: tool,
		CreatedAt: now.UTC().Format(time.RFC3339)}
	if !keyFits(it.PK, it.SK) {
		return fmt.Errorf("allow tool: %w", ErrNotFound)
	}
	if err := s.putNew(ctx, it); err != nil && err != errExists {
		return fmt.Errorf("allow tool: %w", err)
	}
	return nil
}

// ToolAllowances lists the tools uid always allows, by server and tool.
func (s *Store) ToolAllowances(ctx context.Context, uid string) ([]ToolAllowance, error) {
	items, err := queryAll[toolAllowItem](ctx, s, partitionQuery(userPK(uid), toolAllowPrefix), "tool allowances")
	if err != nil {
		return nil, err
	}
	out := make([]ToolAllowance, 0, len(items))
	for _, it := range items {
		out = append(out, ToolAllowance{ServerID: it.ServerID, Tool: it.Tool, CreatedAt: it.CreatedAt})
	}
	return out, nil
}

// RevokeToolAllowance forgets one allowance of uid; ErrNotFound when there
// is none (another user's included: it lives under their key).
func (s *Store) RevokeToolAllowance(ctx context.Context, uid, serverID, tool string) error {
	pk, sk := userPK(uid), toolAllowSK(serverID, tool)
	if !keyFits(pk, sk) {
		return fmt.Errorf("revoke tool allowance: %w", ErrNotFound)
	}
	_, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName:           aws.String(s.table),
		Key:                 key(pk, sk),
		ConditionExpression: aws.String("attribute_exists(PK)"), // say "not found" rather than succeed silently
	})
	return conditional("revoke tool allowance", err, fmt.Errorf("revoke tool allowance: %w", ErrNotFound))
}
