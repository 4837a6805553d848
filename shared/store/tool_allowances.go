package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"aiwork/shared/domain"
)

// ToolAllowance is a tool a user lets the chat call without asking: on one
// registry server's endpoint, as the tool was defined when the user chose
// "always". A connection reaching that entry elsewhere, or the tool defined
// otherwise, asks again.
type ToolAllowance struct {
	ServerID string
	Tool     string
	// Endpoint is the connection's endpoint, AllowanceEndpoint's form; ""
	// on an allowance recorded before endpoints were (it allows nothing).
	Endpoint string
	// Print is the tool's definition the user allowed; zero on such an old
	// allowance.
	Print ToolPrint
	// Destructive: the tool could change or delete data when allowed
	// (domain.MCPTool.MayDestroy).
	Destructive bool
	CreatedAt   string // RFC 3339
}

// Recorded is false for an allowance made before the endpoint and the
// tool's definition were kept with it: it no longer allows anything, and
// is listed so that it can be revoked.
func (a ToolAllowance) Recorded() bool { return a.Endpoint != "" && a.Print.Name != "" }

// ToolPrint is a tool's definition as hashes of its parts, so that a
// mismatch says which part changed.
type ToolPrint struct {
	Name        string `dynamodbav:"name" json:"name"`
	Description string `dynamodbav:"description" json:"description"`
	InputSchema string `dynamodbav:"input_schema" json:"input_schema"`
	Annotations string `dynamodbav:"annotations" json:"annotations"`
}

// The parts of an allowance that may no longer match, as the tool_approval
// frame and the Tools list name them. ChangedUnrecorded: an old allowance
// kept neither endpoint nor definition.
const (
	ChangedEndpoint    = "endpoint"
	ChangedName        = "name"
	ChangedDescription = "description"
	ChangedInputSchema = "input_schema"
	ChangedAnnotations = "annotations"
	ChangedUnrecorded  = "unrecorded"
)

// PrintTool hashes t's parts: its name, description, input schema and
// annotations (both as canonical JSON: keys sorted, so a server that only
// reorders keys changes nothing).
func PrintTool(t domain.MCPTool) ToolPrint {
	return ToolPrint{
		Name:        digest([]byte(t.Name)),
		Description: digest([]byte(t.Description)),
		InputSchema: digest(canonicalJSON(t.InputSchema)),
		Annotations: digest(canonicalJSON(toolAnnotations(t))),
	}
}

// toolAnnotations are the hints the chat keeps of a tool (those the
// approval card shows), as MCP names them; an absent destructiveHint stays
// absent (it reads otherwise).
func toolAnnotations(t domain.MCPTool) json.RawMessage {
	a := map[string]any{"readOnlyHint": t.ReadOnly}
	if !t.DestructiveHintAbsent {
		a["destructiveHint"] = t.Destructive
	}
	b, _ := json.Marshal(a)
	return b
}

// canonicalJSON is raw with object keys sorted and no insignificant space
// (numbers kept as written); raw itself when it is not JSON.
func canonicalJSON(raw json.RawMessage) []byte {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return raw
	}
	b, err := json.Marshal(v) // encoding/json writes map keys sorted
	if err != nil {
		return raw
	}
	return b
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Changed names the parts of now that differ from p, in a fixed order;
// none when they match.
func (p ToolPrint) Changed(now ToolPrint) []string {
	var out []string
	for _, part := range []struct {
		name     string
		was, now string
	}{
		{ChangedName, p.Name, now.Name},
		{ChangedDescription, p.Description, now.Description},
		{ChangedInputSchema, p.InputSchema, now.InputSchema},
		{ChangedAnnotations, p.Annotations, now.Annotations},
	} {
		if part.was != part.now {
			out = append(out, part.name)
		}
	}
	return out
}

// defaultPorts are left out of an endpoint.
var defaultPorts = map[string]string{"http": "80", "https": "443"}

// AllowanceEndpoint is the form of an endpoint URL an allowance keeps:
// scheme, host and path (scheme and host in lower case, no default port,
// no query or fragment, no trailing slash). Two connections reach the
// same server here when their endpoints have the same form.
func AllowanceEndpoint(endpoint string) string {
	u, err := url.Parse(strings.TrimSpace(endpoint))
	if err != nil || u.Host == "" {
		return strings.TrimSpace(endpoint)
	}
	scheme := strings.ToLower(u.Scheme)
	host := strings.ToLower(u.Hostname())
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port := u.Port(); port != "" && port != defaultPorts[scheme] {
		host = net.JoinHostPort(strings.Trim(host, "[]"), port)
	}
	return scheme + "://" + host + strings.TrimRight(u.EscapedPath(), "/")
}

// EndpointLabel is an allowance endpoint as a user reads it: host and path,
// without the scheme ("127.0.0.1:18778/mcp").
func EndpointLabel(endpoint string) string {
	if _, rest, ok := strings.Cut(endpoint, "://"); ok {
		return rest
	}
	return endpoint
}

