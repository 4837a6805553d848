package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/domain"
	"aiwork/shared/mcp"
)

const testKey = "sk-test-0123456789abcdef"

// sdkServer is an in-process go-sdk server with n tools, served over
// streamable HTTP behind wrap (which may replace or inspect requests).
func sdkServer(t *testing.T, n int, opts *sdk.ServerOptions, wrap func(http.Handler) http.Handler) string {
	t.Helper()
	s := sdk.NewServer(&sdk.Implementation{Name: "test-server", Title: "Test", Version: "0.1.0"}, opts)
	for i := range n {
		s.AddTool(&sdk.Tool{
			Name:        fmt.Sprintf("tool-%03d", i),
			Description: fmt.Sprintf("Tool number %d.", i),
			InputSchema: map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"type": "integer"}}},
		}, okTool)
	}
	var h http.Handler = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// sseServer is an in-process go-sdk server with one tool over the older
// SSE transport only, at one URL: a POST there without a session answers
// 400 "sessionid must be provided", as Playwright MCP's /sse does.
func sseServer(t *testing.T) string {
	t.Helper()
	s := sdk.NewServer(&sdk.Implementation{Name: "test-server", Title: "Test", Version: "0.1.0"}, nil)
	s.AddTool(&sdk.Tool{Name: "tool-000", Description: "Tool number 0.", InputSchema: map[string]any{"type": "object"}}, okTool)
	srv := httptest.NewServer(sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return s }, nil))
	t.Cleanup(srv.Close)
	return srv.URL + "/sse"
}

func okTool(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	return &sdk.CallToolResult{}, nil
}

