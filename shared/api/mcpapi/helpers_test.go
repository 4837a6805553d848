package mcpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/api/apitest"
	"aiwork/shared/api/mcpapi"
	"aiwork/shared/domain"
	"aiwork/shared/local/localmcp/localmcptest"
	"aiwork/shared/mcp"
	"aiwork/shared/store/storetest"
	"aiwork/shared/testbed/mcptest"
)

// Paths of the registry API.
const (
	serversPath     = "/api/v1/mcp-servers/"
	connectionsPath = "/api/v1/mcp-connections/"
)

// testSealer seals keys in every stack; tests open what the store holds with it.
var testSealer = func() *mcp.Sealer {
	s, err := mcp.NewSealer([]byte(strings.Repeat("k", 32)))
	if err != nil {
		panic(err)
	}
	return s
}()

// local is the configuration of a devserver: loopback allowed, so the
// reference server and in-process servers can be reached.
func local() mcpapi.Options {
	return mcpapi.Options{Policy: mcp.Policy{AllowLoopback: true}, Sealer: testSealer}
}

// referenceServer answers the MCP endpoint of the real reference server
// running in mode, shared by the binary's tests.
func referenceServer(t *testing.T, mode string) string { return localmcptest.Reference(t, mode) }

// sdkServer is an in-process go-sdk MCP server with n tools over streamable
// HTTP, behind wrap (nil: none), closed when the test ends.
func sdkServer(t *testing.T, n int, wrap func(http.Handler) http.Handler) string {
	t.Helper()
	h := sdkHandler(t, n)
	if wrap != nil {
		h = wrap(h)
	}
	return mcptest.Serve(t, h).URL + "/mcp"
}

// sdkHandler is the streamable-HTTP handler of a go-sdk MCP server with n tools.
func sdkHandler(t *testing.T, n int) http.Handler {
	t.Helper()
	s := sdk.NewServer(&sdk.Implementation{Name: "test-server", Title: "Test", Version: "0.1.0"}, nil)
	for i := range n {
		s.AddTool(&sdk.Tool{
			Name:        fmt.Sprintf("tool-%02d", i),
			Description: fmt.Sprintf("Tool number %d.", i),
			InputSchema: map[string]any{"type": "object"},
			Annotations: &sdk.ToolAnnotations{ReadOnlyHint: i%2 == 0},
		}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{}, nil
		})
	}
	return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)
}

// bearerKey is go-sdk's bearer middleware accepting only key; every token
// that arrived is recorded. With metadata set, a refusal carries an OAuth
// challenge (WWW-Authenticate with resource_metadata), as OAuth servers answer.
type bearerKey struct {
	key, metadata string

	mu      sync.Mutex
	arrived []string
}

func (b *bearerKey) wrap(next http.Handler) http.Handler {
	verify := func(_ context.Context, token string, _ *http.Request) (*sdkauth.TokenInfo, error) {
		b.mu.Lock()
		b.arrived = append(b.arrived, token)
		b.mu.Unlock()
		if b.key == "" || token != b.key {
			return nil, sdkauth.ErrInvalidToken
		}
		return &sdkauth.TokenInfo{Expiration: time.Now().Add(time.Hour)}, nil
	}
	return sdkauth.RequireBearerToken(verify, &sdkauth.RequireBearerTokenOptions{ResourceMetadataURL: b.metadata})(next)
}

func (b *bearerKey) tokens() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.arrived)
}

// requestCounter counts the requests that reached a server, and among
// them the handshakes begun (a POST of initialize, or of server/discover that
// newer clients try first). Sessions are closed in the background, so a
// DELETE may arrive after the connect answered: only handshakes say whether
// a connect reached the server.
type requestCounter struct {
	mu                sync.Mutex
	total, handshakes int
	// methods are the JSON-RPC methods of the requests, in order ("" for
	// a request without one: a GET stream, a DELETE, a response).
	methods []string
}

func (c *requestCounter) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct{ Method string }
		_ = json.Unmarshal(body, &msg)
		c.mu.Lock()
		c.total++
		c.methods = append(c.methods, msg.Method)
		if r.Method == http.MethodPost && (msg.Method == "initialize" || msg.Method == "server/discover") {
			c.handshakes++
		}
		c.mu.Unlock()
		next.ServeHTTP(w, r)
	})
}

// methodsSince answers the JSON-RPC methods of the requests after the
// first n.
func (c *requestCounter) methodsSince(n int) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.methods[n:])
}

func (c *requestCounter) counts() (total, handshakes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.total, c.handshakes
}

// fixed replaces the MCP server with one fixed HTTP answer.
func fixed(status int, header map[string]string, body string) func(http.Handler) http.Handler {
	return func(http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			for k, v := range header {
				w.Header().Set(k, v)
			}
			w.WriteHeader(status)
			io.WriteString(w, body)
		})
	}
}

// closedPort answers a loopback MCP URL nobody listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return "http://127.0.0.1:" + strconv.Itoa(port) + "/mcp"
}

