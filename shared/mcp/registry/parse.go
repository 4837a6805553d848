// Package registry reads the official MCP registry format: the
// GET /v0.1/servers list response (server.json entries plus registry
// metadata), for the committed seed snapshot and for syncing from any
// registry that speaks the official API (Syncer).
package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"aiwork/shared/clip"
	"aiwork/shared/domain"
)

// Metadata keys inside "_meta".
const (
	// OfficialMetaKey holds the registry's own record (status, isLatest, times).
	OfficialMetaKey = "io.modelcontextprotocol.registry/official"
	// PublisherMetaKey is the server.json extension a publisher may fill.
	PublisherMetaKey = "io.modelcontextprotocol.registry/publisher-provided"
	// CatalogMetaKey is this product's own annotation of an entry (the seed
	// uses it): {"model_type": "...", "oauth": true, "features": ["tools"],
	// "oauth_client_id": "..."}. server.json has no field for OAuth, so this
	// is where it is said, with the client id an operator registered at a
	// server that lets no new app register itself.
	CatalogMetaKey = "com.aiwork/catalog"
)

// Registry statuses (the official registry's lifecycle).
const (
	StatusActive     = "active"
	StatusDeprecated = "deprecated"
	StatusDeleted    = "deleted"
)

// Bounds on what one entry may put in the catalogue.
const (
	maxDescription = 1000 // runes
	maxTitle       = 200  // runes
	maxFeatures    = 8
)

// listResponse is the /v0.1/servers answer. Entries stay raw so one bad
// entry is skipped without losing the page.
type listResponse struct {
	Servers  []json.RawMessage `json:"servers"`
	Metadata struct {
		NextCursor      string `json:"nextCursor"`
		NextCursorSnake string `json:"next_cursor"` // some registries spell it so
	} `json:"metadata"`
}

type serverResponse struct {
	Server serverJSON                 `json:"server"`
	Meta   map[string]json.RawMessage `json:"_meta"`
}

type serverJSON struct {
	Name        string                     `json:"name"`
	Title       string                     `json:"title"`
	Description string                     `json:"description"`
	Version     string                     `json:"version"`
	WebsiteURL  string                     `json:"websiteUrl"`
	Repository  *repository                `json:"repository"`
	Remotes     []remote                   `json:"remotes"`
	Meta        map[string]json.RawMessage `json:"_meta"`
}

type repository struct {
	URL    string `json:"url"`
	Source string `json:"source"`
}

type remote struct {
	Type    string   `json:"type"`
	URL     string   `json:"url"`
	Headers []header `json:"headers"`
}

type header struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	IsRequired  bool   `json:"isRequired"`
	IsSecret    bool   `json:"isSecret"`
}

type officialMeta struct {
	Status      string `json:"status"`
	PublishedAt string `json:"publishedAt"`
	UpdatedAt   string `json:"updatedAt"`
	IsLatest    *bool  `json:"isLatest"`
}

// catalogMeta is the part of CatalogMeta an import reads (the rest, of
// whatever shape, is not its concern).
type catalogMeta struct {
	ModelType     string   `json:"model_type"`
	OAuth         *bool    `json:"oauth"`
	Features      []string `json:"features"`
	OAuthClientID string   `json:"oauth_client_id"`
	Description   string   `json:"description"`
}

// parsed is one usable entry plus which of its choices the entry itself
// made; the syncer keeps a stored value where the entry is silent.
type parsed struct {
	server       domain.MCPServer
	hasModelType bool
	hasOAuth     bool
	hasFeatures  bool
	hasClientID  bool
}

type pageResult struct {
	entries    []parsed
	deleted    []string
	nextCursor string
	malformed  int
}

// Parse reads one /v0.1/servers page. It returns the usable entries (status
// active, latest version, with a streamable-http or sse remote), the ids of
// entries the registry marks deleted, deprecated or otherwise not active (so
// they leave the listing), and the cursor of the next page ("" on the last;
// metadata.nextCursor or next_cursor). Entries that cannot be read are
// skipped with one log line each; only a page that is not the list shape at
// all is an error. Entries without a model type of their own are classified
// by keywords (Classify); without features they offer ["tools"].
func Parse(page []byte, log *slog.Logger) (entries []domain.MCPServer, deleted []string, nextCursor string, err error) {
	r, err := parsePage(page, log)
	if err != nil {
		return nil, nil, "", err
	}
	for _, p := range r.entries {
		entries = append(entries, p.server)
	}
	return entries, r.deleted, r.nextCursor, nil
}

