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

// MCPOAuthFlow is a sign-in to an MCP server under way: started by a user,
// finished by the browser's return to the callback.
type MCPOAuthFlow struct {
	ServerID    string
	EndpointURL string
	// Sealed is the grant and the PKCE verifier, sealed for the user and
	// the server (the chat engine and mcpapi open it).
	Sealed []byte
	// BrowserHash is the SHA-256 of the cookie the start set: only the
	// browser that started the flow may finish it.
	BrowserHash string
	// SessionID is the product session that started it (""when the token
	// had none): a flow whose session ended (logout, account deleted)
	// does not finish.
	SessionID string
	Expires   time.Time
	// ReturnTo is the page the browser goes back to after the callback
	// (a name the callback knows, never an address): "" for the registry,
	// "chat" for a sign-in a tool call asked for in the middle of a reply.
	ReturnTo string
	// ConnectionID is the keyless connection this sign-in upgrades in place
	// (its server asked for sign-in only when one of its tools was called):
	// a reply paused for the sign-in runs its call again on the same id.
	// "" for a sign-in of its own.
	ConnectionID string
}

type mcpOAuthFlowItem struct {
	PK          string `dynamodbav:"PK"`
	SK          string `dynamodbav:"SK"`
	ServerID    string `dynamodbav:"server_id"`
	EndpointURL string `dynamodbav:"endpoint_url"`
	Sealed      []byte `dynamodbav:"sealed"`
	BrowserHash string `dynamodbav:"browser_hash"`
	SessionID   string `dynamodbav:"session_id,omitempty"`
	ReturnTo    string `dynamodbav:"return_to,omitempty"`
	ConnID      string `dynamodbav:"connection_id,omitempty"`
	ValidTo     int64  `dynamodbav:"valid_to"`   // unix ms
	ExpiresAt   int64  `dynamodbav:"expires_at"` // TTL (unix s)
}

// ErrFlowUnknown: no flow of that user by that state (never started, taken
// already, or another user's).
var ErrFlowUnknown = errors.New("mcp sign-in unknown or used")

// PutMCPOAuthFlow stores a flow of uid under the hash of its state.
func (s *Store) PutMCPOAuthFlow(ctx context.Context, uid, stateHash string, f MCPOAuthFlow) error {
	it := mcpOAuthFlowItem{PK: userPK(uid), SK: mcpOAuthFlowSK(stateHash), ServerID: f.ServerID, EndpointURL: f.EndpointURL,
		Sealed: f.Sealed, BrowserHash: f.BrowserHash, SessionID: f.SessionID, ReturnTo: f.ReturnTo, ConnID: f.ConnectionID, ValidTo: f.Expires.UnixMilli(), ExpiresAt: f.Expires.Unix()}
	if err := s.putNew(ctx, it); err != nil {
		return fmt.Errorf("put mcp oauth flow: %w", err)
	}
	return nil
}

// TakeMCPOAuthFlow removes and answers uid's flow for stateHash: one
// conditional delete, so a state finishes one sign-in at most, however many
// callbacks race. An expired flow is taken too (and reported by its
// Expires); ErrFlowUnknown when there is none.
func (s *Store) TakeMCPOAuthFlow(ctx context.Context, uid, stateHash string) (MCPOAuthFlow, error) {
	pk, sk := userPK(uid), mcpOAuthFlowSK(stateHash)
	if !keyFits(pk, sk) {
		return MCPOAuthFlow{}, ErrFlowUnknown
	}
	out, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName:           aws.String(s.table),
		Key:                 key(pk, sk),
		ConditionExpression: aws.String("attribute_exists(PK)"), // taken once
		ReturnValues:        types.ReturnValueAllOld,
	})
	if isConditionFailed(err) {
		return MCPOAuthFlow{}, ErrFlowUnknown
	}
	if err != nil {
		return MCPOAuthFlow{}, fmt.Errorf("take mcp oauth flow: %w", err)
	}
	var it mcpOAuthFlowItem
	if err := attributevalue.UnmarshalMap(out.Attributes, &it); err != nil {
		return MCPOAuthFlow{}, fmt.Errorf("take mcp oauth flow: %w", err)
	}
	return MCPOAuthFlow{ServerID: it.ServerID, EndpointURL: it.EndpointURL, Sealed: it.Sealed, BrowserHash: it.BrowserHash,
		SessionID: it.SessionID, ReturnTo: it.ReturnTo, ConnectionID: it.ConnID, Expires: time.UnixMilli(it.ValidTo)}, nil
}