// addServer lists srv in the catalogue (active unless the test says
// otherwise with SetMCPServerActive) and answers its id.
func (s *stack) addServer(srv domain.MCPServer) string {
	s.t.Helper()
	if srv.Name == "" {
		srv.Name = "test/" + srv.ID
	}
	if srv.Title == "" {
		srv.Title = "Test server " + srv.ID
	}
	if srv.ModelType == "" {
		srv.ModelType = "reference"
	}
	srv.IsActive = true
	storetest.Must(s.t, s.st.UpsertMCPServer(context.Background(), srv), "upsert "+srv.ID)
	return srv.ID
}

// user makes an account and answers its id and token.
func (s *stack) user(name string) (uid, token string) {
	s.t.Helper()
	return apitest.User(s.t, s.st, s.tokens, name)
}

// connect posts a connect request with the JSON of in.
func (s *stack) connect(token string, in map[string]any) *httptest.ResponseRecorder {
	s.t.Helper()
	body, err := json.Marshal(in)
	if err != nil {
		s.t.Fatal(err)
	}
	return apitest.Do(s.h, http.MethodPost, connectionsPath, token, string(body), nil)
}

// connected connects the caller to the registry's serverID and answers the
// connection; anything but a 200 fails the test.
func (s *stack) connected(token, serverID string) connectionView {
	s.t.Helper()
	return apitest.Decode[connectionView](s.t, s.connect(token, map[string]any{"server_id": serverID}), http.StatusOK)
}

func (s *stack) get(path, token string) *httptest.ResponseRecorder {
	return apitest.Do(s.h, http.MethodGet, path, token, "", nil)
}

// connectionView is the contract's answer to a connect.
type connectionView struct {
	ConnectionID    string `json:"connection_id"`
	ServerID        string `json:"server_id"`
	ServerName      string `json:"server_name"`
	EndpointURL     string `json:"endpoint_url"`
	ModelType       string `json:"model_type"`
	Transport       string `json:"transport"`
	ProtocolVersion string `json:"protocol_version"`
	ServerInfo      struct {
		Name, Title, Version string
	} `json:"server_info"`
	Tools       []domain.MCPTool `json:"tools"`
	ToolsCount  int              `json:"tools_count"`
	ConnectedAt string           `json:"connected_at"`
	HasAPIKey   bool             `json:"has_api_key"`
	APIKeyLast4 string           `json:"api_key_last4"`
	// EndpointHost: the host reached, when not the entry's default's.
	EndpointHost string `json:"endpoint_host"`
}

// connectionRow is one row of GET /api/v1/mcp-connections/.
type connectionRow struct {
	ConnectionID string `json:"connection_id"`
	ServerID     string `json:"server_id"`
	ToolsCount   int    `json:"tools_count"`
	HasAPIKey    bool   `json:"has_api_key"`
	APIKeyLast4  string `json:"api_key_last4"`
	ConnectedAt  string `json:"connected_at"`
	EndpointHost string `json:"endpoint_host"`
}

// Keys every answer of the contract carries.
var (
	serverKeys = []string{"id", "name", "registry_name", "description", "endpoint_url", "model_type",
		"api_key_required", "oauth_required", "is_active", "supported_features", "transport",
		"website_url", "repository", "health", "tools_changed_at"}
	healthKeys     = []string{"status", "checked_at", "latency_ms", "protocol_version", "tools_count", "detail"}
	connectionKeys = []string{"connection_id", "server_id", "server_name", "endpoint_url", "model_type", "transport",
		"protocol_version", "server_info", "tools", "tools_count", "connected_at", "has_api_key", "api_key_last4", "endpoint_host"}
	connectionRowKeys = []string{"connection_id", "server_id", "server_name", "endpoint_url", "model_type", "transport",
		"protocol_version", "tools_count", "has_api_key", "api_key_last4", "connected_at", "endpoint_host"}
)

// wantKeys fails unless m has every key.
func wantKeys(t *testing.T, what string, m map[string]any, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			t.Errorf("%s lacks %q: %v", what, k, m)
		}
	}
}

// wantList fails unless v is a JSON array (never null) and answers it.
func wantList(t *testing.T, what string, v any) []any {
	t.Helper()
	l, ok := v.([]any)
	if !ok {
		t.Errorf("%s = %#v, want a JSON array", what, v)
	}
	return l
}

// wantRecent fails unless s is an RFC 3339 time of the last minute.
func wantRecent(t *testing.T, what, s string) {
	t.Helper()
	at, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Errorf("%s = %q: %v", what, s, err)
		return
	}
	if d := time.Since(at); d < 0 || d > time.Minute {
		t.Errorf("%s = %s, %v ago; want just now", what, s, d)
	}
}

func hasTool(tools []domain.MCPTool, name string) bool {
	return slices.ContainsFunc(tools, func(tool domain.MCPTool) bool { return tool.Name == name })
}
