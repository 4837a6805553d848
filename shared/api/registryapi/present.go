package registryapi

import (
	"encoding/json"
	"net/url"
	"strings"
	"time"

	"aiwork/shared/clip"
	"aiwork/shared/domain"
	"aiwork/shared/mcp/registry"
	"aiwork/shared/store"
)

// SchemaURL is the server.json schema every served entry follows.
const SchemaURL = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"

// OwnNamespace names the entries whose catalogue name is no registry name
// (those an admin added, named in words): "com.aiwork/<id>".
const OwnNamespace = store.MCPOwnNamespace

// DefaultVersion is the version of an entry that has none (an admin's):
// the one the seed gives its entries.
const DefaultVersion = store.MCPDefaultVersion

// server.json's bounds (characters).
const (
	maxDescription = 100
	maxTitle       = 100
	maxVersion     = 255
)

// The answers, in the official shapes (the registry's pkg/api/v0).
type (
	listResponse struct {
		Servers  []serverResponse `json:"servers"`
		Metadata listMetadata     `json:"metadata"`
	}
	listMetadata struct {
		NextCursor string `json:"nextCursor,omitempty"`
		Count      int    `json:"count"`
	}
	serverResponse struct {
		Server serverJSON   `json:"server"`
		Meta   responseMeta `json:"_meta"`
	}
	// responseMeta is the entry's "_meta": the official registry's record
	// and this catalogue's own data (registry.CatalogMetaKey).
	responseMeta struct {
		Official officialMeta         `json:"io.modelcontextprotocol.registry/official"`
		Catalog  registry.CatalogMeta `json:"com.aiwork/catalog"`
	}
	officialMeta struct {
		Status          string    `json:"status"`
		StatusChangedAt time.Time `json:"statusChangedAt"`
		PublishedAt     time.Time `json:"publishedAt"`
		UpdatedAt       time.Time `json:"updatedAt"`
		IsLatest        bool      `json:"isLatest"`
	}
	serverJSON struct {
		Schema      string      `json:"$schema"`
		Name        string      `json:"name"`
		Title       string      `json:"title,omitempty"`
		Description string      `json:"description"`
		Version     string      `json:"version"`
		WebsiteURL  string      `json:"websiteUrl,omitempty"`
		Repository  *repository `json:"repository,omitempty"`
		Remotes     []remote    `json:"remotes"`
	}
	repository struct {
		URL    string `json:"url"`
		Source string `json:"source"`
	}
	remote struct {
		Type    string   `json:"type"`
		URL     string   `json:"url"`
		Headers []header `json:"headers,omitempty"`
	}
	header struct {
		Name        string           `json:"name"`
		Description string           `json:"description,omitempty"`
		IsRequired  bool             `json:"isRequired,omitempty"`
		IsSecret    bool             `json:"isSecret,omitempty"`
		Value       string           `json:"value,omitempty"`
		Variables   map[string]input `json:"variables,omitempty"`
	}
	input struct {
		Description string `json:"description,omitempty"`
		IsRequired  bool   `json:"isRequired,omitempty"`
		IsSecret    bool   `json:"isSecret,omitempty"`
	}
)

// Registry statuses served: the catalogue knows listed and not listed, so
// an entry is active or deleted (one deprecated upstream left the listing
// here like a deleted one).
const (
	statusActive  = "active"
	statusDeleted = "deleted"
)

// present is e as the API answers it; base is the site's address, for the
// link to the entry's page.
func present(e entry, base string) serverResponse {
	srv := e.srv
	description := strings.TrimSpace(srv.Description)
	if description == "" {
		description = cmpOr(srv.Title, e.name)
	}
	short := clip.WithEllipsis(description, maxDescription-1)
	s := serverJSON{
		Schema: SchemaURL, Name: e.name, Description: short, Version: e.version,
		WebsiteURL: srv.WebsiteURL, Repository: repositoryOf(srv.Repository), Remotes: []remote{remoteOf(srv)},
	}
	if title := clip.Runes(strings.TrimSpace(srv.Title), maxTitle); title != "" && title != e.name {
		s.Title = title
	}
	status, statusChanged := statusActive, e.published
	if e.deleted {
		status, statusChanged = statusDeleted, e.updated
	}
	meta := catalogMeta(srv, base)
	if short != description {
		meta.Description = description
	}
	return serverResponse{Server: s, Meta: responseMeta{
		Official: officialMeta{Status: status, StatusChangedAt: statusChanged, PublishedAt: e.published, UpdatedAt: e.updated, IsLatest: true},
		Catalog:  fit(meta),
	}}
}

func cmpOr(a, b string) string {
	if strings.TrimSpace(a) != "" {
		return strings.TrimSpace(a)
	}
	return b
}

