package mcp_test

import (
	"context"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/domain"
	"aiwork/shared/mcp"
	"aiwork/shared/testbed/mcptest"
)

// appServer is an in-process go-sdk server whose tools declare views (MCP
// Apps) only to a client that says it renders them, as the extension's
// servers do; it records the extension settings each tools/list came with.
type appServer struct {
	url string
	mu  sync.Mutex
	// seen are the io.modelcontextprotocol/ui settings of each tools/list
	// (nil: the client did not declare the extension).
	seen []any
}

func newAppServer(t *testing.T) *appServer {
	t.Helper()
	as := &appServer{}
	s := sdk.NewServer(&sdk.Implementation{Name: "apps", Version: "1"}, nil)
	schema := map[string]any{"type": "object"}
	for _, tool := range []*sdk.Tool{
		{Name: "show", InputSchema: schema, Meta: sdk.Meta{"ui": map[string]any{"resourceUri": "ui://show/view.html"}}},
		{Name: "legacy", InputSchema: schema, Meta: sdk.Meta{"ui/resourceUri": "ui://legacy/view.html"}},
		{Name: "both", InputSchema: schema, Meta: sdk.Meta{"ui/resourceUri": "ui://old.html",
			"ui": map[string]any{"resourceUri": "ui://new.html", "visibility": []any{"model", "app"}}}},
		{Name: "app-only", InputSchema: schema, Meta: sdk.Meta{"ui": map[string]any{"visibility": []any{"app", "app", "robot"}}}},
		{Name: "web", InputSchema: schema, Meta: sdk.Meta{"ui": map[string]any{"resourceUri": "https://example.com/view.html"}}},
		{Name: "plain", InputSchema: schema},
	} {
		s.AddTool(tool, okTool)
	}
	s.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			res, err := next(ctx, method, req)
			if lr, ok := req.(*sdk.ListToolsRequest); ok && err == nil {
				var ui any
				if caps := lr.ClientCapabilities(); caps != nil {
					ui = caps.Extensions[mcp.UIExtension]
				}
				as.mu.Lock()
				as.seen = append(as.seen, ui)
				as.mu.Unlock()
				if ui == nil { // a host that renders no views gets none
					for _, tool := range res.(*sdk.ListToolsResult).Tools {
						tool.Meta = nil
					}
				}
			}
			return res, err
		}
	})
	as.url = mcptest.Serve(t, sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)).URL
	return as
}

func (as *appServer) extensions() []any {
	as.mu.Lock()
	defer as.mu.Unlock()
	return append([]any(nil), as.seen...)
}

