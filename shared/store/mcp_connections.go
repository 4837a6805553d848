package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
)

// mcpConnItem is a user's MCP connection. The API key is only ever stored
// sealed (binary, see shared/mcp's Sealer); the clear key has no attribute.
type mcpConnItem struct {
	PK              string                `dynamodbav:"PK"`
	SK              string                `dynamodbav:"SK"`
	ID              string                `dynamodbav:"id"`
	ServerID        string                `dynamodbav:"server_id"`
	ServerName      string                `dynamodbav:"server_name,omitempty"`
	EndpointURL     string                `dynamodbav:"endpoint_url,omitempty"`
	EndpointHost    string                `dynamodbav:"endpoint_host,omitempty"`
	Transport       string                `dynamodbav:"transport,omitempty"`
	ModelType       string                `dynamodbav:"model_type,omitempty"`
	ProtocolVersion string                `dynamodbav:"protocol_version,omitempty"`
	ServerInfo      *mcpImplementationAtt `dynamodbav:"server_info,omitempty"`
	Tools           []mcpToolAtt          `dynamodbav:"tools,omitempty"` // written before tools_json; read only
	ToolsJSON       string                `dynamodbav:"tools_json,omitempty"`
	SealedAPIKey    []byte                `dynamodbav:"sealed_api_key,omitempty"`
	APIKeyLast4     string                `dynamodbav:"api_key_last4,omitempty"`
	APIKeyHeader    string                `dynamodbav:"api_key_header,omitempty"`
	ConnectedAt     string                `dynamodbav:"connected_at"`
	ToolsCheckedAt  string                `dynamodbav:"tools_checked_at,omitempty"`
	OAuth           bool                  `dynamodbav:"oauth,omitempty"`
	GrantVersion    int                   `dynamodbav:"grant_version"`
	NeedsSignIn     bool                  `dynamodbav:"needs_sign_in,omitempty"`
	SignInScope     string                `dynamodbav:"sign_in_scope,omitempty"`
}

func (it mcpConnItem) domain() domain.MCPConnection {
	c := domain.MCPConnection{
		ID: it.ID, ServerID: it.ServerID, ServerName: it.ServerName, EndpointURL: it.EndpointURL, EndpointHost: it.EndpointHost,
		Transport: it.Transport, ModelType: it.ModelType, ProtocolVersion: it.ProtocolVersion,
		Tools: connTools(it.ToolsJSON, it.Tools), SealedAPIKey: slices.Clone(it.SealedAPIKey),
		APIKeyLast4: it.APIKeyLast4, APIKeyHeader: it.APIKeyHeader, ConnectedAt: it.ConnectedAt,
		ToolsCheckedAt: it.ToolsCheckedAt, OAuth: it.OAuth, GrantVersion: it.GrantVersion, NeedsSignIn: it.NeedsSignIn,
		SignInScope: it.SignInScope,
	}
	if info := it.ServerInfo.domain(); info != nil {
		c.ServerInfo = *info
	}
	return c
}

// connectedAt parses the RFC 3339 time (fractions vary, so strings do not
// sort); an unreadable time sorts last.
func connectedAt(c domain.MCPConnection) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, c.ConnectedAt)
	return t
}

// PutMCPConnection stores a new connection of uid. The id must be new: an
// existing connection is never overwritten (create-only put).
func (s *Store) PutMCPConnection(ctx context.Context, uid string, c domain.MCPConnection) error {
	if c.ID == "" {
		return fmt.Errorf("put mcp connection: empty id")
	}
	it, err := mcpConnItemOf(uid, c)
	if err == nil {
		err = s.putNew(ctx, it)
	}
	if err != nil {
		return fmt.Errorf("put mcp connection: %w", err)
	}
	return nil
}

// ReplaceMCPConnection stores uid's connection c whether or not one has its
// id: a sign-in to a server (its id made from the user and the server)
// replaces that user's earlier one, so concurrent sign-ins end as one
// connection.
func (s *Store) ReplaceMCPConnection(ctx context.Context, uid string, c domain.MCPConnection) error {
	it, err := mcpConnItemOf(uid, c)
	var av map[string]types.AttributeValue
	if err == nil {
		av, err = attributevalue.MarshalMap(it)
	}
	if err == nil {
		_, err = s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table), Item: av})
	}
	if err != nil {
		return fmt.Errorf("replace mcp connection: %w", err)
	}
	return nil
}

