// Package mcpapi is the mcp route group: the MCP server registry, users'
// connections to MCP servers (a real handshake each), and connections to chat
// providers. Streaming replies live in chatapi.
package mcpapi

import (
	"cmp"
	"fmt"
	"net/http"
	"strings"
	"time"

	"aiwork/shared/auth"
	"aiwork/shared/config"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/llm"
	"aiwork/shared/mcp"
	"aiwork/shared/random"
	"aiwork/shared/store"
)

// Service holds what the handlers need.
type Service struct {
	st     *store.Store
	tokens *auth.Tokens
	real   map[string]bool

	sealer         *mcp.Sealer
	policy         mcp.Policy
	hosts          *hostGuesses
	client         *http.Client
	connectTimeout time.Duration
	userLimit      int
	hostLimit      int
	// publicURL is where browsers reach the site (OAuth redirects); ""
	// means the request's own address (httpx.PublicURL).
	publicURL string
	// clientMetadataURL is where the site's Client ID Metadata Document is
	// published ("": under publicURL, when that is https).
	clientMetadataURL string
	// composer reaches the caller's servers for their prompts and
	// resources (composer.go).
	composer *composer
}

// Options configure MCP server connections.
type Options struct {
	// Sealer encrypts users' server API keys before they are stored.
	Sealer *mcp.Sealer
	// Policy is where connects may go (DESIGN §7 outbound rules).
	Policy         mcp.Policy
	ConnectTimeout time.Duration
	// SessionIdle: how long a warm session of the composer's stays open
	// unused (0: config.DefaultSessionIdle).
	SessionIdle time.Duration
	// Connect attempts per minute, per user and per target host.
	ConnectsPerMinute     int
	HostConnectsPerMinute int
	// PublicURL: see Service.publicURL.
	PublicURL string
	// ClientMetadataURL: see Service.clientMetadataURL.
	ClientMetadataURL string
}

// New builds the mcp group. real says which chat providers are served by
// their APIs (llm.RealProviders); the others by the local demo model.
// Knowing that is enough here, so this package links no provider SDK.
func New(st *store.Store, tokens *auth.Tokens, real map[string]bool, o Options) *Service {
	connectTimeout := cmp.Or(o.ConnectTimeout, mcp.DefaultHandshakeTimeout)
	return &Service{
		st: st, tokens: tokens, real: real, sealer: o.Sealer, policy: o.Policy, hosts: &hostGuesses{},
		// The connect timeout alone bounds a handshake: the client's wait
		// for an answer's headers (10 s by default) must not cut it first.
		client:            o.Policy.ClientWithLimits(mcp.Limits{ResponseHeader: connectTimeout}),
		connectTimeout:    connectTimeout,
		userLimit:         cmp.Or(o.ConnectsPerMinute, 10),
		hostLimit:         cmp.Or(o.HostConnectsPerMinute, 60),
		publicURL:         strings.TrimRight(o.PublicURL, "/"),
		clientMetadataURL: o.ClientMetadataURL,
		composer:          newComposer(st, o.Sealer, o.Policy, connectTimeout, cmp.Or(o.SessionIdle, config.DefaultSessionIdle)),
	}
}

// FromConfig builds the group from its configuration: the one wiring the
// Lambda and the devserver share.
func FromConfig(st *store.Store, cfg config.MCP) (*Service, error) {
	sealer, err := mcp.NewSealer(cfg.KeyEncryptionKey)
	if err != nil {
		return nil, err
	}
	policy, err := mcp.PolicyFor(cfg.Outbound)
	if err != nil {
		return nil, err
	}
	return New(st, auth.FromConfig(cfg.Base, 0, st), llm.RealProviders(cfg.Providers), Options{
		Sealer: sealer, Policy: policy, ConnectTimeout: cfg.ConnectTimeout, SessionIdle: cfg.SessionIdle,
		ConnectsPerMinute: cfg.ConnectsPerMinute, HostConnectsPerMinute: cfg.HostConnectsPerMinute, PublicURL: cfg.PublicURL,
		ClientMetadataURL: cfg.ClientMetadataURL,
	}), nil
}