// TestToolViewsAreReadWhereverToolsAreListed: the connect's handshake and a
// chat session both declare the MCP Apps extension (so a server offers
// them its views), and read each tool's view and who may call it from its
// _meta: the nested resourceUri before the flat legacy key, only ui://
// URIs, only the visibilities the extension names.
func TestToolViewsAreReadWhereverToolsAreListed(t *testing.T) {
	t.Parallel()
	as := newAppServer(t)
	want := map[string]domain.MCPTool{
		"show":     {Name: "show", UIResourceURI: "ui://show/view.html"},
		"legacy":   {Name: "legacy", UIResourceURI: "ui://legacy/view.html"},
		"both":     {Name: "both", UIResourceURI: "ui://new.html", Visibility: []string{"model", "app"}},
		"app-only": {Name: "app-only", Visibility: []string{"app"}},
		"web":      {Name: "web"},
		"plain":    {Name: "plain"},
	}
	check := func(how string, tools []domain.MCPTool) {
		t.Helper()
		if len(tools) != len(want) {
			t.Fatalf("%s: %d tools, want %d", how, len(tools), len(want))
		}
		for _, got := range tools {
			w := want[got.Name]
			if got.UIResourceURI != w.UIResourceURI || !reflect.DeepEqual(got.Visibility, w.Visibility) {
				t.Errorf("%s: tool %s has view %q visible to %v, want %q visible to %v", how, got.Name,
					got.UIResourceURI, got.Visibility, w.UIResourceURI, w.Visibility)
			}
		}
	}
	res, err := mcp.Handshake(timeout(t, 15*time.Second), loopback.Client(), mcp.Target{Endpoint: as.url})
	if err != nil {
		t.Fatal(err)
	}
	check("handshake", res.Tools)

	pool := mcp.NewPool(loopback.Client(), time.Minute, 4)
	t.Cleanup(pool.Close)
	tools, err := pool.Tools(timeout(t, 15*time.Second), "alice/c1", mcp.Target{Endpoint: as.url}, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	check("chat session", tools)

	wantExt := map[string]any{"mimeTypes": []any{"text/html;profile=mcp-app"}}
	seen := as.extensions()
	if len(seen) != 2 {
		t.Fatalf("%d tools/list requests, want 2", len(seen))
	}
	for i, ext := range seen {
		if !reflect.DeepEqual(ext, wantExt) {
			t.Errorf("tools/list %d declared %s as %#v, want %#v", i, mcp.UIExtension, ext, wantExt)
		}
	}
}

// TestViewFrom: what resources/read answered becomes a view only when it
// is an MCP App's HTML, within the size limit, asking for exact http(s)
// origins at most; its settings come from the content's _meta.ui, else
// the listed resource's.
func TestViewFrom(t *testing.T) {
	t.Parallel()
	const uri = "ui://show/view.html"
	html := "<!doctype html><p>hi</p>"
	read := func(mime string, meta sdk.Meta) *sdk.ReadResourceResult {
		return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: mime, Text: html, Meta: meta}}}
	}
	csp := func(name string, domains ...any) sdk.Meta {
		return sdk.Meta{"ui": map[string]any{"csp": map[string]any{name: domains}}}
	}
	yes := true
	for _, tc := range []struct {
		name   string
		res    *sdk.ReadResourceResult
		listed func() sdk.Meta
		want   *mcp.View // nil: refused
		refuse string    // part of the refusal
	}{
		{name: "plain", res: read("text/html;profile=mcp-app", nil),
			want: &mcp.View{URI: uri, HTML: html, CSP: mcp.ViewCSP{ConnectDomains: []string{}, ResourceDomains: []string{}, FrameDomains: []string{}, BaseURIDomains: []string{}}}},
		{name: "spaced and cased parameters", res: read("text/html; Profile=MCP-App; charset=utf-8", nil), want: &mcp.View{}},
		{name: "blob", res: &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: mcp.UIMimeType, Blob: []byte(html)}}}, want: &mcp.View{}},
		{name: "settings", res: read(mcp.UIMimeType, sdk.Meta{"ui": map[string]any{
			"csp": map[string]any{"connectDomains": []any{"https://API.example.com/", "http://127.0.0.1:8080"},
				"resourceDomains": []any{"https://cdn.example.com"}, "frameDomains": []any{"https://[::1]:9000"},
				"baseUriDomains": []any{"https://base.example.com"}},
			"permissions":   map[string]any{"camera": map[string]any{}, "clipboardWrite": map[string]any{}, "teleport": map[string]any{}},
			"prefersBorder": true}}),
			want: &mcp.View{URI: uri, HTML: html, Permissions: []string{"camera", "clipboardWrite"}, PrefersBorder: &yes, CSP: mcp.ViewCSP{
				ConnectDomains: []string{"https://api.example.com", "http://127.0.0.1:8080"}, ResourceDomains: []string{"https://cdn.example.com"},
				FrameDomains: []string{"https://[::1]:9000"}, BaseURIDomains: []string{"https://base.example.com"}}}},
		{name: "listed settings", res: read(mcp.UIMimeType, nil), listed: func() sdk.Meta { return sdk.Meta{"ui": map[string]any{"prefersBorder": true}} },
			want: &mcp.View{PrefersBorder: &yes}},
		{name: "not an app", res: read("text/html", nil), refuse: "is text/html, not text/html;profile=mcp-app"},
		{name: "no type", res: read("", nil), refuse: "is no type"},
		{name: "too large", res: &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: mcp.UIMimeType,
			Text: strings.Repeat("x", mcp.MaxViewBytes+1)}}}, refuse: "is 2.0 MB; the limit is 2.0 MB"},
		{name: "wildcard", res: read(mcp.UIMimeType, csp("connectDomains", "https://*.example.com")), refuse: "wildcards are not allowed"},
		{name: "bare wildcard", res: read(mcp.UIMimeType, csp("resourceDomains", "*")), refuse: "wildcards are not allowed"},
		{name: "scheme wildcard", res: read(mcp.UIMimeType, csp("frameDomains", "https://*")), refuse: "wildcards are not allowed"},
		{name: "a scheme alone", res: read(mcp.UIMimeType, csp("resourceDomains", "https:")), refuse: "only http or https origins"},
		{name: "not http", res: read(mcp.UIMimeType, csp("connectDomains", "wss://example.com")), refuse: "only http or https origins"},
		{name: "a path", res: read(mcp.UIMimeType, csp("baseUriDomains", "https://example.com/app")), refuse: "no path"},
		{name: "a quote", res: read(mcp.UIMimeType, csp("connectDomains", "https://example.com';script-src")), refuse: "connectDomains"},
		{name: "not a list", res: read(mcp.UIMimeType, sdk.Meta{"ui": map[string]any{"csp": map[string]any{"connectDomains": "https://example.com"}}}),
			refuse: "not a list"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := mcp.ViewFrom(tc.res, uri, tc.listed)
			if tc.want == nil {
				refused, ok := err.(*mcp.ViewRefusedError)
				if !ok || !strings.Contains(refused.Detail, tc.refuse) {
					t.Fatalf("err = %v, want a refusal saying %q", err, tc.refuse)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.HTML != html {
				t.Errorf("html = %q", got.HTML)
			}
			if tc.want.URI != "" && !reflect.DeepEqual(got, *tc.want) {
				t.Errorf("view\n got %+v\nwant %+v", got, *tc.want)
			}
			if tc.want.PrefersBorder != nil && (got.PrefersBorder == nil || *got.PrefersBorder != *tc.want.PrefersBorder) {
				t.Errorf("prefers border = %v, want %v", got.PrefersBorder, *tc.want.PrefersBorder)
			}
		})
	}
}
