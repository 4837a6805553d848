package store

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
)

// Admins' writes to the MCP registry, each after its audit line
// (WithAudit): a server added (source "admin") or edited at the version the
// admin read, and switched off or on. The switch is an attribute of its own
// (admin_disabled), which a registry sync never writes: a sync rewrites an
// entry's listing, never an admin's decision to hide it. So is the
// operator's pre-registered OAuth client (admin_oauth_*): the listing's
// oauth_client_id is the registry's say, which a sync rewrites.

// mcpAdminAttrs are the admin's attributes of a server item. Empty ones
// are removed by an update (no omitempty): clearing the operator's client
// removes it.
type mcpAdminAttrs struct {
	AdminDisabled bool `dynamodbav:"admin_disabled"`
	AdminVersion  int  `dynamodbav:"admin_version"`
	// The operator's client: its id, its secret sealed, and the
	// authorization server it is for.
	OperatorClientID string `dynamodbav:"admin_oauth_client_id"`
	OperatorSecret   []byte `dynamodbav:"admin_oauth_client_secret"`
	OperatorIssuer   string `dynamodbav:"admin_oauth_issuer"`
}

// adminAttrsOf is srv's admin attributes at version.
func adminAttrsOf(srv domain.MCPServer, version int) mcpAdminAttrs {
	return mcpAdminAttrs{AdminDisabled: srv.AdminDisabled, AdminVersion: version, OperatorClientID: srv.Operator.ClientID,
		OperatorSecret: srv.Operator.SealedSecret, OperatorIssuer: srv.Operator.Issuer}
}

// CreateMCPServer adds a server an admin entered, at version 1.
func (s *Store) CreateMCPServer(ctx context.Context, srv domain.MCPServer, audit AuditEntry) error {
	srv.AdminVersion = 1
	return s.WithAudit(ctx, audit, func() error {
		l := listingOf(srv)
		l.IsActive = true // listed; the admin's switch decides
		it := mcpServerItem{PK: mcpServerPK(srv.ID), SK: skMCPServer, mcpListing: l, mcpAdminAttrs: adminAttrsOf(srv, 1),
			mcpSyncAttrs: mcpSyncAttrs{Irev: 1}, ChangedAt: changedNow()}
		if err := s.putNew(ctx, it); err != nil {
			return fmt.Errorf("create mcp server: %w", err)
		}
		s.afterMCPServerWrite(ctx, srv.ID)
		return nil
	})
}

// UpdateMCPServer writes srv's listing and switch if the server is still
// at the admin version read; ErrVersionConflict otherwise. Its health and
// the listing's own is_active (srv.ListedActive, as read) stay. The edit
// is a change of the entry (changed_at), so registries syncing from this
// one's API see it, a switch-off as the entry's deletion.
func (s *Store) UpdateMCPServer(ctx context.Context, srv domain.MCPServer, read int, audit AuditEntry) error {
	cond := "attribute_exists(PK) AND admin_version = :read"
	values := map[string]types.AttributeValue{":read": &types.AttributeValueMemberN{Value: strconv.Itoa(read)}}
	if read == 0 {
		cond = "attribute_exists(PK) AND (attribute_not_exists(admin_version) OR admin_version = :read)"
	}
	attrs := struct {
		mcpListing
		mcpAdminAttrs
		mcpChangedAt
	}{listingOf(srv), adminAttrsOf(srv, read+1), mcpChangedAt{changedNow()}}
	attrs.IsActive = srv.ListedActive // the registry's say stays its own
	return s.WithAudit(ctx, audit, func() error {
		in, err := s.updateInput(mcpServerPK(srv.ID), skMCPServer, attrs, cond, values)
		if err != nil {
			return err
		}
		// A new revision of what the registry list shows.
		*in.UpdateExpression += " ADD irev :irevone"
		in.ExpressionAttributeValues[":irevone"] = &types.AttributeValueMemberN{Value: "1"}
		_, err = s.db.UpdateItem(ctx, in)
		if err := conditional("update mcp server", err, fmt.Errorf("update mcp server: %w", ErrVersionConflict)); err != nil {
			return err
		}
		s.afterMCPServerWrite(ctx, srv.ID)
		return nil
	})
}

