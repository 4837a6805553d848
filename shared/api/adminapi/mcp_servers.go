package adminapi

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/mcpjobs/remote"
	"aiwork/shared/random"
	"aiwork/shared/store"
)

// Rules of a server's fields (the web app checks the same).
const (
	MaxServerName        = 100
	MaxServerDescription = 2000
	MaxEndpointURL       = 2000
	MaxFeatures          = 20
	MaxFeature           = 40
)

// Auth kinds of a server, as the admin area names them.
const (
	AuthNone   = "none"
	AuthAPIKey = "api_key"
	AuthOAuth  = "oauth"
)

// modelType is compiled on first use: its {0,39} unrolls into a program
// whose compilation at package init cost the admin Lambda's cold start ~0.14 ms.
var modelType = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9-]{0,39}$`) })

type serverView struct {
	ID           string           `json:"id"`
	Name         string           `json:"name"`
	RegistryName string           `json:"registry_name"`
	Description  string           `json:"description"`
	EndpointURL  string           `json:"endpoint_url"`
	ModelType    string           `json:"model_type"`
	Auth         string           `json:"auth"`
	Features     []string         `json:"features"`
	Enabled      bool             `json:"enabled"`
	Listed       bool             `json:"listed"`
	Source       string           `json:"source"`
	Health       serverHealthView `json:"health"`
	UpdatedAt    string           `json:"updated_at"`
	Version      int              `json:"version"`
	// OAuthClient is the operator's client (null: none), never its secret.
	OAuthClient *oauthClientView `json:"oauth_client"`
	// place is the server's place in the list's order (the page cursor).
	place string
}

type serverHealthView struct {
	Status     string `json:"status"`
	CheckedAt  string `json:"checked_at"`
	LatencyMS  int64  `json:"latency_ms"`
	ToolsCount int    `json:"tools_count"`
	Error      string `json:"error"`
}

func presentServer(s domain.MCPServer) serverView {
	auth := AuthNone
	switch {
	case s.OAuthRequired:
		auth = AuthOAuth
	case s.APIKeyRequired:
		auth = AuthAPIKey
	}
	name := s.Title
	if name == "" {
		name = s.Name
	}
	features := s.SupportedFeatures
	if features == nil {
		features = []string{}
	}
	return serverView{ID: s.ID, Name: name, RegistryName: s.Name, Description: s.Description, EndpointURL: s.EndpointURL, ModelType: s.ModelType,
		Auth: auth, Features: features, Enabled: !s.AdminDisabled, Listed: s.IsActive, Source: s.Source, Health: presentHealth(s.Health),
		UpdatedAt: s.UpdatedAt, Version: s.AdminVersion, OAuthClient: presentOAuthClient(s.Operator)}
}

func presentHealth(h domain.MCPHealth) serverHealthView {
	return serverHealthView{Status: h.Status, CheckedAt: h.CheckedAt, LatencyMS: h.LatencyMS, ToolsCount: h.ToolsCount, Error: h.Error}
}

func (s *Service) mcpRoutes(mux *http.ServeMux) {
	mux.Handle("GET "+Prefix+"mcp-servers", s.admin(s.listServers))
	mux.Handle("POST "+Prefix+"mcp-servers", s.admin(s.createServer))
	mux.Handle("PATCH "+Prefix+"mcp-servers/{id}", s.admin(s.patchServer))
	mux.Handle("POST "+Prefix+"mcp-servers/{id}/probe", s.admin(s.probeServer))
	mux.Handle("GET "+Prefix+"mcp-servers/{id}/probes", s.admin(s.probeHistory))
	mux.Handle("POST "+Prefix+"mcp-sync", s.admin(s.syncRegistry))
}

// listServers answers the registry, disabled entries too, by name: q= on
// name, description and endpoint; state=enabled|disabled|all.
func (s *Service) listServers(w http.ResponseWriter, r *http.Request) error {
	limit, after, err := pageParams(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	search, state := strings.ToLower(strings.TrimSpace(q.Get("q"))), cmp.Or(q.Get("state"), "all")
	if !slices.Contains([]string{"all", "enabled", "disabled"}, state) {
		return httpx.Invalid("state must be enabled, disabled or all")
	}
	all, err := s.st.ListMCPServers(r.Context())
	if err != nil {
		return err
	}
	var views []serverView
	for _, srv := range all {
		v := presentServer(srv)
		v.place = store.MCPServerListPlace(srv)
		if (search != "" && !strings.Contains(strings.ToLower(v.Name+" "+v.RegistryName+" "+v.Description+" "+v.EndpointURL), search)) ||
			(state == "enabled" && !v.Enabled) || (state == "disabled" && v.Enabled) {
			continue
		}
		views = append(views, v)
	}
	items, next := pageByPlace(views, func(v serverView) string { return v.place }, ascending, limit, after)
	writePage(w, items, next, len(views))
	return nil
}

type serverInput struct {
	Version     *int      `json:"version"`
	Name        *string   `json:"name"`
	Description *string   `json:"description"`
	EndpointURL *string   `json:"endpoint_url"`
	ModelType   *string   `json:"model_type"`
	Auth        *string   `json:"auth"`
	Features    *[]string `json:"features"`
	Enabled     *bool     `json:"enabled"`
	// OAuthClient sets, replaces or clears (null) the operator's client.
	OAuthClient clearable[oauthClientInput] `json:"oauth_client"`
}

// apply sets what in gives on srv.
func (in serverInput) apply(srv *domain.MCPServer) {
	if in.Name != nil {
		srv.Title = strings.Join(strings.Fields(*in.Name), " ")
		if srv.Source == sourceAdmin {
			srv.Name = srv.Title
		}
	}
	if in.Description != nil {
		srv.Description = strings.TrimSpace(*in.Description)
	}
	if in.EndpointURL != nil {
		srv.EndpointURL = strings.TrimSpace(*in.EndpointURL)
	}
	if in.ModelType != nil {
		srv.ModelType = strings.TrimSpace(*in.ModelType)
	}
	if in.Auth != nil {
		srv.APIKeyRequired, srv.OAuthRequired = *in.Auth == AuthAPIKey, *in.Auth == AuthOAuth
	}
	if in.Features != nil {
		srv.SupportedFeatures = nil
		for _, f := range *in.Features {
			if f = strings.TrimSpace(f); f != "" && !slices.Contains(srv.SupportedFeatures, f) {
				srv.SupportedFeatures = append(srv.SupportedFeatures, f)
			}
		}
	}
	if in.Enabled != nil {
		srv.AdminDisabled = !*in.Enabled
	}
}

const sourceAdmin = "admin"

const msgServerNotFound = "MCP server not found."

// checkServer holds srv (and the auth asked for) to the rules.
func checkServer(srv domain.MCPServer, in serverInput) error {
	name := srv.Title
	switch n := utf8.RuneCountInString(name); {
	case n == 0:
		return httpx.Invalid("name is required")
	case n > MaxServerName:
		return httpx.Invalid(fmt.Sprintf("name must be at most %d characters", MaxServerName))
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return httpx.Invalid("name must not contain control characters")
	}
	if utf8.RuneCountInString(srv.Description) > MaxServerDescription {
		return httpx.Invalid(fmt.Sprintf("description must be at most %d characters", MaxServerDescription))
	}
	u, err := url.Parse(srv.EndpointURL)
	switch {
	case srv.EndpointURL == "":
		return httpx.Invalid("endpoint_url is required")
	case len(srv.EndpointURL) > MaxEndpointURL:
		return httpx.Invalid(fmt.Sprintf("endpoint_url must be at most %d characters", MaxEndpointURL))
	case err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "":
		return httpx.Invalid("endpoint_url must be an http:// or https:// URL")
	}
	if !modelType().MatchString(srv.ModelType) {
		return httpx.Invalid("model_type must be a short lower-case word (letters, digits, -), such as code or search")
	}
	if in.Auth != nil && !slices.Contains([]string{AuthNone, AuthAPIKey, AuthOAuth}, *in.Auth) {
		return httpx.Invalid(`auth must be "none", "api_key" or "oauth"`)
	}
	if len(srv.SupportedFeatures) > MaxFeatures {
		return httpx.Invalid(fmt.Sprintf("features: at most %d", MaxFeatures))
	}
	for _, f := range srv.SupportedFeatures {
		if utf8.RuneCountInString(f) > MaxFeature {
			return httpx.Invalid(fmt.Sprintf("each feature must be at most %d characters", MaxFeature))
		}
	}
	return nil
}

// refusedWarning: an endpoint the outbound rules refuse is saved disabled,
// with why.
func (s *Service) refusedWarning(r *http.Request, srv *domain.MCPServer) string {
	if s.opts.Endpoints == nil {
		return ""
	}
	err := s.opts.Endpoints.CheckEndpoint(r.Context(), srv.EndpointURL)
	if err == nil {
		return ""
	}
	detail := err.Error()
	if !srv.AdminDisabled {
		srv.AdminDisabled = true
		return "Saved, but disabled: the outbound rules refuse this endpoint. " + detail
	}
	return "The outbound rules refuse this endpoint: " + detail
}

func (s *Service) createServer(w http.ResponseWriter, r *http.Request) error {
	var in serverInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	now := s.opts.Now().UTC()
	srv := domain.MCPServer{ID: "adm-" + random.Hex(6), Source: sourceAdmin, Transport: domain.TransportStreamableHTTP,
		UpdatedAt: utcSeconds(now), Health: domain.MCPHealth{Status: domain.HealthUnknown}}
	in.apply(&srv)
	if in.Auth == nil {
		return httpx.Invalid(`auth is required: "none", "api_key" or "oauth"`)
	}
	if err := checkServer(srv, in); err != nil {
		return err
	}
	if err := s.applyOAuthClient(in.OAuthClient, &srv); err != nil {
		return err
	}
	warning := s.refusedWarning(r, &srv)
	srv.AdminVersion = 1
	if err := s.st.CreateMCPServer(r.Context(), srv, s.audit(r.Context(), "mcp_server.create", "mcp_server", srv.ID, nil, presentServer(srv))); err != nil {
		return err
	}
	srv.IsActive = !srv.AdminDisabled
	writeServer(w, http.StatusCreated, srv, warning)
	return nil
}

func writeServer(w http.ResponseWriter, status int, srv domain.MCPServer, warning string) {
	body := map[string]any{"server": presentServer(srv)}
	if warning != "" {
		body["warning"] = warning
	}
	httpx.WriteJSON(w, status, body)
}

func (s *Service) serverOr404(r *http.Request) (domain.MCPServer, error) {
	srv, err := s.st.GetMCPServer(r.Context(), r.PathValue("id"))
	if errors.Is(err, store.ErrNotFound) {
		return srv, httpx.NotFound(msgServerNotFound)
	}
	return srv, err
}

func (s *Service) patchServer(w http.ResponseWriter, r *http.Request) error {
	var in serverInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	if in.Version == nil {
		return httpx.Invalid("version is required (the version you read)")
	}
	cur, err := s.serverOr404(r)
	if err != nil {
		return err
	}
	if cur.AdminVersion != *in.Version {
		writeConflict(w, "This server changed since you opened it; here it is as it is now.", presentServer(cur))
		return nil
	}
	next := cur
	in.apply(&next)
	if err := checkServer(next, in); err != nil {
		return err
	}
	if err := s.applyOAuthClient(in.OAuthClient, &next); err != nil {
		return err
	}
	warning := ""
	if !next.AdminDisabled || next.EndpointURL != cur.EndpointURL {
		warning = s.refusedWarning(r, &next)
	}
	if cur.Source != sourceAdmin && cur.Source != "" {
		next.UpdatedAt = cur.UpdatedAt
	} else {
		next.UpdatedAt = utcSeconds(s.opts.Now())
	}
	next.AdminVersion = cur.AdminVersion + 1
	err = s.st.UpdateMCPServer(r.Context(), next, cur.AdminVersion, s.audit(r.Context(), "mcp_server.update", "mcp_server", cur.ID, presentServer(cur), presentServer(next)))
	if errors.Is(err, store.ErrVersionConflict) {
		now, gerr := s.serverOr404(r)
		if gerr != nil {
			return gerr
		}
		writeConflict(w, "This server changed since you opened it; here it is as it is now.", presentServer(now))
		return nil
	}
	if err != nil {
		return err
	}
	next.IsActive = next.ListedActive && !next.AdminDisabled
	writeServer(w, http.StatusOK, next, warning)
	return nil
}

// probeServer runs the probe job on one server now (disabled ones too).
func (s *Service) probeServer(w http.ResponseWriter, r *http.Request) error {
	srv, err := s.serverOr404(r)
	if err != nil {
		return err
	}
	if s.opts.Jobs == nil {
		return httpx.Errorf(httpx.CodeUnavailable, "Probing is not set up here.")
	}
	var h domain.MCPHealth
	err = s.st.WithAudit(r.Context(), s.audit(r.Context(), "mcp_server.probe", "mcp_server", srv.ID, presentHealth(srv.Health), nil), func() error {
		h, err = s.opts.Jobs.ProbeOne(r.Context(), srv)
		return err
	})
	if errors.Is(err, remote.ErrNotFound) {
		return httpx.NotFound(msgServerNotFound)
	}
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"health": presentHealth(h)})
	return nil
}

type probeView struct {
	At         string `json:"at"`
	Status     string `json:"status"`
	LatencyMS  int64  `json:"latency_ms"`
	ToolsCount int    `json:"tools_count"`
	Error      string `json:"error"`
}

func (s *Service) probeHistory(w http.ResponseWriter, r *http.Request) error {
	if _, err := s.serverOr404(r); err != nil {
		return err
	}
	records, err := s.st.ProbeHistory(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	items := make([]probeView, len(records))
	for i, p := range records {
		items[i] = probeView{At: utcSeconds(p.At), Status: p.Status, LatencyMS: p.LatencyMS, ToolsCount: p.ToolsCount, Error: p.Error}
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"items": items})
	return nil
}

// syncRegistry runs the sync job now.
func (s *Service) syncRegistry(w http.ResponseWriter, r *http.Request) error {
	if s.opts.Jobs == nil {
		return httpx.Errorf(httpx.CodeUnavailable, "Syncing is not set up here.")
	}
	var body remote.SyncReport
	err := s.st.WithAudit(r.Context(), s.audit(r.Context(), "mcp.sync", "mcp_registry", "registry", nil, nil), func() error {
		report, err := s.opts.Jobs.Sync(r.Context())
		if err != nil {
			return httpx.Errorf(httpx.CodeUpstream, "The registry sync failed: %v", err)
		}
		body = report
		return nil
	})
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, body)
	return nil
}