// answer replaces the MCP server with a fixed HTTP answer.
func answer(status int, header map[string]string, body string) func(http.Handler) http.Handler {
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

// requireHeader answers 401 unless the request carries header: value.
func requireHeader(header, value string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get(header) != value {
				http.Error(w, "unauthorized", http.StatusUnauthorized)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

func TestHandshakeOutcomes(t *testing.T) {
	t.Parallel()
	const oauthChallenge = `Bearer resource_metadata="https://auth.example.com/.well-known/oauth-protected-resource"`
	html := map[string]string{"Content-Type": "text/html; charset=utf-8"}
	tests := []struct {
		name      string
		endpoint  func(t *testing.T) string
		target    mcp.Target
		wantKind  mcp.Kind // "" means success
		wantTools int
	}{
		{"401 with OAuth challenge", func(t *testing.T) string {
			return sdkServer(t, 1, nil, answer(401, map[string]string{"WWW-Authenticate": oauthChallenge}, ""))
		}, mcp.Target{}, mcp.KindOAuth, 0},
		{"401 with OAuth challenge and a key", func(t *testing.T) string {
			return sdkServer(t, 1, nil, answer(401, map[string]string{"WWW-Authenticate": oauthChallenge}, ""))
		}, mcp.Target{APIKey: testKey}, mcp.KindOAuth, 0},
		{"401 with a plain challenge and no key", func(t *testing.T) string {
			return sdkServer(t, 1, nil, answer(401, map[string]string{"WWW-Authenticate": "Bearer"}, ""))
		}, mcp.Target{}, mcp.KindOAuth, 0},
		{"401 without challenge, no key", func(t *testing.T) string {
			return sdkServer(t, 1, nil, answer(401, nil, "no"))
		}, mcp.Target{}, mcp.KindAuthRequired, 0},
		{"403 without challenge, no key", func(t *testing.T) string {
			return sdkServer(t, 1, nil, answer(403, nil, "no"))
		}, mcp.Target{}, mcp.KindForbidden, 0},
		{"403 echoing the key it refused", func(t *testing.T) string {
			return sdkServer(t, 1, nil, answer(403, map[string]string{"Content-Type": "text/plain"}, "key "+testKey+" is not allowed"))
		}, mcp.Target{APIKey: testKey}, mcp.KindKeyRefused, 0},
		{"an SSE server answering the initialize POST with 400", func(t *testing.T) string {
			return sseServer(t)
		}, mcp.Target{}, "", 1},
		{"400 everywhere", func(t *testing.T) string {
			return sdkServer(t, 1, nil, answer(400, nil, "bad request"))
		}, mcp.Target{}, mcp.KindNotMCP, 0},
		{"401 when a key was sent", func(t *testing.T) string {
			return sdkServer(t, 1, nil, requireHeader("Authorization", "Bearer other"))
		}, mcp.Target{APIKey: testKey}, mcp.KindKeyRefused, 0},
		{"401 with a plain challenge when a key was sent", func(t *testing.T) string {
			return sdkServer(t, 1, nil, answer(401, map[string]string{"WWW-Authenticate": `Bearer error="invalid_token"`}, ""))
		}, mcp.Target{APIKey: testKey}, mcp.KindKeyRefused, 0},
		{"bearer key arrives", func(t *testing.T) string {
			return sdkServer(t, 2, nil, requireHeader("Authorization", "Bearer "+testKey))
		}, mcp.Target{APIKey: testKey}, "", 2},
		{"bearer key arrives with header named authorization", func(t *testing.T) string {
			return sdkServer(t, 2, nil, requireHeader("Authorization", "Bearer "+testKey))
		}, mcp.Target{APIKey: testKey + "\n", KeyHeader: "authorization"}, "", 2},
		{"custom key header arrives", func(t *testing.T) string {
			return sdkServer(t, 2, nil, func(next http.Handler) http.Handler {
				return requireHeader("X-Api-Key", testKey)(requireHeader("Authorization", "")(next))
			})
		}, mcp.Target{APIKey: testKey, KeyHeader: "X-API-Key"}, "", 2},
		{"key with a control character", func(t *testing.T) string { return sdkServer(t, 1, nil, nil) },
			mcp.Target{APIKey: "abc\x00def"}, mcp.KindKeyRefused, 0},
		{"no tools", func(t *testing.T) string {
			return sdkServer(t, 0, &sdk.ServerOptions{Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{}}}, nil)
		}, mcp.Target{}, "", 0},
		{"tools over several pages", func(t *testing.T) string {
			return sdkServer(t, 23, &sdk.ServerOptions{PageSize: 5}, nil)
		}, mcp.Target{}, "", 23},
		{"tools capped at 500", func(t *testing.T) string {
			return sdkServer(t, 520, &sdk.ServerOptions{PageSize: 200}, nil)
		}, mcp.Target{}, "", 500},
		{"HTML page", func(t *testing.T) string {
			return sdkServer(t, 1, nil, answer(200, html, "<!doctype html><title>Welcome</title>"))
		}, mcp.Target{}, mcp.KindNotMCP, 0},
		{"JSON that is not JSON-RPC", func(t *testing.T) string {
			return sdkServer(t, 1, nil, answer(200, map[string]string{"Content-Type": "application/json"}, `{"hello":"world"}`))
		}, mcp.Target{}, mcp.KindNotMCP, 0},
		{"404 everywhere", func(t *testing.T) string {
			return sdkServer(t, 1, nil, answer(404, nil, "not found"))
		}, mcp.Target{}, mcp.KindNotMCP, 0},
		{"server error", func(t *testing.T) string {
			return sdkServer(t, 1, nil, answer(500, nil, "boom"))
		}, mcp.Target{}, mcp.KindUnreachable, 0},
		{"closed port", deadPort, mcp.Target{}, mcp.KindUnreachable, 0},
		{"unknown host", func(*testing.T) string { return "http://no-such-host.invalid/mcp" }, mcp.Target{}, mcp.KindUnreachable, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			target := tc.target
			target.Endpoint = tc.endpoint(t)
			res, err := mcp.Handshake(timeout(t, 15*time.Second), loopback.Client(), target)
			if tc.wantKind != "" {
				e := wantKind(t, err, tc.wantKind)
				t.Logf("%s: %s", e.Kind, e.Detail)
				if strings.Contains(e.Detail, testKey) || strings.Contains(fmt.Sprint(errors.Unwrap(e)), testKey) {
					t.Errorf("error carries the key: %q", e.Detail)
				}
				return
			}
			if err != nil {
				t.Fatalf("handshake: %v", err)
			}
			if got := len(res.Tools); got != tc.wantTools {
				t.Errorf("tools = %d, want %d", got, tc.wantTools)
			}
			if res.ServerInfo != (domain.MCPImplementation{Name: "test-server", Title: "Test", Version: "0.1.0"}) {
				t.Errorf("server info = %+v", res.ServerInfo)
			}
			if !slices.Contains(res.Features, "tools") {
				t.Errorf("features = %v, want tools", res.Features)
			}
			names := map[string]bool{}
			for _, tool := range res.Tools {
				names[tool.Name] = true
			}
			if len(names) != tc.wantTools {
				t.Errorf("distinct tool names = %d, want %d", len(names), tc.wantTools)
			}
		})
	}
}

// TestHandshakeSlowInitialize: a server that never answers initialize gives
// KindTimeout once the caller's deadline passes, not later.
func TestHandshakeSlowInitialize(t *testing.T) {
	t.Parallel()
	endpoint := sdkServer(t, 1, nil, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost {
				// Read the body so the server notices the client leaving, then
				// hold the request until it does.
				io.Copy(io.Discard, r.Body)
				<-r.Context().Done()
				return
			}
			next.ServeHTTP(w, r)
		})
	})
	start := time.Now()
	_, err := mcp.Handshake(timeout(t, time.Second), loopback.Client(), mcp.Target{Endpoint: endpoint})
	e := wantKind(t, err, mcp.KindTimeout)
	if elapsed := time.Since(start); elapsed > 3*time.Second {
		t.Errorf("took %v, want about the 1 s bound", elapsed)
	}
	if want := "The server did not answer within 1 second."; e.Detail != want {
		t.Errorf("detail = %q, want %q", e.Detail, want)
	}
}

