package domain

import (
	"encoding/json"
	"slices"
)

// MCP server health statuses, from the last probe.
const (
	HealthUp           = "up"
	HealthAuthRequired = "auth_required"
	HealthDown         = "down"
	HealthUnknown      = "unknown"
)

// MCP transports a remote server can speak.
const (
	TransportStreamableHTTP = "streamable-http"
	TransportSSE            = "sse"
)

// MCPServer is one registry entry: what a user needs to choose a server and
// what the prober last saw of it.
type MCPServer struct {
	ID             string
	Name           string // registry name, e.g. "io.github.owner/server"
	Title          string // display name
	Description    string
	EndpointURL    string
	Transport      string // TransportStreamableHTTP or TransportSSE
	ModelType      string // the catalogue's filter value (see the seed)
	APIKeyRequired bool
	APIKeyHeader   string // header carrying the key; "" or "Authorization" means "Authorization: Bearer <key>"
	OAuthRequired  bool
	// OAuthClientID is an operator's client id at the server's
	// authorization server, for servers that let no app register.
	OAuthClientID     string
	IsActive          bool
	SupportedFeatures []string
	WebsiteURL        string
	Repository        string
	Version           string
	Source            string // "seed", "local" or "registry"
	UpdatedAt         string // RFC 3339, from the registry entry
	// ChangedAt is when this catalogue last changed the entry (RFC 3339):
	// its listing written with a difference, an admin's edit, a
	// deactivation; never a probe. "" on an entry not written since it
	// was recorded. The registry API's updatedAt is the later of the two.
	ChangedAt string
	Health    MCPHealth
	// AdminDisabled: an admin took it out of the listing (IsActive is then
	// false whatever the registry says); AdminVersion counts admins' edits.
	AdminDisabled bool
	AdminVersion  int
	// ListedActive is the listing's own is_active (the registry's say,
	// read only): IsActive without the admin's switch.
	ListedActive bool
	// Operator is the pre-registered OAuth client an admin set for the
	// entry (zero: none); like AdminDisabled, a registry sync never
	// writes it. It comes before OAuthClientID.
	Operator MCPOperatorClient
}

// MCPOperatorClient is an operator's client at a server's authorization
// server, for servers that let no app register.
type MCPOperatorClient struct {
	ClientID string
	// SealedSecret is the client secret sealed (shared/sealing) for
	// MCPOperatorSealOwner and the entry's id; nil for a public client.
	// Never shown by any API, never logged.
	SealedSecret []byte
	// Issuer is the authorization server the client is for, as its
	// metadata names itself: the secret goes to no other. "" until an
	// admin sets it or the first sign-in at the entry's own endpoint
	// records the one it met.
	Issuer string
}

// MCPOperatorSealOwner is whom an operator's client secret is sealed for,
// with the entry's id (users' keys are sealed for their user id).
const MCPOperatorSealOwner = "operator-client"

// MCPHealth is the prober's last record of a server.
type MCPHealth struct {
	Status          string // Health* constants
	CheckedAt       string // RFC 3339; "" when never probed
	LatencyMS       int64
	ProtocolVersion string
	ToolsCount      int
	ToolsHash       string // hash of the tool names and schemas
	ToolsChangedAt  string // RFC 3339; set when ToolsHash changed from a previous non-empty value
	Error           string // short reason for down / auth_required, never secrets
	ServerInfo      *MCPImplementation
	Tools           []MCPTool
}

// MCPImplementation is a server's self-description from initialize.
type MCPImplementation struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

// MCPTool is one tool a server offers, with the hints from its annotations.
type MCPTool struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description"`
	ReadOnly    bool   `json:"read_only"`
	// Destructive: the server declares it destructive (destructiveHint true).
	Destructive bool `json:"destructive"`
	// DestructiveHintAbsent: the server said nothing either way, which the
	// MCP spec reads as "may be destructive" for a tool that is not read-only.
	DestructiveHintAbsent bool `json:"-"`
	// InputSchema is the tool's JSON Schema for its arguments; kept with a
	// user's connection (the chat offers it to models), not in the registry.
	InputSchema json.RawMessage `json:"-"`
	// UIResourceURI is the ui:// resource of the tool's view (MCP Apps:
	// the tool's _meta.ui.resourceUri), which the chat renders beside the
	// call's result; "" when it declares none.
	UIResourceURI string `json:"ui_resource_uri,omitempty"`
	// Visibility says who may call the tool (MCP Apps: _meta.ui.visibility,
	// of ToolVisibleToModel and ToolVisibleToApp); empty means both.
	Visibility []string `json:"visibility,omitempty"`
}

// Who may call a tool (MCPTool.Visibility).
const (
	ToolVisibleToModel = "model"
	ToolVisibleToApp   = "app"
)

// VisibleTo reports whether who (ToolVisibleToModel, ToolVisibleToApp) may
// call t: a tool that says nothing is visible to both.
func (t MCPTool) VisibleTo(who string) bool {
	return len(t.Visibility) == 0 || slices.Contains(t.Visibility, who)
}

// MayDestroy is the MCP spec's reading of a tool's hints: not read-only, and
// destructive unless the server says it is not. The chat marks such calls.
func (t MCPTool) MayDestroy() bool {
	return !t.ReadOnly && (t.Destructive || t.DestructiveHintAbsent)
}

// MCPConnection is a user's handshake with an MCP server. The API key is kept
// only sealed (see shared/mcp); APIKeyLast4 is all that is ever shown.
type MCPConnection struct {
	ID          string
	ServerID    string
	ServerName  string
	EndpointURL string
	// EndpointHost is EndpointURL's host (with a port not the scheme's
	// default) when the user's endpoint reached another host than the
	// registry entry's default, so a user tells "GitHub" from "GitHub" on
	// a local server; "" when it is the entry's own host.
	EndpointHost    string
	Transport       string
	ModelType       string
	ProtocolVersion string
	ServerInfo      MCPImplementation
	Tools           []MCPTool
	SealedAPIKey    []byte // nil when no key
	APIKeyLast4     string
	// APIKeyHeader is the header the key travels in ("Authorization" means
	// "Authorization: Bearer <key>"); "" on connections made before it was
	// recorded (then the registry entry says).
	APIKeyHeader string
	ConnectedAt  string // RFC 3339
	// ToolsCheckedAt is when Tools were last read from the server (RFC 3339);
	// the chat reads them again when older than a minute.
	ToolsCheckedAt string
	// OAuth: the user signed in to the server (SealedAPIKey then holds the
	// sealed grant and tokens, mcpauth.Sealed); GrantVersion counts its
	// refreshes (each a conditional write); NeedsSignIn: the server no
	// longer accepts it; SignInScope: the wider scope it asked for
	// (403 insufficient_scope), requested at the next sign-in.
	OAuth        bool
	GrantVersion int
	NeedsSignIn  bool
	SignInScope  string
}

// Label is the connection's name as a user reads it: "GitHub ·
// 127.0.0.1:18101" for an endpoint override (the webapp's connectionLabel
// says the same), just the entry's name otherwise.
func (c MCPConnection) Label() string {
	if c.EndpointHost == "" {
		return c.ServerName
	}
	return c.ServerName + " · " + c.EndpointHost
}