func parsePage(page []byte, log *slog.Logger) (pageResult, error) {
	if log == nil {
		log = slog.Default()
	}
	var lr listResponse
	if err := json.Unmarshal(page, &lr); err != nil {
		return pageResult{}, fmt.Errorf("registry page: %w", err)
	}
	if lr.Servers == nil && !hasServersKey(page) {
		return pageResult{}, errors.New(`registry page: no "servers" list`)
	}
	r := pageResult{nextCursor: lr.Metadata.NextCursor}
	if r.nextCursor == "" {
		r.nextCursor = lr.Metadata.NextCursorSnake
	}
	for i, raw := range lr.Servers {
		p, status, err := parseEntry(raw)
		if err != nil {
			r.malformed++
			log.Warn("mcp registry: skipped malformed entry", "index", i, "name", p.server.Name, "reason", err.Error())
			continue
		}
		switch status {
		case entryUsable:
			r.entries = append(r.entries, p)
		case entryGone:
			r.deleted = append(r.deleted, p.server.ID)
		}
	}
	return r, nil
}

func hasServersKey(page []byte) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(page, &m) != nil {
		return false
	}
	_, ok := m["servers"]
	return ok
}

type entryStatus int

const (
	entryUsable  entryStatus = iota
	entryGone                // deleted, deprecated or not active: leaves the listing
	entryIgnored             // an older version, or no remote we can reach
)

