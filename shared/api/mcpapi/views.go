package mcpapi

import "aiwork/shared/domain"

// serverView is a registry entry as the API shows it (SPEC §3 plus the
// transport and the last probe's health).
type serverView struct {
	ID                string     `json:"id"`
	Name              string     `json:"name"`
	RegistryName      string     `json:"registry_name"`
	Description       string     `json:"description"`
	EndpointURL       string     `json:"endpoint_url"`
	ModelType         string     `json:"model_type"`
	APIKeyRequired    bool       `json:"api_key_required"`
	OAuthRequired     bool       `json:"oauth_required"`
	IsActive          bool       `json:"is_active"`
	SupportedFeatures []string   `json:"supported_features"`
	Transport         string     `json:"transport"`
	WebsiteURL        string     `json:"website_url"`
	Repository        string     `json:"repository"`
	Health            healthView `json:"health"`
	ToolsChangedAt    string     `json:"tools_changed_at"`
}

type healthView struct {
	Status          string `json:"status"`
	CheckedAt       string `json:"checked_at"`
	LatencyMS       int64  `json:"latency_ms"`
	ProtocolVersion string `json:"protocol_version"`
	ToolsCount      int    `json:"tools_count"`
	Detail          string `json:"detail"`
}

// serverDetailView adds what the last probe learnt, so a user sees the tools
// before connecting.
type serverDetailView struct {
	serverView
	ServerInfo *domain.MCPImplementation `json:"server_info"`
	Tools      []domain.MCPTool          `json:"tools"`
}

func presentServer(s domain.MCPServer) serverView {
	name := s.Title
	if name == "" {
		name = s.Name
	}
	status := s.Health.Status
	if status == "" {
		status = domain.HealthUnknown
	}
	return serverView{
		ID: s.ID, Name: name, RegistryName: s.Name, Description: s.Description, EndpointURL: s.EndpointURL,
		ModelType: s.ModelType, APIKeyRequired: s.APIKeyRequired, OAuthRequired: s.OAuthRequired, IsActive: s.IsActive,
		SupportedFeatures: nonNil(s.SupportedFeatures), Transport: transportOf(s), WebsiteURL: s.WebsiteURL, Repository: s.Repository,
		Health: healthView{
			Status: status, CheckedAt: s.Health.CheckedAt, LatencyMS: s.Health.LatencyMS,
			ProtocolVersion: s.Health.ProtocolVersion, ToolsCount: s.Health.ToolsCount, Detail: s.Health.Error,
		},
		ToolsChangedAt: s.Health.ToolsChangedAt,
	}
}

func presentServerDetail(s domain.MCPServer) serverDetailView {
	return serverDetailView{serverView: presentServer(s), ServerInfo: s.Health.ServerInfo, Tools: nonNil(s.Health.Tools)}
}

func transportOf(s domain.MCPServer) string {
	if s.Transport == "" {
		return domain.TransportStreamableHTTP
	}
	return s.Transport
}

// connectionView answers a connect: what the handshake found. The key is
// never in it, only whether there is one and its last characters.
type connectionView struct {
	ConnectionID    string                   `json:"connection_id"`
	ServerID        string                   `json:"server_id"`
	ServerName      string                   `json:"server_name"`
	EndpointURL     string                   `json:"endpoint_url"`
	ModelType       string                   `json:"model_type"`
	Transport       string                   `json:"transport"`
	ProtocolVersion string                   `json:"protocol_version"`
	ServerInfo      domain.MCPImplementation `json:"server_info"`
	Tools           []domain.MCPTool         `json:"tools"`
	ToolsCount      int                      `json:"tools_count"`
	ConnectedAt     string                   `json:"connected_at"`
	HasAPIKey       bool                     `json:"has_api_key"`
	APIKeyLast4     string                   `json:"api_key_last4"`
	// EndpointHost is always present: the host reached when the user's
	// endpoint was not on the entry's default host, else "" (see
	// domain.MCPConnection), shown beside ServerName.
	EndpointHost string `json:"endpoint_host"`
}

// connectionListItem is one row of the caller's connections (no tool list).
type connectionListItem struct {
	ConnectionID    string `json:"connection_id"`
	ServerID        string `json:"server_id"`
	ServerName      string `json:"server_name"`
	EndpointURL     string `json:"endpoint_url"`
	ModelType       string `json:"model_type"`
	Transport       string `json:"transport"`
	ProtocolVersion string `json:"protocol_version"`
	ToolsCount      int    `json:"tools_count"`
	HasAPIKey       bool   `json:"has_api_key"`
	APIKeyLast4     string `json:"api_key_last4"`
	ConnectedAt     string `json:"connected_at"`
	// OAuth: signed in with the server; NeedsSignIn: the server no longer
	// accepts it (Sign in again).
	OAuth       bool `json:"oauth"`
	NeedsSignIn bool `json:"needs_sign_in"`
	// EndpointHost: as in connectionView.
	EndpointHost string `json:"endpoint_host"`
}

func presentConnection(c domain.MCPConnection) connectionView {
	return connectionView{
		ConnectionID: c.ID, ServerID: c.ServerID, ServerName: c.ServerName, EndpointURL: c.EndpointURL,
		ModelType: c.ModelType, Transport: c.Transport, ProtocolVersion: c.ProtocolVersion, ServerInfo: c.ServerInfo,
		Tools: nonNil(c.Tools), ToolsCount: len(c.Tools), ConnectedAt: c.ConnectedAt,
		HasAPIKey: len(c.SealedAPIKey) > 0, APIKeyLast4: c.APIKeyLast4, EndpointHost: c.EndpointHost,
	}
}

func presentConnectionRow(c domain.MCPConnection) connectionListItem {
	return connectionListItem{
		ConnectionID: c.ID, ServerID: c.ServerID, ServerName: c.ServerName, EndpointURL: c.EndpointURL,
		ModelType: c.ModelType, Transport: c.Transport, ProtocolVersion: c.ProtocolVersion, ToolsCount: len(c.Tools),
		HasAPIKey: len(c.SealedAPIKey) > 0 && !c.OAuth, APIKeyLast4: c.APIKeyLast4, ConnectedAt: c.ConnectedAt,
		OAuth: c.OAuth, NeedsSignIn: c.NeedsSignIn, EndpointHost: c.EndpointHost,
	}
}

// nonNil makes an absent list encode as [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
