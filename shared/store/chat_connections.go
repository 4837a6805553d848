package store

import (
	"context"
	"fmt"
	"time"

	"aiwork/shared/domain"
)

// A chat connection is one provider model a user connected to, under the
// user's partition (USER#<uid> / CONN#<cid>); the chat names it in every
// message. A user's MCP connections are another item (mcp_connections.go).

// chatConnKind marks a chat connection item. Items of kind "mcp" may sit
// under the same key prefix in older tables; they are no chat connection.
const chatConnKind = "llm"

// chatConnAttrs is a domain.ChatConnection as stored: the same fields in
// the same order, so the two convert into each other (Go ignores tags in a
// struct conversion) and a field added to one only fails to compile.
type chatConnAttrs struct {
	ID        string `dynamodbav:"id"`
	Provider  string `dynamodbav:"provider,omitempty"`
	Model     string `dynamodbav:"model,omitempty"`
	Name      string `dynamodbav:"server_name"`
	CreatedAt string `dynamodbav:"created_at"`
}

type chatConnItem struct {
	PK   string `dynamodbav:"PK"`
	SK   string `dynamodbav:"SK"`
	Kind string `dynamodbav:"kind"`
	chatConnAttrs
	ExpiresAt int64 `dynamodbav:"expires_at"`
}

// chatConnectionTTL: an unused connection is dropped after this long.
const chatConnectionTTL = 30 * 24 * time.Hour

// PutChatConnection stores a new chat connection of uid.
func (s *Store) PutChatConnection(ctx context.Context, uid string, c domain.ChatConnection) error {
	created, err := time.Parse(time.RFC3339Nano, c.CreatedAt)
	if err != nil {
		created = time.Now()
	}
	it := chatConnItem{
		PK: userPK(uid), SK: chatConnSK(c.ID), Kind: chatConnKind,
		chatConnAttrs: chatConnAttrs(c), ExpiresAt: created.Add(chatConnectionTTL).Unix(),
	}
	if err := s.putNew(ctx, it); err != nil {
		return fmt.Errorf("put chat connection: %w", err)
	}
	return nil
}

// GetChatConnection reads uid's chat connection cid; ErrNotFound when uid
// has none by that id (another user's id included: it lives under their
// key), the item is of another kind, or the connection has expired. A
// connection read once is served from memory until it expires
// (chat_connection_cache.go).
func (s *Store) GetChatConnection(ctx context.Context, uid, cid string) (domain.ChatConnection, error) {
	now := time.Now()
	if c, ok := s.chatConns.get(uid, cid, now); ok {
		return c, nil
	}
	var it chatConnItem
	if err := s.getItem(ctx, userPK(uid), chatConnSK(cid), &it); err != nil {
		return domain.ChatConnection{}, fmt.Errorf("get chat connection: %w", err)
	}
	expires := time.Unix(it.ExpiresAt, 0)
	if it.ExpiresAt == 0 { // none recorded: it lives a whole term from now
		expires = now.Add(chatConnectionTTL)
	}
	// DynamoDB deletes an expired item some time after its expiry.
	if it.Kind != chatConnKind || !now.Before(expires) {
		return domain.ChatConnection{}, fmt.Errorf("get chat connection: %w", ErrNotFound)
	}
	c := domain.ChatConnection(it.chatConnAttrs)
	s.chatConns.put(uid, c, expires)
	return c, nil
}
