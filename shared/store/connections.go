package store

import (
	"context"
	"fmt"
	"time"
)

const connPrefix = "CONN#"

// Connection is a user's connection to a chat provider or an MCP server.
type Connection struct {
	ID         string `dynamodbav:"id"`
	Kind       string `dynamodbav:"kind"` // "llm" or "mcp"
	Provider   string `dynamodbav:"provider,omitempty"`
	Model      string `dynamodbav:"model,omitempty"`
	ServerName string `dynamodbav:"server_name"`
	CreatedAt  string `dynamodbav:"created_at"`
	// MCP handshake results (kind "mcp").
	ServerID        string   `dynamodbav:"server_id,omitempty"`
	EndpointURL     string   `dynamodbav:"endpoint_url,omitempty"`
	ServerVersion   string   `dynamodbav:"server_version,omitempty"`
	ProtocolVersion string   `dynamodbav:"protocol_version,omitempty"`
	Tools           []string `dynamodbav:"tools,omitempty"`
}

type connItem struct {
	PK string `dynamodbav:"PK"`
	SK string `dynamodbav:"SK"`
	Connection
	ExpiresAt int64 `dynamodbav:"expires_at"`
}

// connectionTTL: an unused connection is dropped after this long.
const connectionTTL = 30 * 24 * time.Hour

// PutConnection stores a new connection of uid.
func (s *Store) PutConnection(ctx context.Context, uid string, c Connection) error {
	created, err := time.Parse(time.RFC3339Nano, c.CreatedAt)
	if err != nil {
		created = time.Now()
	}
	it := connItem{PK: userPK(uid), SK: connPrefix + c.ID, Connection: c, ExpiresAt: created.Add(connectionTTL).Unix()}
	if err := s.putNew(ctx, it); err != nil {
		return fmt.Errorf("put connection: %w", err)
	}
	return nil
}

// GetConnection reads uid's connection; another user's id is ErrNotFound.
func (s *Store) GetConnection(ctx context.Context, uid, cid string) (Connection, error) {
	var it connItem
	if err := s.getItem(ctx, userPK(uid), connPrefix+cid, &it); err != nil {
		return Connection{}, fmt.Errorf("get connection: %w", err)
	}
	return it.Connection, nil
}