// Close ends the warm sessions the composer keeps open (its pool's idle
// timer with them); a function's service lives as long as its process, a
// test's stack is closed at the test's end.
func (s *Service) Close() { s.composer.pool.Close() }

// Handler routes the registry and both kinds of connection.
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /api/v1/mcp-servers/{$}", httpx.Handle(s.listServers))
	mux.Handle("GET /api/v1/mcp-servers/{id}", httpx.Handle(s.getServer))
	mux.Handle("GET /api/v1/mcp-connections/{$}", s.tokens.Required(httpx.Handle(s.listConnections)))
	// A connect and a sign-in start read the session themselves (admit), in
	// one table call with the registry entry.
	mux.Handle("POST /api/v1/mcp-connections/{$}", s.tokens.RequiredBatched(httpx.Handle(s.connectServer)))
	mux.Handle("DELETE /api/v1/mcp-connections/{id}", s.tokens.Required(httpx.Handle(s.deleteConnection)))
	mux.Handle("GET /api/v1/mcp-connections/tools", s.tokens.Required(httpx.Handle(s.listTools)))
	mux.Handle("GET /api/v1/mcp-connections/prompts", s.tokens.Required(httpx.Handle(s.listPrompts)))
	mux.Handle("POST /api/v1/mcp-connections/{id}/prompts/get", s.tokens.Required(httpx.Handle(s.getPrompt)))
	mux.Handle("POST /api/v1/mcp-connections/{id}/complete", s.tokens.Required(httpx.Handle(s.complete)))
	mux.Handle("GET /api/v1/mcp-connections/resources", s.tokens.Required(httpx.Handle(s.listResources)))
	mux.Handle("POST /api/v1/mcp-connections/{id}/resources/read", s.tokens.Required(httpx.Handle(s.readResource)))
	mux.Handle("POST "+OAuthStartPath, s.tokens.RequiredBatched(httpx.Handle(s.oauthStart)))
	mux.Handle("GET "+OAuthCallbackPath, http.HandlerFunc(s.oauthCallback))
	mux.Handle("GET "+OAuthMetadataPath, httpx.Handle(s.clientMetadata))
	mux.Handle("GET "+OAuthFailurePath, s.tokens.Required(httpx.Handle(s.signInFailure)))
	mux.Handle("DELETE /api/v1/mcp-connections/tools/always/{server_id}/{tool}", s.tokens.Required(httpx.Handle(s.revokeAlways)))
	mux.Handle("POST /api/v1/mcp-connections/{provider}", s.tokens.Required(httpx.Handle(s.connectProvider)))
	return httpx.WithNotFound(mux)
}

type connectInput struct {
	Model string `json:"model"`
}

type connectResponse struct {
	ID         string `json:"id"`
	ServerName string `json:"server_name"`
	Model      string `json:"model"`
	Demo       bool   `json:"demo"`
}

// connectProvider opens a chat connection to a provider for one model.
func (s *Service) connectProvider(w http.ResponseWriter, r *http.Request) error {
	p, ok := llm.FindProvider(r.PathValue("provider"))
	if !ok {
		return httpx.NotFound(fmt.Sprintf("Unknown provider '%s'. Choose openai, meta, anthropic or google.", r.PathValue("provider")))
	}
	var in connectInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	in.Model = strings.TrimSpace(in.Model)
	if _, ok := p.FindModel(in.Model); !ok {
		return httpx.Invalid(fmt.Sprintf("Model '%s' is not offered by %s. Choose one of: %s.", in.Model, p.Label, strings.Join(p.ModelNames(), ", ")))
	}
	demo := !s.real[p.ID]
	name := p.Label
	if demo {
		name += " (local demo)"
	}
	uid, _ := auth.UserID(r.Context())
	c := domain.ChatConnection{
		ID: newID(), Provider: p.ID, Model: in.Model, Name: name,
		CreatedAt: time.Now().UTC().Format(time.RFC3339Nano),
	}
	if err := s.st.PutChatConnection(r.Context(), uid, c); err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, connectResponse{ID: c.ID, ServerName: c.Name, Model: c.Model, Demo: demo})
	return nil
}

func newID() string { return random.Hex(16) }