// toolAllowEndpointSK is one endpoint's allowance of a tool, under
// toolAllowSK (the bare toolAllowSK is an allowance recorded before
// endpoints were); the endpoint goes in as a hash, as it may be longer
// than a key holds.
func toolAllowEndpointSK(serverID, tool, endpoint string) string {
	return toolAllowSK(serverID, tool) + "#" + digest([]byte(endpoint))[:32]
}

type toolAllowItem struct {
	PK          string    `dynamodbav:"PK"`
	SK          string    `dynamodbav:"SK"`
	ServerID    string    `dynamodbav:"server_id"`
	Tool        string    `dynamodbav:"tool"`
	Endpoint    string    `dynamodbav:"endpoint,omitempty"`
	Print       ToolPrint `dynamodbav:"print"`
	Destructive bool      `dynamodbav:"destructive,omitempty"`
	CreatedAt   string    `dynamodbav:"created_at"`
}

func (it toolAllowItem) allowance() ToolAllowance {
	return ToolAllowance{ServerID: it.ServerID, Tool: it.Tool, Endpoint: it.Endpoint, Print: it.Print,
		Destructive: it.Destructive, CreatedAt: it.CreatedAt}
}

// AllowToolAlways records that uid always allows a.Tool on a.ServerID's
// a.Endpoint (put in AllowanceEndpoint's form here), as a.Print defines it.
// Saying it again replaces the record: the user allowed the tool as it is
// now. An allowance recorded before endpoints were goes with it.
func (s *Store) AllowToolAlways(ctx context.Context, uid string, a ToolAllowance, now time.Time) error {
	a.Endpoint = AllowanceEndpoint(a.Endpoint)
	if a.Endpoint == "" || a.Print.Name == "" {
		return errors.New("allow tool: no endpoint or definition")
	}
	it := toolAllowItem{PK: userPK(uid), SK: toolAllowEndpointSK(a.ServerID, a.Tool, a.Endpoint),
		ServerID: a.ServerID, Tool: a.Tool, Endpoint: a.Endpoint, Print: a.Print, Destructive: a.Destructive,
		CreatedAt: now.UTC().Format(time.RFC3339)}
	if !keyFits(it.PK, it.SK) {
		return fmt.Errorf("allow tool: %w", ErrNotFound)
	}
	if err := s.put(ctx, it); err != nil {
		return fmt.Errorf("allow tool: %w", err)
	}
	if _, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName: aws.String(s.table), Key: key(it.PK, toolAllowSK(a.ServerID, a.Tool)),
	}); err != nil {
		return fmt.Errorf("allow tool: drop the unrecorded allowance: %w", err)
	}
	return nil
}

// ToolAllowances lists the tools uid always allows, by server, tool and
// endpoint.
func (s *Store) ToolAllowances(ctx context.Context, uid string) ([]ToolAllowance, error) {
	items, err := queryAll[toolAllowItem](ctx, s, partitionQuery(userPK(uid), toolAllowPrefix), "tool allowances")
	if err != nil {
		return nil, err
	}
	out := make([]ToolAllowance, 0, len(items))
	for _, it := range items {
		out = append(out, it.allowance())
	}
	return out, nil
}

// AnyEndpoint, as RevokeToolAllowance's endpoint, revokes the tool's
// allowance on every endpoint.
const AnyEndpoint = "\x00any"

// RevokeToolAllowance forgets uid's allowance of tool on serverID at
// endpoint (any form of it; "" names an allowance recorded before endpoints
// were), or on every endpoint with AnyEndpoint; ErrNotFound when there is
// none (another user's included: it lives under their key).
func (s *Store) RevokeToolAllowance(ctx context.Context, uid, serverID, tool, endpoint string) error {
	pk, prefix := userPK(uid), toolAllowSK(serverID, tool)
	if !keyFits(pk, prefix) {
		return fmt.Errorf("revoke tool allowance: %w", ErrNotFound)
	}
	if endpoint != AnyEndpoint {
		endpoint = AllowanceEndpoint(endpoint)
	}
	items, err := queryAll[toolAllowItem](ctx, s, partitionQuery(pk, prefix), "tool allowances")
	if err != nil {
		return err
	}
	gone := 0
	for _, it := range items {
		// The prefix also holds a tool whose name continues this one's:
		// the attributes decide.
		if it.ServerID != serverID || it.Tool != tool || (endpoint != AnyEndpoint && it.Endpoint != endpoint) {
			continue
		}
		if _, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(s.table), Key: key(it.PK, it.SK)}); err != nil {
			return fmt.Errorf("revoke tool allowance: %w", err)
		}
		gone++
	}
	if gone == 0 {
		return fmt.Errorf("revoke tool allowance: %w", ErrNotFound)
	}
	return nil
}
