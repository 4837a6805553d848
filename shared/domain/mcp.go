package domain

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
	ID                string
	Name              string // registry name, e.g. "io.github.owner/server"
	Title             string // display name
	Description       string
	EndpointURL       string
	Transport         string // TransportStreamableHTTP or TransportSSE
	ModelType         string // the catalogue's filter value (see the seed)
	APIKeyRequired    bool
	APIKeyHeader      string // header carrying the key; "" or "Authorization" means "Authorization: Bearer <key>"
	OAuthRequired     bool
	IsActive          bool
	SupportedFeatures []string
	WebsiteURL        string
	Repository        string
	Version           string
	Source            string // "seed", "local" or "registry"
	UpdatedAt         string // RFC 3339, from the registry entry
	Health            MCPHealth
}

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
	Destructive bool   `json:"destructive"`
}

// MCPConnection is a user's handshake with an MCP server. The API key is kept
// only sealed (see shared/mcp); APIKeyLast4 is all that is ever shown.
type MCPConnection struct {
	ID              string
	ServerID        string
	ServerName      string
	EndpointURL     string
	Transport       string
	ModelType       string
	ProtocolVersion string
	ServerInfo      MCPImplementation
	Tools           []MCPTool
	SealedAPIKey    []byte // nil when no key
	APIKeyLast4     string
	ConnectedAt     string // RFC 3339
}