// remoteOf is the entry's endpoint: streamable HTTP or SSE, with the
// header a user's key goes in (Authorization as "Bearer {api_key}").
func remoteOf(srv domain.MCPServer) remote {
	r := remote{Type: domain.TransportStreamableHTTP, URL: srv.EndpointURL}
	if srv.Transport == domain.TransportSSE {
		r.Type = domain.TransportSSE
	}
	if strings.ContainsAny(r.URL, " \t\r\n") {
		if u, err := url.Parse(strings.TrimSpace(r.URL)); err == nil {
			r.URL = u.String() // server.json allows no white space in a URL
		}
	}
	if !srv.APIKeyRequired && srv.APIKeyHeader == "" {
		return r
	}
	const keyText = "Your API key for this server."
	h := header{Name: srv.APIKeyHeader, Description: keyText, IsRequired: srv.APIKeyRequired, IsSecret: true}
	if h.Name == "" || strings.EqualFold(h.Name, "Authorization") {
		h.Name, h.Description, h.Value = "Authorization", "Bearer and your API key for this server.", "Bearer {api_key}"
		h.Variables = map[string]input{"api_key": {Description: keyText, IsRequired: srv.APIKeyRequired, IsSecret: true}}
	}
	r.Headers = []header{h}
	return r
}

// repositoryOf names the host of a repository URL as its source
// ("github" for github.com); nil without a usable URL.
func repositoryOf(raw string) *repository {
	u, err := url.Parse(raw)
	if raw == "" || err != nil || u.Hostname() == "" {
		return nil
	}
	host := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	source, _, _ := strings.Cut(host, ".")
	return &repository{URL: raw, Source: source}
}

// catalogMeta is this catalogue's data on srv (registry.CatalogMeta).
func catalogMeta(srv domain.MCPServer, base string) registry.CatalogMeta {
	oauth := srv.OAuthRequired
	m := registry.CatalogMeta{
		ModelType: srv.ModelType, OAuth: &oauth, Features: srv.SupportedFeatures,
		ID: srv.ID, URL: base + "/api/v1/mcp-servers/" + url.PathEscape(srv.ID), Auth: registry.AuthNone,
	}
	switch {
	case srv.OAuthRequired:
		m.Auth = registry.AuthOAuth
	case srv.APIKeyRequired:
		m.Auth = registry.AuthAPIKey
	}
	h := srv.Health
	m.Health = &registry.CatalogHealth{Status: cmpOr(h.Status, domain.HealthUnknown), CheckedAt: h.CheckedAt, LatencyMS: h.LatencyMS}
	if h.CheckedAt != "" {
		n := h.ToolsCount
		m.ToolsCount = &n
		for _, t := range h.Tools {
			m.Tools = append(m.Tools, registry.CatalogTool{Name: t.Name, ReadOnly: t.ReadOnly, Destructive: t.MayDestroy()})
		}
		// The list's copies carry the names that could fit (store's
		// mcpCopyToolsBytes): fewer than the count is a part of them.
		m.ToolsTruncated = len(h.Tools) < n
	}
	return m
}

// fit keeps m within registry.MaxCatalogMetaBytes: as many of the tools
// as fit (the first ones, marked truncated); with no room even without
// tools, no long description either, and then the tools that fit. What is
// left out is on the entry's page (m.URL).
func fit(m registry.CatalogMeta) registry.CatalogMeta {
	if size(m) <= registry.MaxCatalogMetaBytes {
		return m
	}
	all, partial := m.Tools, m.ToolsTruncated
	m = fitTools(m, all, partial)
	if size(m) > registry.MaxCatalogMetaBytes && m.Description != "" {
		m.Description = ""
		m = fitTools(m, all, partial)
	}
	if size(m) > registry.MaxCatalogMetaBytes {
		m.Features = nil // only an entry with very long feature names gets here
	}
	return m
}

// fitTools is m with the most of tools that fit (all of them if they do);
// partial: tools are already a part of the server's.
func fitTools(m registry.CatalogMeta, tools []registry.CatalogTool, partial bool) registry.CatalogMeta {
	m.Tools, m.ToolsTruncated = tools, partial
	if size(m) <= registry.MaxCatalogMetaBytes {
		return m
	}
	m.ToolsTruncated = true
	lo, hi := 0, len(tools)-1 // size grows with the number of tools
	for lo < hi {
		mid := (lo + hi + 1) / 2
		m.Tools = tools[:mid]
		if size(m) <= registry.MaxCatalogMetaBytes {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	m.Tools = tools[:lo]
	if lo == 0 {
		m.Tools = nil
	}
	return m
}

func size(m registry.CatalogMeta) int {
	raw, _ := json.Marshal(m)
	return len(raw)
}
