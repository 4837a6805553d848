package registry

// CatalogMeta is this product's own data on a registry entry, under
// CatalogMetaKey in the entry's "_meta" (the seed's, and every answer of
// the product's registry API). A sync reads back what the catalogue keeps
// of an entry (model_type, oauth, features, oauth_client_id, description);
// the rest says what this deployment knows of the server (its last probe,
// its tools, how a user signs in) and is shown, never imported: a
// deployment probes the servers it lists itself.
type CatalogMeta struct {
	ModelType string `json:"model_type,omitempty"`
	// OAuth: the server wants its users to sign in with its OAuth.
	OAuth    *bool    `json:"oauth,omitempty"`
	Features []string `json:"features,omitempty"`
	// OAuthClientID: the operator's client at the server's authorization
	// server (used only when neither a metadata document nor registration
	// works). The registry API never serves it: a client is registered for
	// one site's redirect address.
	OAuthClientID string `json:"oauth_client_id,omitempty"`
	// Description is the whole description when server.json's (at most 100
	// characters) had to be shortened.
	Description string `json:"description,omitempty"`

	// ID is the entry's id in this catalogue and URL its page in this
	// deployment's API (GET /api/v1/mcp-servers/{id}): what does not fit
	// here is there.
	ID  string `json:"id,omitempty"`
	URL string `json:"url,omitempty"`
	// Auth is how a user reaches the server: AuthNone, AuthAPIKey or
	// AuthOAuth.
	Auth   string         `json:"auth,omitempty"`
	Health *CatalogHealth `json:"health,omitempty"`
	// ToolsCount is how many tools the last probe saw; Tools lists them
	// (ToolsTruncated: only the first, to keep within MaxCatalogMetaBytes).
	ToolsCount     *int          `json:"tools_count,omitempty"`
	Tools          []CatalogTool `json:"tools,omitempty"`
	ToolsTruncated bool          `json:"tools_truncated,omitempty"`
}

// MaxCatalogMetaBytes bounds CatalogMeta as JSON: the limit the official
// registry sets on a publisher's own "_meta" (4 KB).
const MaxCatalogMetaBytes = 4096

// How a user reaches a server (CatalogMeta.Auth), as the admin area names them.
const (
	AuthNone   = "none"
	AuthAPIKey = "api_key"
	AuthOAuth  = "oauth"
)

// CatalogHealth is the last probe of a server: status up, auth_required,
// down or unknown; when (RFC 3339, absent when never probed); how long its
// handshake took.
type CatalogHealth struct {
	Status    string `json:"status"`
	CheckedAt string `json:"checked_at,omitempty"`
	LatencyMS int64  `json:"latency_ms,omitempty"`
}

// CatalogTool is one tool with its hints: read-only, and destructive as
// the MCP spec reads the hints (not read-only and not declared harmless).
type CatalogTool struct {
	Name        string `json:"name"`
	ReadOnly    bool   `json:"read_only"`
	Destructive bool   `json:"destructive"`
}

// ValidName reports whether name is a registry name as server.json
// defines it: a reverse-DNS namespace, one "/", a server name; at most 200
// characters.
func ValidName(name string) bool {
	return len(name) >= 3 && len(name) <= 200 && namePattern().MatchString(name)
}