// TestHandshakeCancelled: a caller that goes away gets context.Canceled,
// not an *Error meant for a user.
func TestHandshakeCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	endpoint := sdkServer(t, 1, nil, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			cancel()
			<-r.Context().Done()
		})
	})
	_, err := mcp.Handshake(ctx, loopback.Client(), mcp.Target{Endpoint: endpoint})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// TestHandshakeToolHints: descriptions are trimmed, hints mapped (destructive
// only when declared), and the hash ignores order but not schemas.
func TestHandshakeToolHints(t *testing.T) {
	t.Parallel()
	yes, no := true, false
	schema := map[string]any{"type": "object"}
	tools := []*sdk.Tool{
		{Name: "read", Description: "Reads.", InputSchema: schema, Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		{Name: "wipe", Description: "Wipes.", InputSchema: schema, Annotations: &sdk.ToolAnnotations{DestructiveHint: &yes, Title: "Wipe all"}},
		{Name: "add", Description: "Adds.", InputSchema: schema, Annotations: &sdk.ToolAnnotations{DestructiveHint: &no}},
		{Name: "plain", Description: strings.Repeat("é", 3000), InputSchema: schema},
	}
	serve := func(tools []*sdk.Tool) string {
		s := sdk.NewServer(&sdk.Implementation{Name: "hints", Version: "1"}, nil)
		for _, tool := range tools {
			s.AddTool(tool, okTool)
		}
		srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	hc := loopback.Client()
	res, err := mcp.Handshake(timeout(t, 15*time.Second), hc, mcp.Target{Endpoint: serve(tools)})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]domain.MCPTool{}
	for _, tool := range res.Tools {
		got[tool.Name] = tool
	}
	// A hint the server leaves out is recorded as absent: the chat reads
	// that as "may be destructive" (MayDestroy) for a tool not read-only.
	want := map[string]domain.MCPTool{
		"read":  {Name: "read", Description: "Reads.", ReadOnly: true, DestructiveHintAbsent: true},
		"wipe":  {Name: "wipe", Title: "Wipe all", Description: "Wipes.", Destructive: true},
		"add":   {Name: "add", Description: "Adds."},
		"plain": {Name: "plain", Description: strings.Repeat("é", 999) + "…", DestructiveHintAbsent: true},
	}
	wantSchema, _ := json.Marshal(schema)
	for name, w := range want {
		g := got[name]
		if string(g.InputSchema) != string(wantSchema) {
			t.Errorf("tool %s schema = %s, want %s", name, g.InputSchema, wantSchema)
		}
		g.InputSchema = nil
		if !reflect.DeepEqual(g, w) {
			t.Errorf("tool %s = %+v, want %+v", name, g, w)
		}
	}
	for name, mayDestroy := range map[string]bool{"read": false, "wipe": true, "add": false, "plain": true} {
		if got[name].MayDestroy() != mayDestroy {
			t.Errorf("tool %s MayDestroy = %v, want %v", name, !mayDestroy, mayDestroy)
		}
	}
	if n := utf8.RuneCountInString(got["plain"].Description); n != 1000 {
		t.Errorf("trimmed description has %d runes, want 1000", n)
	}

	reversed := slices.Clone(tools)
	slices.Reverse(reversed)
	again, err := mcp.Handshake(timeout(t, 15*time.Second), hc, mcp.Target{Endpoint: serve(reversed)})
	if err != nil {
		t.Fatal(err)
	}
	if again.ToolsHash != res.ToolsHash {
		t.Error("hash depends on tool order")
	}
	changed := slices.Clone(tools)
	changed[2] = &sdk.Tool{Name: "add", Description: "Adds.", InputSchema: map[string]any{"type": "object", "required": []string{"a"}}}
	other, err := mcp.Handshake(timeout(t, 15*time.Second), hc, mcp.Target{Endpoint: serve(changed)})
	if err != nil {
		t.Fatal(err)
	}
	if other.ToolsHash == res.ToolsHash {
		t.Error("hash ignores an input schema change")
	}
}

// TestHandshakeKeyStaysHome: the key goes only to the target's origin, not
// to a host the target redirects to.
func TestHandshakeKeyStaysHome(t *testing.T) {
	t.Parallel()
	var leaked atomic.Bool
	var mu sync.Mutex
	var seen []string
	elsewhere := sdkServer(t, 1, nil, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			seen = append(seen, r.Method)
			mu.Unlock()
			if r.Header.Get("Authorization") != "" || strings.Contains(fmt.Sprint(r.Header), testKey) {
				leaked.Store(true)
			}
			next.ServeHTTP(w, r)
		})
	})
	home := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(home.Close)
	_, _ = mcp.Handshake(timeout(t, 15*time.Second), loopback.Client(), mcp.Target{Endpoint: home.URL + "/mcp", APIKey: testKey})
	mu.Lock()
	defer mu.Unlock()
	if len(seen) == 0 {
		t.Fatal("the redirect was not followed; the test proves nothing")
	}
	if leaked.Load() {
		t.Error("the key reached another origin")
	}
}

