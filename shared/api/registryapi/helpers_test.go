package registryapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	apiv0 "github.com/modelcontextprotocol/registry/pkg/api/v0"

	"aiwork/shared/api/apitest"
	"aiwork/shared/api/registryapi"
	"aiwork/shared/domain"
	"aiwork/shared/mcp/registry"
	"aiwork/shared/routes"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

var ctx = context.Background()

// site is the deployment's PUBLIC_URL in these tests.
const site = "https://registry.example.org"

type stack struct {
	t  *testing.T
	h  http.Handler
	st *store.Store
}

// newStack mounts the mcp function the way its Lambda and the devserver
// do (routes.Mount, routes.Function), the registry group real and the mcp
// group a stand-in, on a fresh table.
func newStack(t *testing.T) *stack {
	t.Helper()
	st := storetest.New(t)
	return &stack{t: t, h: mount(t, st), st: st}
}

func mount(t *testing.T, st *store.Store) http.Handler {
	t.Helper()
	fn, err := routes.Function("mcp", map[string]http.Handler{
		"mcp":      http.NotFoundHandler(),
		"registry": registryapi.New(st, registryapi.Options{PublicURL: site}).Handler(),
	})
	if err != nil {
		t.Fatal(err)
	}
	h, err := routes.Mount(map[string]http.Handler{"mcp": fn}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// get sends GET path (under routes.RegistryPrefix when it does not start
// with "/") with headers.
func (s *stack) get(path string, headers ...string) *httptest.ResponseRecorder {
	return s.do("GET", path, headers...)
}

func (s *stack) do(method, path string, headers ...string) *httptest.ResponseRecorder {
	if !strings.HasPrefix(path, "/") {
		path = routes.RegistryPrefix + path
	}
	hs := map[string]string{}
	for i := 0; i+1 < len(headers); i += 2 {
		hs[headers[i]] = headers[i+1]
	}
	return apitest.Do(s.h, method, path, "", "", hs)
}

// put stores servers as a sync or the seed does.
func (s *stack) put(servers ...domain.MCPServer) {
	s.t.Helper()
	for _, srv := range servers {
		storetest.Must(s.t, s.st.UpsertMCPServer(ctx, srv), "upsert "+srv.ID)
	}
}

// remoteServer is a registry entry as a sync stores it.
func remoteServer(name string) domain.MCPServer {
	return domain.MCPServer{
		ID: registry.ServerID(name), Name: name, Title: "Server " + name, Description: "Does things for " + name,
		EndpointURL: "https://" + strings.ReplaceAll(registry.ServerID(name), "--", ".") + ".example.com/mcp",
		Transport:   domain.TransportStreamableHTTP, ModelType: "code", IsActive: true, SupportedFeatures: []string{"tools"},
		WebsiteURL: "https://example.com/" + registry.ServerID(name), Repository: "https://github.com/example/" + registry.ServerID(name),
		Version: "1.2.0", Source: "registry", UpdatedAt: "2026-01-02T03:04:05Z",
	}
}

// decodeList reads a list answer with the official registry's own types,
// validates every server.json against the official schema, and answers
// the decoded list and each entry's raw "_meta".
func decodeList(t *testing.T, w *httptest.ResponseRecorder) (apiv0.ServerListResponse, []map[string]json.RawMessage) {
	t.Helper()
	list := apitest.Decode[apiv0.ServerListResponse](t, w, http.StatusOK)
	var raw struct {
		Servers []struct {
			Server json.RawMessage            `json:"server"`
			Meta   map[string]json.RawMessage `json:"_meta"`
		} `json:"servers"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	metas := make([]map[string]json.RawMessage, len(raw.Servers))
	for i, s := range raw.Servers {
		validateServer(t, s.Server)
		metas[i] = s.Meta
	}
	if list.Metadata.Count != len(list.Servers) {
		t.Errorf("metadata.count %d for %d servers", list.Metadata.Count, len(list.Servers))
	}
	return list, metas
}

// decodeServer reads one server answer the same way.
func decodeServer(t *testing.T, w *httptest.ResponseRecorder) (apiv0.ServerResponse, map[string]json.RawMessage) {
	t.Helper()
	resp := apitest.Decode[apiv0.ServerResponse](t, w, http.StatusOK)
	var raw struct {
		Server json.RawMessage            `json:"server"`
		Meta   map[string]json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	validateServer(t, raw.Server)
	return resp, raw.Meta
}

// catalogMeta reads this product's "_meta" of an entry.
func catalogMeta(t *testing.T, meta map[string]json.RawMessage) (registry.CatalogMeta, int) {
	t.Helper()
	raw, ok := meta[registry.CatalogMetaKey]
	if !ok {
		t.Fatalf("no %s in _meta %v", registry.CatalogMetaKey, meta)
	}
	var m registry.CatalogMeta
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m, len(raw)
}

var (
	schemaOnce sync.Once
	schema     *jsonschema.Resolved
	schemaErr  error
)

// officialSchema is the registry module's server.json schema (draft), as
// the module cache holds it at the version go.mod pins.
func officialSchema(t *testing.T) *jsonschema.Resolved {
	t.Helper()
	schemaOnce.Do(func() {
		out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/modelcontextprotocol/registry").Output()
		if err != nil {
			schemaErr = err
			return
		}
		raw, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "docs/reference/server-json/draft/server.schema.json"))
		if err != nil {
			schemaErr = err
			return
		}
		var s jsonschema.Schema
		if schemaErr = json.Unmarshal(raw, &s); schemaErr != nil {
			return
		}
		schema, schemaErr = s.Resolve(nil)
	})
	if schemaErr != nil {
		t.Fatalf("official server.json schema: %v", schemaErr)
	}
	return schema
}

func validateServer(t *testing.T, server json.RawMessage) {
	t.Helper()
	var v any
	if err := json.Unmarshal(server, &v); err != nil {
		t.Fatal(err)
	}
	if err := officialSchema(t).Validate(v); err != nil {
		t.Errorf("server.json %s is not valid against the official schema: %v", server, err)
	}
}

// problem is an error answer in the official shape.
type problem struct {
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail"`
	Error  string `json:"error"`
}

// wantProblem checks an error answer: status, the official shape with a
// detail containing part, readable from any origin, never cached.
func wantProblem(t *testing.T, w *httptest.ResponseRecorder, status int, part string) problem {
	t.Helper()
	p := apitest.Decode[problem](t, w, status)
	if ct := w.Header().Get("Content-Type"); ct != "application/problem+json" {
		t.Errorf("error Content-Type %q, want application/problem+json", ct)
	}
	if p.Status != status || p.Title != http.StatusText(status) || p.Detail == "" || p.Error != p.Detail {
		t.Errorf("error body %s, want title %q, status %d, a detail and the same error", w.Body.String(), http.StatusText(status), status)
	}
	if !strings.Contains(p.Detail, part) {
		t.Errorf("error detail %q, want it to contain %q", p.Detail, part)
	}
	wantCORS(t, w)
	return p
}

// The schema check is not vacuous: it refuses what server.json forbids.
func TestOfficialSchemaRefusesAnInvalidServer(t *testing.T) {
	t.Parallel()
	s := officialSchema(t)
	for _, bad := range []string{
		`{"name": "com.example/x", "version": "1.0.0", "description": "` + strings.Repeat("d", 101) + `"}`,
		`{"name": "com.example/x/y", "version": "1.0.0", "description": "d"}`,
		`{"name": "com.example/x", "version": "1.0.0"}`,
		`{"name": "com.example/x", "version": "1.0.0", "description": "d", "remotes": [{"type": "sse", "url": "not a url"}]}`,
	} {
		var v any
		if err := json.Unmarshal([]byte(bad), &v); err != nil {
			t.Fatal(err)
		}
		if s.Validate(v) == nil {
			t.Errorf("the official schema accepted %s", bad)
		}
	}
}

// wantCORS checks the CORS headers GitHub Copilot asks of every answer:
// any origin, GET and OPTIONS, Authorization and Content-Type.
func wantCORS(t *testing.T, w *httptest.ResponseRecorder) {
	t.Helper()
	h := w.Header()
	if h.Get("Access-Control-Allow-Origin") != "*" || !strings.Contains(h.Get("Access-Control-Allow-Methods"), "GET") ||
		!strings.Contains(h.Get("Access-Control-Allow-Methods"), "OPTIONS") || !strings.Contains(h.Get("Access-Control-Allow-Headers"), "Authorization") ||
		!strings.Contains(h.Get("Access-Control-Allow-Headers"), "Content-Type") {
		t.Errorf("answer %d: CORS headers %v, want any origin, GET and OPTIONS, Authorization and Content-Type", w.Code, h)
	}
}
