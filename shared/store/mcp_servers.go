package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
)

// mcpListing is what the registry (seed or sync) says about a server. An
// upsert writes exactly these attributes, so the prober's health attributes
// on the same item survive every re-seed and sync.
type mcpListing struct {
	GSI1PK            string   `dynamodbav:"GSI1PK"`
	GSI1SK            string   `dynamodbav:"GSI1SK"`
	ID                string   `dynamodbav:"id"`
	Name              string   `dynamodbav:"name"`
	Title             string   `dynamodbav:"title"`
	Description       string   `dynamodbav:"description"`
	EndpointURL       string   `dynamodbav:"endpoint_url"`
	Transport         string   `dynamodbav:"transport"`
	ModelType         string   `dynamodbav:"model_type"`
	APIKeyRequired    bool     `dynamodbav:"api_key_required"`
	APIKeyHeader      string   `dynamodbav:"api_key_header"`
	OAuthRequired     bool     `dynamodbav:"oauth_required"`
	OAuthClientID     string   `dynamodbav:"oauth_client_id,omitempty"`
	IsActive          bool     `dynamodbav:"is_active"`
	SupportedFeatures []string `dynamodbav:"supported_features"`
	WebsiteURL        string   `dynamodbav:"website_url"`
	Repository        string   `dynamodbav:"repository"`
	Version           string   `dynamodbav:"version"`
	Source            string   `dynamodbav:"source"`
	UpdatedAt         string   `dynamodbav:"updated_at"`
}

// mcpHealthAttrs is the prober's record; SaveMCPHealth writes only these.
type mcpHealthAttrs struct {
	Status          string                `dynamodbav:"health_status"`
	CheckedAt       string                `dynamodbav:"health_checked_at"`
	LatencyMS       int64                 `dynamodbav:"health_latency_ms"`
	ProtocolVersion string                `dynamodbav:"health_protocol_version"`
	ToolsCount      int                   `dynamodbav:"health_tools_count"`
	ToolsHash       string                `dynamodbav:"health_tools_hash"`
	ToolsChangedAt  string                `dynamodbav:"health_tools_changed_at"`
	Error           string                `dynamodbav:"health_error"`
	ServerInfo      *mcpImplementationAtt `dynamodbav:"health_server_info"`
	Tools           []mcpToolAtt          `dynamodbav:"health_tools"`
}

// mcpImplementationAtt is a server's self-description, stored as a map.
type mcpImplementationAtt struct {
	Name    string `dynamodbav:"name,omitempty"`
	Title   string `dynamodbav:"title,omitempty"`
	Version string `dynamodbav:"version,omitempty"`
}

// mcpToolAtt is one tool, stored as a map inside a list. Registry items
// keep no input schema (they stay small); the schema is only read from
// connections stored before tools_json (mcp_tools_json.go).
type mcpToolAtt struct {
	Name        string `dynamodbav:"name"`
	Title       string `dynamodbav:"title,omitempty"`
	Description string `dynamodbav:"description,omitempty"`
	ReadOnly    bool   `dynamodbav:"read_only"`
	Destructive bool   `dynamodbav:"destructive"`
	HintAbsent  bool   `dynamodbav:"destructive_hint_absent,omitempty"`
	InputSchema string `dynamodbav:"input_schema,omitempty"`
}

type mcpServerItem struct {
	PK string `dynamodbav:"PK"`
	SK string `dynamodbav:"SK"`
	mcpListing
	mcpHealthAttrs
	mcpAdminAttrs
	mcpSyncAttrs
	// ChangedAt is when this catalogue last changed what it lists of the
	// server (mcpChangedAt).
	ChangedAt string `dynamodbav:"changed_at,omitempty"`
}

// mcpChangedAt is the attribute that says when the catalogue last changed
// an entry as its registry API serves it: its listing written with a
// difference (or first written), an admin's edit or switch, a
// deactivation by the sync. The prober's health never moves it: a
// registry reading updated_since wants what it would import, and it
// probes by itself.
type mcpChangedAt struct {
	ChangedAt string `dynamodbav:"changed_at"`
}

// changedNow is the time written into changed_at: RFC 3339 in UTC with a
// fixed nine-digit fraction, so that the text sorts as the time does.
func changedNow() string { return time.Now().UTC().Format("2006-01-02T15:04:05.000000000Z") }