// TestHandshakeRefusedAddress: without loopback allowed, a local endpoint is
// refused by the dialer with the user-facing wording.
func TestHandshakeRefusedAddress(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	t.Cleanup(srv.Close)
	localhost := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
	for _, endpoint := range []string{srv.URL, localhost} {
		_, err := mcp.Handshake(timeout(t, 15*time.Second), mcp.Policy{}.Client(), mcp.Target{Endpoint: endpoint})
		e := wantKind(t, err, mcp.KindRefused)
		if !errors.Is(err, mcp.ErrRefusedAddress) || !strings.Contains(e.Detail, "private or local address") {
			t.Errorf("%s: err = %v, want the refused-address wording", endpoint, err)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the refused server got %d requests", n)
	}
}

// A 403 that is not about credentials (Playwright MCP's host check) reads
// in the server's own words, not "requires authentication".
func TestHandshakeForbiddenGivesTheServersReason(t *testing.T) {
	t.Parallel()
	endpoint := sdkServer(t, 1, nil, answer(403, map[string]string{"Content-Type": "text/plain"}, "Access is only allowed at localhost:18101\n"))
	_, err := mcp.Handshake(timeout(t, 15*time.Second), loopback.Client(), mcp.Target{Endpoint: endpoint})
	e := wantKind(t, err, mcp.KindForbidden)
	if want := "The server refused the connection: Access is only allowed at localhost:18101"; e.Detail != want {
		t.Errorf("detail = %q, want %q", e.Detail, want)
	}
}
