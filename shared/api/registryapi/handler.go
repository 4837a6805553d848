// Package registryapi is the registry route group: the catalogue served as
// the official MCP Registry API (version v0.1), so that VS Code, GitHub
// Copilot and other registries read it the way they read
// registry.modelcontextprotocol.io. Public and read-only: answers are the
// official shapes (server.json plus the official "_meta"), with this
// product's own data on each entry under registry.CatalogMetaKey; every
// answer, errors included, may be read from any origin and cached briefly.
package registryapi

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"

	"aiwork/shared/config"
	"aiwork/shared/domain"
	"aiwork/shared/routes"
	"aiwork/shared/store"
)

// Version is the official API's version served (v0 is not).
const Version = "v0.1"

// ServersPath is the list's path; the base clients are given is
// routes.RegistryPrefix without its final "/" (<site>/api/registry).
const ServersPath = routes.RegistryPrefix + Version + "/servers"

// CacheControl is what every successful answer may be cached for, by a
// browser and by CloudFront (infra/stack.RegistryCacheSeconds).
const CacheControl = "public, max-age=60"

// Catalogue is what the group reads of the store (*store.Store has it).
type Catalogue interface {
	ListMCPAPIPage(ctx context.Context, q store.MCPAPIQuery) (store.MCPAPIPage, error)
	MCPServersServedAs(ctx context.Context, name string) ([]domain.MCPServer, error)
	GetMCPServer(ctx context.Context, id string) (domain.MCPServer, error)
}

// Service serves the registry API.
type Service struct {
	st Catalogue
	// publicURL is where browsers reach the site (PUBLIC_URL), for each
	// entry's link to its page in the API; "": the request's own address.
	publicURL string
}

// Options configure the group.
type Options struct {
	PublicURL string
}

// New builds the registry group on st.
func New(st Catalogue, o Options) *Service {
	return &Service{st: st, publicURL: strings.TrimRight(o.PublicURL, "/")}
}

// FromConfig builds the group from the mcp function's configuration: the
// one wiring the Lambda and the devserver share.
func FromConfig(st *store.Store, cfg config.MCP) *Service {
	return New(st, Options{PublicURL: cfg.PublicURL})
}

// Handler answers every path under routes.RegistryPrefix: the three GET
// routes of the official API, CORS preflights, and problem answers for
// the rest. Paths are read here rather than by a ServeMux pattern because
// a server name arrives either URL-encoded in one segment
// ("com.example%2Fweather") or, through a proxy that decodes it, as two.
func (s *Service) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		// Any site may read the registry (GitHub Copilot's "registry only"
		// mode reads it from the browser); no credentials are involved.
		// GitHub asks for the three headers on every answer, not only on
		// preflights.
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("Access-Control-Allow-Methods", allowedMethods)
		h.Set("Access-Control-Allow-Headers", defaultAllowHeaders)
		h.Set("Access-Control-Expose-Headers", "ETag")
		if r.Method == http.MethodOptions {
			preflight(w, r)
			return
		}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				slog.ErrorContext(r.Context(), "panic", "panic", p, "stack", string(debug.Stack()))
				writeProblem(w, problemf(http.StatusInternalServerError, "Internal error."))
			}
		}()
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", allowedMethods)
			writeProblem(w, problemf(http.StatusMethodNotAllowed, "Method "+r.Method+" is not allowed: this registry is read-only."))
			return
		}
		body, err := s.answer(r)
		if err != nil {
			var p *problem
			if !errors.As(err, &p) {
				slog.ErrorContext(r.Context(), "registry api", "path", r.URL.Path, "err", err)
				p = problemf(http.StatusInternalServerError, "Failed to read the registry.")
			}
			writeProblem(w, p)
			return
		}
		writeCacheable(w, r, body)
	})
}

// answer routes a GET to its endpoint and answers its body.
func (s *Service) answer(r *http.Request) (any, error) {
	rest, ok := strings.CutPrefix(r.URL.EscapedPath(), routes.RegistryPrefix)
	if !ok {
		return nil, endpointNotFound()
	}
	rest = strings.TrimSuffix(rest, "/")
	servers := Version + "/servers"
	switch {
	case rest == servers:
		return s.list(r)
	case strings.HasPrefix(rest, servers+"/"):
		p, err := parseServerPath(strings.TrimPrefix(rest, servers+"/"))
		if err != nil {
			return nil, err
		}
		return s.server(r, p)
	}
	return nil, endpointNotFound()
}

const allowedMethods = "GET, HEAD, OPTIONS"

// defaultAllowHeaders are allowed when a preflight names none readable.
const defaultAllowHeaders = "Accept, Content-Type, If-None-Match, Authorization"

// headerList is a preflight's Access-Control-Request-Headers: header names
// and commas only.
var headerList = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z0-9!#$%&'*+.^_|~-]+(\s*,\s*[A-Za-z0-9!#$%&'*+.^_|~-]+)*$`)
})

// preflight answers a CORS preflight: GET from anywhere, with whatever
// headers the client means to send (the API reads none but If-None-Match).
func preflight(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	allow := defaultAllowHeaders
	if asked := strings.TrimSpace(r.Header.Get("Access-Control-Request-Headers")); asked != "" && len(asked) <= 1000 && headerList().MatchString(asked) {
		allow = asked
	}
	h.Set("Access-Control-Allow-Methods", allowedMethods)
	h.Set("Access-Control-Allow-Headers", allow)
	h.Set("Access-Control-Max-Age", "86400")
	h.Set("Allow", allowedMethods)
	h.Add("Vary", "Access-Control-Request-Headers")
	w.WriteHeader(http.StatusNoContent)
}

// writeCacheable answers body as JSON with its ETag, or 304 Not Modified
// when the client holds that very answer (If-None-Match).
func writeCacheable(w http.ResponseWriter, r *http.Request, body any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(body); err != nil {
		slog.ErrorContext(r.Context(), "registry api: encode", "err", err)
		writeProblem(w, problemf(http.StatusInternalServerError, "Failed to read the registry."))
		return
	}
	sum := sha256.Sum256(buf.Bytes())
	etag := `"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", CacheControl)
	if matchesETag(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(buf.Bytes())
}

// matchesETag is If-None-Match's weak comparison of a list of tags (or
// "*") with etag.
func matchesETag(ifNoneMatch, etag string) bool {
	for _, tag := range strings.Split(ifNoneMatch, ",") {
		tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
		if tag == "*" || tag == etag {
			return true
		}
	}
	return false
}