// BindMCPOperatorIssuer records the authorization server an operator's
// client is for, met at its first sign-in, if the entry still has that
// client and no issuer; it answers the issuer the entry holds afterwards
// (issuer, or the one another sign-in or an admin recorded first). An
// entry whose client changed meanwhile answers ErrVersionConflict. Not an
// admin's edit: the admin version stays.
func (s *Store) BindMCPOperatorIssuer(ctx context.Context, sid, clientID, issuer string) (string, error) {
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String(s.table),
		Key:                 key(mcpServerPK(sid), skMCPServer),
		UpdateExpression:    aws.String("SET admin_oauth_issuer = :iss"),
		ConditionExpression: aws.String("admin_oauth_client_id = :id AND attribute_not_exists(admin_oauth_issuer)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":iss": &types.AttributeValueMemberS{Value: issuer}, ":id": &types.AttributeValueMemberS{Value: clientID},
		},
	})
	if err == nil {
		return issuer, nil
	}
	if !isConditionFailed(err) {
		return "", fmt.Errorf("bind mcp operator issuer: %w", err)
	}
	now, err := s.GetMCPServer(ctx, sid)
	if err != nil {
		return "", err
	}
	if now.Operator.ClientID != clientID || now.Operator.Issuer == "" {
		return "", fmt.Errorf("bind mcp operator issuer: %w", ErrVersionConflict)
	}
	return now.Operator.Issuer, nil
}

// listingOf is srv's listing attributes, as an upsert writes them.
func listingOf(srv domain.MCPServer) mcpListing {
	return mcpListing{
		GSI1PK: gsiMCPServersKey, GSI1SK: mcpServersGSI1SK(displayName(srv), srv.ID),
		ID: srv.ID, Name: srv.Name, Title: srv.Title, Description: srv.Description,
		EndpointURL: srv.EndpointURL, Transport: srv.Transport, ModelType: srv.ModelType,
		APIKeyRequired: srv.APIKeyRequired, APIKeyHeader: srv.APIKeyHeader, OAuthRequired: srv.OAuthRequired, OAuthClientID: srv.OAuthClientID,
		IsActive: srv.IsActive, SupportedFeatures: srv.SupportedFeatures, WebsiteURL: srv.WebsiteURL,
		Repository: srv.Repository, Version: srv.Version, Source: srv.Source, UpdatedAt: srv.UpdatedAt,
	}
}

// Probe history: each probe's outcome under the server's partition
// (PROBE#<time>), the newest MaxProbeHistory kept.
const (
	MaxProbeHistory    = 50
	probeHistoryPrefix = "PROBE#"
)

type probeItem struct {
	PK         string `dynamodbav:"PK"`
	SK         string `dynamodbav:"SK"`
	At         string `dynamodbav:"at"`
	Status     string `dynamodbav:"status"`
	LatencyMS  int64  `dynamodbav:"latency_ms"`
	ToolsCount int    `dynamodbav:"tools_count"`
	Error      string `dynamodbav:"error,omitempty"`
}

// ProbeRecord is one probe of a server, as its history keeps it.
type ProbeRecord struct {
	At         time.Time
	Status     string
	LatencyMS  int64
	ToolsCount int
	Error      string
}

// recordProbe adds h to the server's history and drops what is past
// MaxProbeHistory; a failure is the caller's to log (the health is saved).
func (s *Store) recordProbe(ctx context.Context, sid string, h domain.MCPHealth) error {
	at, err := time.Parse(time.RFC3339Nano, h.CheckedAt)
	if err != nil {
		at = time.Now()
	}
	it := probeItem{PK: mcpServerPK(sid), SK: probeHistoryPrefix + sortableTime(at), At: at.UTC().Format(time.RFC3339Nano),
		Status: h.Status, LatencyMS: h.LatencyMS, ToolsCount: h.ToolsCount, Error: h.Error}
	if err := s.put(ctx, it); err != nil {
		return err
	}
	keys, err := s.partitionKeys(ctx, mcpServerPK(sid), probeHistoryPrefix)
	if err != nil {
		return err
	}
	for len(keys) > MaxProbeHistory {
		if _, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(s.table), Key: keys[0]}); err != nil {
			return err
		}
		keys = keys[1:]
	}
	return nil
}

// ProbeHistory lists a server's last probes, newest first.
func (s *Store) ProbeHistory(ctx context.Context, sid string) ([]ProbeRecord, error) {
	in := partitionQuery(mcpServerPK(sid), probeHistoryPrefix)
	in.ScanIndexForward = aws.Bool(false)
	items, err := queryAll[probeItem](ctx, s, in, "probe history")
	if err != nil {
		return nil, err
	}
	out := make([]ProbeRecord, 0, len(items))
	for _, it := range items {
		out = append(out, ProbeRecord{At: parseTime(it.At), Status: it.Status, LatencyMS: it.LatencyMS, ToolsCount: it.ToolsCount, Error: it.Error})
	}
	return out, nil
}