func (it mcpServerItem) domain() domain.MCPServer {
	l, h := it.mcpListing, it.mcpHealthAttrs
	status := h.Status
	if status == "" {
		status = domain.HealthUnknown
	}
	return domain.MCPServer{
		ID: l.ID, Name: l.Name, Title: l.Title, Description: l.Description, EndpointURL: l.EndpointURL,
		Transport: l.Transport, ModelType: l.ModelType, APIKeyRequired: l.APIKeyRequired,
		APIKeyHeader: l.APIKeyHeader, OAuthRequired: l.OAuthRequired, OAuthClientID: l.OAuthClientID,
		// An admin's switch wins over the registry's (which a sync rewrites).
		IsActive: l.IsActive && !it.AdminDisabled, AdminDisabled: it.AdminDisabled, AdminVersion: it.AdminVersion, ListedActive: l.IsActive,
		Operator:          domain.MCPOperatorClient{ClientID: it.OperatorClientID, SealedSecret: it.OperatorSecret, Issuer: it.OperatorIssuer},
		SupportedFeatures: slices.Clone(l.SupportedFeatures), WebsiteURL: l.WebsiteURL,
		Repository: l.Repository, Version: l.Version, Source: l.Source, UpdatedAt: l.UpdatedAt, ChangedAt: it.ChangedAt,
		Health: domain.MCPHealth{
			Status: status, CheckedAt: h.CheckedAt, LatencyMS: h.LatencyMS,
			ProtocolVersion: h.ProtocolVersion, ToolsCount: h.ToolsCount, ToolsHash: h.ToolsHash,
			ToolsChangedAt: h.ToolsChangedAt, Error: h.Error,
			ServerInfo: h.ServerInfo.domain(), Tools: toolsFromAtts(h.Tools),
		},
	}
}

func (a *mcpImplementationAtt) domain() *domain.MCPImplementation {
	if a == nil {
		return nil
	}
	return &domain.MCPImplementation{Name: a.Name, Title: a.Title, Version: a.Version}
}

func implementationAtt(i domain.MCPImplementation) *mcpImplementationAtt {
	if i == (domain.MCPImplementation{}) {
		return nil
	}
	return &mcpImplementationAtt{Name: i.Name, Title: i.Title, Version: i.Version}
}

func toolAtts(tools []domain.MCPTool) []mcpToolAtt {
	if len(tools) == 0 {
		return nil
	}
	out := make([]mcpToolAtt, len(tools))
	for i, t := range tools {
		out[i] = mcpToolAtt{Name: t.Name, Title: t.Title, Description: t.Description, ReadOnly: t.ReadOnly, Destructive: t.Destructive, HintAbsent: t.DestructiveHintAbsent}
	}
	return out
}

func toolsFromAtts(atts []mcpToolAtt) []domain.MCPTool {
	if len(atts) == 0 {
		return nil
	}
	out := make([]domain.MCPTool, len(atts))
	for i, t := range atts {
		out[i] = domain.MCPTool{Name: t.Name, Title: t.Title, Description: t.Description, ReadOnly: t.ReadOnly, Destructive: t.Destructive, DestructiveHintAbsent: t.HintAbsent}
		if t.InputSchema != "" {
			out[i].InputSchema = json.RawMessage(t.InputSchema)
		}
	}
	return out
}

// MCPServerListPlace is a server's place in ListMCPServers' order (its
// index sort key), a string that sorts as the list does: a cursor that
// outlives the server it was taken from.
func MCPServerListPlace(s domain.MCPServer) string { return mcpServersGSI1SK(displayName(s), s.ID) }

// displayName is what the listing is sorted by: the title, else the registry name.
func displayName(s domain.MCPServer) string {
	if s.Title != "" {
		return s.Title
	}
	return s.Name
}

// UpsertMCPServer writes a server's listing fields, creating the item when it
// is new. Only the listing attributes are set (empty ones removed), so the
// stored health, tools and server info are kept: re-seeding or re-syncing
// never resets what the prober measured. When the listing is new or differs
// from the one it replaced (or the item has no changed_at yet), a second
// write records the change (changed_at): an unchanged re-seed or re-sync
// costs one write and moves nothing.
func (s *Store) UpsertMCPServer(ctx context.Context, srv domain.MCPServer) error {
	if srv.ID == "" {
		return errors.New("upsert mcp server: empty id")
	}
	l := listingOf(srv)
	in, err := s.updateInput(mcpServerPK(srv.ID), skMCPServer, l, "", nil)
	if err != nil {
		return fmt.Errorf("upsert mcp server %s: %w", srv.ID, err)
	}
	// No condition: creating and updating are the same write. The old
	// item tells whether the listing changed.
	in.ReturnValues = types.ReturnValueAllOld
	res, err := s.db.UpdateItem(ctx, in)
	if err != nil {
		return fmt.Errorf("upsert mcp server %s: %w", srv.ID, err)
	}
	var old mcpServerItem
	if len(res.Attributes) > 0 {
		if err := attributevalue.UnmarshalMap(res.Attributes, &old); err != nil {
			return fmt.Errorf("upsert mcp server %s: %w", srv.ID, err)
		}
	}
	if len(res.Attributes) > 0 && old.ChangedAt != "" && sameListing(old.mcpListing, l) {
		return nil
	}
	// Only the item just written: a change time alone must not create one.
	// A change is also a new revision of what the registry list shows.
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String(s.table), Key: key(mcpServerPK(srv.ID), skMCPServer),
		UpdateExpression:    aws.String("SET changed_at = :now ADD irev :one"),
		ConditionExpression: aws.String("attribute_exists(PK)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":now": &types.AttributeValueMemberS{Value: changedNow()}, ":one": &types.AttributeValueMemberN{Value: "1"},
		},
	})
	if err := conditional("upsert mcp server", err, fmt.Errorf("upsert mcp server %s: %w", srv.ID, ErrNotFound)); err != nil {
		return err
	}
	s.afterMCPServerWrite(ctx, srv.ID)
	return nil
}