func mcpConnItemOf(uid string, c domain.MCPConnection) (mcpConnItem, error) {
	tools, err := toolsJSON(c.Tools)
	return mcpConnItem{
		PK: userPK(uid), SK: mcpConnSK(c.ID), ID: c.ID, ServerID: c.ServerID, ServerName: c.ServerName,
		EndpointURL: c.EndpointURL, EndpointHost: c.EndpointHost, Transport: c.Transport, ModelType: c.ModelType,
		ProtocolVersion: c.ProtocolVersion, ServerInfo: implementationAtt(c.ServerInfo),
		ToolsJSON: tools, SealedAPIKey: c.SealedAPIKey, APIKeyLast4: c.APIKeyLast4,
		APIKeyHeader: c.APIKeyHeader, ConnectedAt: c.ConnectedAt, ToolsCheckedAt: c.ToolsCheckedAt,
		OAuth: c.OAuth, GrantVersion: c.GrantVersion, NeedsSignIn: c.NeedsSignIn, SignInScope: c.SignInScope,
	}, err
}

// ListMCPConnections lists uid's MCP connections, newest first (connected_at,
// then id). Only items under the user's own key are read.
func (s *Store) ListMCPConnections(ctx context.Context, uid string) ([]domain.MCPConnection, error) {
	items, err := queryAll[mcpConnItem](ctx, s, partitionQuery(userPK(uid), mcpConnPrefix), "list mcp connections")
	if err != nil {
		return nil, err
	}
	out := convertAll(items, mcpConnItem.domain)
	slices.SortFunc(out, func(a, b domain.MCPConnection) int {
		return cmp.Or(connectedAt(b).Compare(connectedAt(a)), cmp.Compare(b.ID, a.ID))
	})
	return out, nil
}

// DeleteMCPConnection removes uid's connection cid in one conditional delete;
// ErrNotFound when uid has no such connection, which is also the answer for
// another user's connection id (it lives under that user's key).
func (s *Store) DeleteMCPConnection(ctx context.Context, uid, cid string) error {
	_, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName: aws.String(s.table),
		Key:       key(userPK(uid), mcpConnSK(cid)),
		// Only an existing item of this user: otherwise say "not found"
		// rather than succeed silently.
		ConditionExpression: aws.String("attribute_exists(PK)"),
	})
	return conditional("delete mcp connection", err, fmt.Errorf("delete mcp connection: %w", ErrNotFound))
}

// GetMCPConnection reads uid's connection cid; ErrNotFound when uid has none
// by that id (another user's id included: it lives under their key).
func (s *Store) GetMCPConnection(ctx context.Context, uid, cid string) (domain.MCPConnection, error) {
	var it mcpConnItem
	if err := s.getItem(ctx, userPK(uid), mcpConnSK(cid), &it); err != nil {
		return domain.MCPConnection{}, fmt.Errorf("get mcp connection: %w", err)
	}
	return it.domain(), nil
}

// UpdateMCPConnectionTools replaces the tools read from the server and when
// they were read, in the compact form (an older list of maps is removed).
// Only an existing connection is updated (one deleted in the meantime
// stays deleted): ErrNotFound otherwise.
func (s *Store) UpdateMCPConnectionTools(ctx context.Context, uid, cid string, tools []domain.MCPTool, checkedAt string) error {
	stored, err := toolsJSON(tools)
	if err != nil {
		return fmt.Errorf("update mcp connection tools: %w", err)
	}
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:        aws.String(s.table),
		Key:              key(userPK(uid), mcpConnSK(cid)),
		UpdateExpression: aws.String("SET " + attrToolsJSON + " = :tools, tools_checked_at = :at REMOVE tools"),
		// Never recreate a connection the user deleted meanwhile.
		ConditionExpression: aws.String("attribute_exists(PK)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":tools": &types.AttributeValueMemberS{Value: stored},
			":at":    &types.AttributeValueMemberS{Value: checkedAt},
		},
	})
	return conditional("update mcp connection tools", err, fmt.Errorf("update mcp connection tools: %w", ErrNotFound))
}