// namePattern is server.json's rule: reverse-DNS namespace, one slash.
var namePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`) })

func parseEntry(raw json.RawMessage) (parsed, entryStatus, error) {
	var sr serverResponse
	if err := json.Unmarshal(raw, &sr); err != nil {
		// Keep the name, when there is one, for the log line.
		var named struct {
			Server struct {
				Name string `json:"name"`
			} `json:"server"`
		}
		_ = json.Unmarshal(raw, &named)
		return parsed{server: domain.MCPServer{Name: clip.Runes(named.Server.Name, 200)}}, 0, fmt.Errorf("not a server entry: %w", err)
	}
	s := sr.Server
	p := parsed{server: domain.MCPServer{Name: clip.Runes(s.Name, 200)}}
	if !ValidName(s.Name) {
		return p, 0, fmt.Errorf("name %q is not a registry name", clip.Runes(s.Name, 80))
	}
	p.server.ID = ServerID(s.Name)

	var official officialMeta
	if err := metaValue(sr.Meta, OfficialMetaKey, &official); err != nil {
		return p, 0, err
	}
	if official.Status != "" && official.Status != StatusActive {
		return p, entryGone, nil
	}
	if official.IsLatest != nil && !*official.IsLatest {
		return p, entryIgnored, nil
	}

	rem, ok := pickRemote(s.Remotes)
	if !ok {
		return p, entryIgnored, nil
	}
	var cat catalogMeta
	if err := metaValue(sr.Meta, CatalogMetaKey, &cat); err != nil {
		return p, 0, err
	}
	if cat.empty() {
		// A publisher may annotate its own server.json the same way.
		if err := metaValue(s.Meta, CatalogMetaKey, &cat); err != nil {
			return p, 0, err
		}
	}

	srv := &p.server
	srv.Title = clip.Runes(strings.TrimSpace(s.Title), maxTitle)
	if srv.Title == "" {
		srv.Title = s.Name[strings.IndexByte(s.Name, '/')+1:]
	}
	srv.Description = clip.Runes(strings.TrimSpace(s.Description), maxDescription)
	if d := strings.TrimSpace(cat.Description); d != "" {
		// server.json's description is at most 100 characters; a registry
		// that had to shorten it gives the whole one here.
		srv.Description = clip.Runes(d, maxDescription)
	}
	srv.EndpointURL, srv.Transport = rem.URL, rem.Type
	srv.APIKeyHeader, srv.APIKeyRequired = keyHeader(rem.Headers)
	srv.IsActive = true
	srv.Version = clip.Runes(s.Version, 100)
	srv.WebsiteURL = httpURLOrEmpty(s.WebsiteURL)
	if s.Repository != nil {
		srv.Repository = httpURLOrEmpty(s.Repository.URL)
	}
	srv.UpdatedAt = rfc3339OrEmpty(official.UpdatedAt)
	if srv.UpdatedAt == "" {
		srv.UpdatedAt = rfc3339OrEmpty(official.PublishedAt)
	}
	srv.Source = "registry"

	if mt := normalizeModelType(cat.ModelType); mt != "" {
		srv.ModelType, p.hasModelType = mt, true
	} else if mt := publisherModelType(s.Meta); mt != "" {
		srv.ModelType, p.hasModelType = mt, true
	} else {
		srv.ModelType = Classify(s.Name, s.Title, s.Description)
	}
	if cat.OAuth != nil {
		srv.OAuthRequired, p.hasOAuth = *cat.OAuth, true
	}
	if id := strings.TrimSpace(cat.OAuthClientID); id != "" && len(id) <= 200 {
		srv.OAuthClientID, p.hasClientID = id, true
	}
	if f := cleanFeatures(cat.Features); len(f) > 0 {
		srv.SupportedFeatures, p.hasFeatures = f, true
	} else {
		srv.SupportedFeatures = []string{"tools"}
	}
	return p, entryUsable, nil
}

func (c catalogMeta) empty() bool { return c.ModelType == "" && c.OAuth == nil && len(c.Features) == 0 }

// metaValue decodes _meta[key] into out when present.
func metaValue(meta map[string]json.RawMessage, key string, out any) error {
	raw, ok := meta[key]
	if !ok || string(raw) == "null" {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("_meta %q: %w", key, err)
	}
	return nil
}

// pickRemote chooses the remote to connect to: streamable HTTP first, then
// SSE; URLs must be absolute http(s) and not templates ("{tenant}").
func pickRemote(remotes []remote) (remote, bool) {
	for _, want := range []string{domain.TransportStreamableHTTP, domain.TransportSSE} {
		for _, r := range remotes {
			if r.Type == want && httpURLOrEmpty(r.URL) != "" && !strings.ContainsAny(r.URL, "{}") {
				return r, true
			}
		}
	}
	return remote{}, false
}

// keyHeader names the header a user's key goes in: a required secret header
// makes the key required; an optional secret header still names where an
// optional key goes. "Authorization" means "Authorization: Bearer <key>".
func keyHeader(headers []header) (name string, required bool) {
	for _, h := range headers {
		if h.IsSecret && h.IsRequired && validHeaderName(h.Name) {
			return h.Name, true
		}
	}
	for _, h := range headers {
		if h.IsSecret && validHeaderName(h.Name) {
			return h.Name, false
		}
	}
	return "", false
}

var headerNamePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9!#$%&'*+.^_|~-]{1,100}$`) })

func validHeaderName(n string) bool { return headerNamePattern().MatchString(n) }

func rfc3339OrEmpty(s string) string {
	if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
		return ""
	}
	return s
}

func httpURLOrEmpty(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || len(raw) > 2000 {
		return ""
	}
	return u.String()
}

var featureNames = map[string]bool{"tools": true, "prompts": true, "resources": true}

func cleanFeatures(in []string) []string {
	var out []string
	for _, f := range in {
		f = strings.ToLower(strings.TrimSpace(f))
		if featureNames[f] && !slices.Contains(out, f) && len(out) < maxFeatures {
			out = append(out, f)
		}
	}
	return out
}

// clip cuts s to at most n runes.
// ServerID turns a registry name into the catalogue id: lowercase, "/" →
// "--", any other character outside [a-z0-9.-] → "-". The result is safe in
// a URL path segment ("com.notion/mcp" → "com.notion--mcp").
func ServerID(registryName string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(registryName) {
		switch {
		case r == '/':
			b.WriteString("--")
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	return b.String()
}