// sameListing reports whether two listings say the same (a list stored
// empty reads back as none).
func sameListing(a, b mcpListing) bool {
	if !slices.Equal(a.SupportedFeatures, b.SupportedFeatures) {
		return false
	}
	a.SupportedFeatures, b.SupportedFeatures = nil, nil
	return reflect.DeepEqual(a, b)
}

// GetMCPServer reads one server with its health; ErrNotFound when unknown.
func (s *Store) GetMCPServer(ctx context.Context, sid string) (domain.MCPServer, error) {
	var it mcpServerItem
	if err := s.getItem(ctx, mcpServerPK(sid), skMCPServer, &it); err != nil {
		return domain.MCPServer{}, fmt.Errorf("get mcp server: %w", err)
	}
	return it.domain(), nil
}

// ListMCPServers lists every server, active or not, by display name
// (case-insensitive, then id). Callers filter.
func (s *Store) ListMCPServers(ctx context.Context) ([]domain.MCPServer, error) {
	items, err := queryAll[mcpServerItem](ctx, s, gsi1Query(gsiMCPServersKey, ""), "list mcp servers")
	if err != nil {
		return nil, err
	}
	return convertAll(items, mcpServerItem.domain), nil
}

// SetMCPServerActive switches a server in or out of the listing (the sync
// job deactivates entries the registry deleted or deprecated), recording
// the change (changed_at); ErrNotFound when the server does not exist.
func (s *Store) SetMCPServerActive(ctx context.Context, sid string, active bool) error {
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:        aws.String(s.table),
		Key:              key(mcpServerPK(sid), skMCPServer),
		UpdateExpression: aws.String("SET is_active = :active, changed_at = :now ADD irev :one"),
		// Only an existing server: an update must not create a bare item
		// without listing fields.
		ConditionExpression: aws.String("attribute_exists(PK)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":active": &types.AttributeValueMemberBOOL{Value: active},
			":now":    &types.AttributeValueMemberS{Value: changedNow()},
			":one":    &types.AttributeValueMemberN{Value: "1"},
		},
	})
	if err := conditional("set mcp server active", err, fmt.Errorf("set mcp server active: %w", ErrNotFound)); err != nil {
		return err
	}
	s.afterMCPServerWrite(ctx, sid)
	return nil
}

// SaveMCPHealth records the prober's last look at a server: only the health
// attributes (tools as a list of maps, server info as a map) are written, so
// a concurrent sync's listing fields are never overwritten. ErrNotFound when
// the server does not exist (it was never listed, so it is not recreated).
func (s *Store) SaveMCPHealth(ctx context.Context, sid string, h domain.MCPHealth) error {
	a := healthAttrsOf(h)
	// Only an existing server: health alone must not create an item.
	in, err := s.updateInput(mcpServerPK(sid), skMCPServer, a, "attribute_exists(PK)", nil)
	if err != nil {
		return fmt.Errorf("save mcp health: %w", err)
	}
	// The old item says whether the status changed: only then do the
	// registry list's cards (which show the status) get written.
	in.ReturnValues = types.ReturnValueAllOld
	res, err := s.db.UpdateItem(ctx, in)
	if err := conditional("save mcp health", err, fmt.Errorf("save mcp health: %w", ErrNotFound)); err != nil {
		return err
	}
	var old mcpServerItem
	if err := attributevalue.UnmarshalMap(res.Attributes, &old); err == nil && len(old.Idx) > 0 {
		if cardHealthChanged(old.mcpHealthAttrs, h) {
			s.refreshMCPCardHealth(ctx, old.Idx, h)
		}
		// The registry API serves each probe's time and latency: its one
		// copy of the server takes them at every probe.
		s.refreshMCPAPIHealth(ctx, sid, old.Idx, a)
	}
	if err := s.recordProbe(ctx, sid, h); err != nil {
		slog.WarnContext(ctx, "probe not added to the history", "server", sid, "err", err)
	}
	return nil
}