type oauthClientItem struct {
	PK     string `dynamodbav:"PK"`
	SK     string `dynamodbav:"SK"`
	Sealed []byte `dynamodbav:"sealed"`
}

// OAuthClientRegistration answers the site's sealed registration stored
// under keyHash (ok false when none).
func (s *Store) OAuthClientRegistration(ctx context.Context, keyHash string) ([]byte, bool, error) {
	var it oauthClientItem
	err := s.getItem(ctx, oauthClientPK(keyHash), oauthClientSK, &it)
	if errors.Is(err, ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("oauth client registration: %w", err)
	}
	return it.Sealed, true, nil
}

// PutOAuthClientRegistration keeps the site's registration at an
// authorization server (the last one made wins: each is valid).
func (s *Store) PutOAuthClientRegistration(ctx context.Context, keyHash string, sealed []byte) error {
	av, err := attributevalue.MarshalMap(oauthClientItem{PK: oauthClientPK(keyHash), SK: oauthClientSK, Sealed: sealed})
	if err != nil {
		return fmt.Errorf("put oauth client registration: %w", err)
	}
	if _, err := s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table), Item: av}); err != nil {
		return fmt.Errorf("put oauth client registration: %w", err)
	}
	return nil
}

// ErrGrantChanged: the connection's sign-in changed since it was read
// (another request refreshed it first).
var ErrGrantChanged = errors.New("mcp connection sign-in changed")

// UpdateMCPConnectionGrant replaces a signed-in connection's sealed grant
// if its version is still version (a refresh racing another: exactly one
// writes, the other reads the winner's tokens), and clears NeedsSignIn.
func (s *Store) UpdateMCPConnectionGrant(ctx context.Context, uid, cid string, sealed []byte, version int) error {
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String(s.table),
		Key:                 key(userPK(uid), mcpConnSK(cid)),
		UpdateExpression:    aws.String("SET sealed_api_key = :sealed, grant_version = :next REMOVE needs_sign_in"),
		ConditionExpression: aws.String("attribute_exists(PK) AND grant_version = :version"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":sealed":  &types.AttributeValueMemberB{Value: sealed},
			":next":    &types.AttributeValueMemberN{Value: fmt.Sprint(version + 1)},
			":version": &types.AttributeValueMemberN{Value: fmt.Sprint(version)},
		},
	})
	return conditional("update mcp connection grant", err, ErrGrantChanged)
}

// MarkMCPConnectionNeedsSignIn records that the server no longer accepts
// the connection's sign-in (the user signs in again; nothing is deleted);
// scope, when not "", is the wider scope the server asked for.
func (s *Store) MarkMCPConnectionNeedsSignIn(ctx context.Context, uid, cid, scope string) error {
	update := "SET needs_sign_in = :yes"
	values := map[string]types.AttributeValue{":yes": &types.AttributeValueMemberBOOL{Value: true}}
	if scope != "" {
		update += ", sign_in_scope = :scope"
		values[":scope"] = &types.AttributeValueMemberS{Value: scope}
	}
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(s.table),
		Key:                       key(userPK(uid), mcpConnSK(cid)),
		UpdateExpression:          aws.String(update),
		ConditionExpression:       aws.String("attribute_exists(PK)"),
		ExpressionAttributeValues: values,
	})
	return conditional("mark mcp connection", err, fmt.Errorf("mark mcp connection: %w", ErrNotFound))
}

// ClaimMCPConnectionRefresh takes the right to refresh the connection's
// sign-in at version until until (a lease): of racing requests, on any
// instance, one refreshes with the server, so a rotating refresh token is
// used once; the others wait for its result. false when another holds it
// or the version moved on.
func (s *Store) ClaimMCPConnectionRefresh(ctx context.Context, uid, cid string, version int, now, until time.Time) (bool, error) {
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String(s.table),
		Key:                 key(userPK(uid), mcpConnSK(cid)),
		UpdateExpression:    aws.String("SET refresh_until = :until"),
		ConditionExpression: aws.String("grant_version = :version AND (attribute_not_exists(refresh_until) OR refresh_until < :now)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":until":   &types.AttributeValueMemberN{Value: fmt.Sprint(until.UnixMilli())},
			":now":     &types.AttributeValueMemberN{Value: fmt.Sprint(now.UnixMilli())},
			":version": &types.AttributeValueMemberN{Value: fmt.Sprint(version)},
		},
	})
	if isConditionFailed(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("claim mcp connection refresh: %w", err)
	}
	return true, nil
}