// healthAttrsOf is a probe's outcome as the server item stores it.
func healthAttrsOf(h domain.MCPHealth) mcpHealthAttrs {
	a := mcpHealthAttrs{
		Status: h.Status, CheckedAt: h.CheckedAt, LatencyMS: h.LatencyMS, ProtocolVersion: h.ProtocolVersion,
		ToolsCount: h.ToolsCount, ToolsHash: h.ToolsHash, ToolsChangedAt: h.ToolsChangedAt, Error: h.Error,
		Tools: toolAtts(h.Tools),
	}
	if h.ServerInfo != nil {
		a.ServerInfo = implementationAtt(*h.ServerInfo)
	}
	return a
}

type mcpSyncItem struct {
	PK      string `dynamodbav:"PK"`
	SK      string `dynamodbav:"SK"`
	LastRun string `dynamodbav:"last_run"`
}

// MCPSyncState is the time of the last complete registry sync (the next
// run's updated_since); "" when no sync has completed yet.
func (s *Store) MCPSyncState(ctx context.Context) (string, error) {
	var it mcpSyncItem
	err := s.getItem(ctx, pkMCPSync, skMCPSync, &it)
	if errors.Is(err, ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("mcp sync state: %w", err)
	}
	return it.LastRun, nil
}

// SetMCPSyncState records a complete sync; the sync job calls it only after
// every page was imported.
func (s *Store) SetMCPSyncState(ctx context.Context, lastRun string) error {
	if err := s.put(ctx, mcpSyncItem{PK: pkMCPSync, SK: skMCPSync, LastRun: lastRun}); err != nil {
		return fmt.Errorf("set mcp sync state: %w", err)
	}
	return nil
}

// updateAttrs writes the attributes of v (a struct with dynamodbav tags) to
// one item in one UpdateItem: non-empty values are SET, empty ones (blank
// string, nil list or map) REMOVEd, and every other attribute of the item is
// left as it is. cond, when not empty, is the write's condition expression.
func (s *Store) updateAttrs(ctx context.Context, pk, sk string, v any, cond string) error {
	return s.updateAttrsIf(ctx, pk, sk, v, cond, nil)
}

// updateAttrsIf is updateAttrs whose condition uses condValues.
func (s *Store) updateAttrsIf(ctx context.Context, pk, sk string, v any, cond string, condValues map[string]types.AttributeValue) error {
	in, err := s.updateInput(pk, sk, v, cond, condValues)
	if err != nil {
		return err
	}
	_, err = s.db.UpdateItem(ctx, in)
	return err
}

// updateInput is the UpdateItem of updateAttrsIf, for a caller that sets
// more of it (the values it returns).
func (s *Store) updateInput(pk, sk string, v any, cond string, condValues map[string]types.AttributeValue) (*dynamodb.UpdateItemInput, error) {
	av, err := attributevalue.MarshalMap(v)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(av))
	for n := range av {
		names = append(names, n)
	}
	slices.Sort(names)
	exprNames := map[string]string{}
	exprValues := map[string]types.AttributeValue{}
	var set, remove []string
	for i, n := range names {
		ref := "#a" + strconv.Itoa(i)
		exprNames[ref] = n // attribute names such as "name" and "source" are reserved words
		if isEmptyAttr(av[n]) {
			remove = append(remove, ref)
			continue
		}
		val := ":v" + strconv.Itoa(i)
		exprValues[val] = av[n]
		set = append(set, ref+" = "+val)
	}
	var expr strings.Builder
	if len(set) > 0 {
		expr.WriteString("SET " + strings.Join(set, ", "))
	}
	if len(remove) > 0 {
		if expr.Len() > 0 {
			expr.WriteString(" ")
		}
		expr.WriteString("REMOVE " + strings.Join(remove, ", "))
	}
	in := &dynamodb.UpdateItemInput{
		TableName:                aws.String(s.table),
		Key:                      key(pk, sk),
		UpdateExpression:         aws.String(expr.String()),
		ExpressionAttributeNames: exprNames,
	}
	for k, v := range condValues {
		exprValues[k] = v
	}
	if len(exprValues) > 0 {
		in.ExpressionAttributeValues = exprValues
	}
	if cond != "" {
		in.ConditionExpression = aws.String(cond)
	}
	return in, nil
}

func isEmptyAttr(v types.AttributeValue) bool {
	switch v := v.(type) {
	case *types.AttributeValueMemberNULL:
		return true
	case *types.AttributeValueMemberS:
		return v.Value == ""
	case *types.AttributeValueMemberL:
		return len(v.Value) == 0
	case *types.AttributeValueMemberM:
		return len(v.Value) == 0
	}
	return false
}
