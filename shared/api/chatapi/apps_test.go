package chatapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/api/apitest"
	"aiwork/shared/api/chatapi"
	"aiwork/shared/chat/chattest"
	"aiwork/shared/domain"
	"aiwork/shared/llm"
	"aiwork/shared/mcp"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
	"aiwork/shared/testbed/mcptest"
)

// MCP Apps in chat: a tool's view named in its tool_call frame, the data
// its tool_result frame carries for the view, and the two routes a view
// uses (its HTML, its own tool calls), against a real in-process go-sdk
// server.

const (
	appViewURI  = "ui://get-time/view.html"
	appViewHTML = "<!doctype html><html><body><p id=time></p><script>/* the view */</script></body></html>"
)

// appsServer is an in-process go-sdk server whose tools declare views, as
// the extension's servers do; it records the tools called.
type appsServer struct {
	srv   *httptest.Server
	mu    sync.Mutex
	calls []string
}

func (as *appsServer) url() string { return as.srv.URL }

func (as *appsServer) called() []string {
	as.mu.Lock()
	defer as.mu.Unlock()
	return slices.Clone(as.calls)
}

func newAppsServer(t *testing.T) *appsServer {
	t.Helper()
	as := &appsServer{}
	s := sdk.NewServer(&sdk.Implementation{Name: "apps-test", Version: "0.1.0"}, nil)
	view := func(uri string, visibility ...any) sdk.Meta {
		ui := map[string]any{}
		if uri != "" {
			ui["resourceUri"] = uri
		}
		if visibility != nil {
			ui["visibility"] = visibility
		}
		return sdk.Meta{"ui": ui}
	}
	object := map[string]any{"type": "object"}
	no := false
	for _, tool := range []struct {
		tool   *sdk.Tool
		result *sdk.CallToolResult
	}{
		{&sdk.Tool{Name: "get-time", Description: "Tells the time.", InputSchema: object, Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
			Meta: view(appViewURI)},
			&sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "12:00"}}, StructuredContent: map[string]any{"time": "12:00", "zone": "UTC"}}},
		{&sdk.Tool{Name: "refresh", Description: "Reads the time again, for the view.", InputSchema: object,
			Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}, Meta: view(appViewURI, "app")},
			&sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "12:01"}}, StructuredContent: map[string]any{"time": "12:01"}}},
		{&sdk.Tool{Name: "set-alarm", Description: "Sets an alarm.", Annotations: &sdk.ToolAnnotations{DestructiveHint: &no},
			InputSchema: map[string]any{"type": "object", "properties": map[string]any{"at": map[string]any{"type": "string"}}, "required": []any{"at"}},
			Meta:        view("", "model", "app")},
			&sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "alarm set"}}}},
		{&sdk.Tool{Name: "model-only", Description: "For the model.", InputSchema: object, Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
			Meta: view("", "model")}, &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "model"}}}},
		{&sdk.Tool{Name: "big-data", Description: "Much data.", InputSchema: object, Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
			Meta: view(appViewURI)},
			&sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "much"}}, StructuredContent: map[string]any{"data": strings.Repeat("x", 70<<10)}}},
		{&sdk.Tool{Name: "long", Description: "A long answer.", InputSchema: object, Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
			Meta: view(appViewURI)},
			&sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: strings.Repeat("y", 20<<10)}}, StructuredContent: map[string]any{"rows": 3}}},
		{&sdk.Tool{Name: "wrong-type", InputSchema: object, Meta: view("ui://bad/type.html")}, &sdk.CallToolResult{}},
		{&sdk.Tool{Name: "too-large", InputSchema: object, Meta: view("ui://bad/large.html")}, &sdk.CallToolResult{}},
		{&sdk.Tool{Name: "wildcard", InputSchema: object, Meta: view("ui://bad/wildcard.html")}, &sdk.CallToolResult{}},
		{&sdk.Tool{Name: "blob", InputSchema: object, Meta: view("ui://blob/view.html")}, &sdk.CallToolResult{}},
	} {
		s.AddTool(tool.tool, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			as.mu.Lock()
			as.calls = append(as.calls, tool.tool.Name)
			as.mu.Unlock()
			return tool.result, nil
		})
	}
	for _, r := range []struct {
		res      *sdk.Resource
		contents *sdk.ResourceContents
	}{
		{&sdk.Resource{URI: appViewURI, Name: "time view", MIMEType: mcp.UIMimeType},
			&sdk.ResourceContents{MIMEType: "text/html; profile=mcp-app", Text: appViewHTML, Meta: sdk.Meta{"ui": map[string]any{
				"csp":         map[string]any{"connectDomains": []any{"https://api.example.com"}, "resourceDomains": []any{"https://cdn.example.com/"}},
				"permissions": map[string]any{"clipboardWrite": map[string]any{}}, "prefersBorder": false}}}},
		{&sdk.Resource{URI: "ui://bad/type.html", Name: "plain page", MIMEType: "text/html"},
			&sdk.ResourceContents{MIMEType: "text/html", Text: appViewHTML}},
		{&sdk.Resource{URI: "ui://bad/large.html", Name: "large view", MIMEType: mcp.UIMimeType},
			&sdk.ResourceContents{MIMEType: mcp.UIMimeType, Text: strings.Repeat("x", mcp.MaxViewBytes+1)}},
		{&sdk.Resource{URI: "ui://bad/wildcard.html", Name: "wide view", MIMEType: mcp.UIMimeType},
			&sdk.ResourceContents{MIMEType: mcp.UIMimeType, Text: appViewHTML, Meta: sdk.Meta{"ui": map[string]any{
				"csp": map[string]any{"connectDomains": []any{"https://*.example.com"}}}}}},
		// A view sent as a blob, its settings in the resource's listing only.
		{&sdk.Resource{URI: "ui://blob/view.html", Name: "blob view", MIMEType: mcp.UIMimeType, Meta: sdk.Meta{"ui": map[string]any{"prefersBorder": true}}},
			&sdk.ResourceContents{MIMEType: mcp.UIMimeType, Blob: []byte(appViewHTML)}},
	} {
		s.AddResource(r.res, func(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			c := *r.contents
			c.URI = req.Params.URI
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{&c}}, nil
		})
	}
	as.srv = mcptest.Serve(t, sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	return as
}

// appsUser is a user connected to the apps server (through the mcp group's
// real handshake) and to a model: their id and token, the chat connection
// and the MCP connection.
func (s *stack) appsUser(as *appsServer) (uid, token, conn, mcpID string) {
	s.t.Helper()
	if _, err := s.st.GetMCPServer(context.Background(), "apps"); err != nil {
		s.addMCPServer(domain.MCPServer{ID: "apps", Title: "Apps", EndpointURL: as.url()})
	}
	uid, token = s.user()
	mcpID = s.connectMCP(token, "apps", "")
	return uid, token, s.connect(token, "openai", "gpt-4o-mini"), mcpID
}

func (s *stack) appView(token string, body any) *httptest.ResponseRecorder {
	return s.do(http.MethodPost, chatapi.AppViewPath, token, chattest.MustJSON(body))
}

func (s *stack) appCall(token string, body any) *httptest.ResponseRecorder {
	return s.do(http.MethodPost, chatapi.AppCallPath, token, chattest.MustJSON(body))
}

// TestAppToolFrames: the model is never offered a tool its server keeps
// for its views; a call's tool_call frame names the MCP connection it runs
// on and the tool's view, and its tool_result carries the server's
// structured content for the view (left out past 64 KB), in the stream as
// in the conversation's history (a reload renders the view again).
func TestAppToolFrames(t *testing.T) {
	t.Parallel()
	as := newAppsServer(t)
	upstream := callsTool("get-time", `{}`)
	s := newToolStack(t, map[string]llm.Provider{"openai": upstream}, nil)
	_, token, conn, mcpID := s.appsUser(as)
	conv := s.newConversation(token, "apps")
	w := s.sendWithin(token, struct {
		toolMsg
		ConversationID string `json:"conversation_id"`
	}{toolMsg{ConnectionID: conn, Message: "use get-time", MCPConnectionIDs: []string{mcpID}}, conv.ID}, patience)
	if w.Code != http.StatusOK {
		t.Fatalf("message: %d %s", w.Code, w.Body)
	}

	var offered []string
	for _, tool := range upstream.Requests()[0].Tools {
		offered = append(offered, llm.BareToolName(tool.Name))
	}
	slices.Sort(offered)
	if want := []string{"big-data", "blob", "get-time", "long", "model-only", "set-alarm", "too-large", "wildcard", "wrong-type"}; !slices.Equal(offered, want) {
		t.Errorf("the model was offered %v, want %v (every tool but the app-only refresh)", offered, want)
	}

	type frames struct {
		Call struct {
			ConnectionID string `json:"connection_id"`
			UI           *struct {
				ResourceURI string `json:"resource_uri"`
			} `json:"ui"`
		} `json:"tool_call"`
		Result struct {
			StructuredContent json.RawMessage `json:"structured_content"`
		} `json:"tool_result"`
	}
	check := func(how string, call, result string) {
		t.Helper()
		var c, res frames
		storetest.Must(t, json.Unmarshal([]byte(call), &c), how+": tool_call")
		storetest.Must(t, json.Unmarshal([]byte(result), &res), how+": tool_result")
		if c.Call.ConnectionID != mcpID || c.Call.UI == nil || c.Call.UI.ResourceURI != appViewURI {
			t.Errorf("%s: tool_call %s, want connection_id %s and ui.resource_uri %s", how, call, mcpID, appViewURI)
		}
		if string(res.Result.StructuredContent) != `{"time":"12:00","zone":"UTC"}` {
			t.Errorf("%s: tool_result structured_content = %s", how, res.Result.StructuredContent)
		}
	}
	var call, result string
	calls := 0
	for _, f := range chattest.Frames(w.Body.String()) {
		f = strings.TrimSpace(strings.TrimPrefix(f, "data: "))
		switch {
		case strings.HasPrefix(f, `{"tool_call"`):
			call = f
			calls++
		case strings.HasPrefix(f, `{"tool_result"`):
			result = f
		}
	}
	if calls != 1 || call == "" || result == "" {
		t.Fatalf("want one tool call and its result:\n%s", w.Body)
	}
	check("stream", call, result)

	var kept []string
	for _, m := range s.messages(token, conv.ID) {
		for _, b := range m.Blocks {
			kept = append(kept, string(b.Frame))
		}
	}
	if len(kept) < 2 {
		t.Fatalf("history kept %d tool frames, want the call and its result", len(kept))
	}
	check("history", kept[0], kept[1])

	// A result too large for history is kept as its size, with its
	// structured content (the view's data) while that fits.
	s3 := newToolStack(t, map[string]llm.Provider{"openai": callsTool("long", `{}`)}, nil)
	_, token3, conn3, mcpID3 := s3.appsUser(as)
	conv3 := s3.newConversation(token3, "long")
	if w := s3.sendWithin(token3, struct {
		toolMsg
		ConversationID string `json:"conversation_id"`
	}{toolMsg{ConnectionID: conn3, Message: "use long", MCPConnectionIDs: []string{mcpID3}}, conv3.ID}, patience); w.Code != http.StatusOK {
		t.Fatalf("message: %d %s", w.Code, w.Body)
	}
	var longResult string
	for _, m := range s3.messages(token3, conv3.ID) {
		for _, b := range m.Blocks {
			if strings.HasPrefix(string(b.Frame), `{"tool_result"`) {
				longResult = string(b.Frame)
			}
		}
	}
	if !strings.Contains(longResult, `"structured_content":{"rows":3}`) || !strings.Contains(longResult, "history keeps only its size") {
		t.Errorf("history kept the long result as %s", longResult)
	}

	// Structured content past 64 KB is left out of the frame (the content
	// blocks still say what the tool answered).
	s2 := newToolStack(t, map[string]llm.Provider{"openai": callsTool("big-data", `{}`)}, nil)
	_, token2, conn2, mcpID2 := s2.appsUser(as)
	r2 := s2.sendTool(token2, toolMsg{ConnectionID: conn2, Message: "use big-data", MCPConnectionIDs: []string{mcpID2}})
	if len(r2.results) != 1 || r2.results[0].text() != "much" || strings.Contains(r2.raw, "structured_content") {
		t.Errorf("a result with 70 KB of structured content: %s", r2.raw)
	}
}

// TestAppView: a view is read through the caller's own connection and
// handed over with the CSP, permissions and border its resource declares;
// another user's connection, a URI no tool declares, a view that is not an
// MCP App, too large or asking for wildcard origins, and a server that is
// gone are refused, each saying why.
func TestAppView(t *testing.T) {
	t.Parallel()
	as := newAppsServer(t)
	s := newToolStack(t, nil, nil)
	_, token, _, mcpID := s.appsUser(as)
	_, other, _, _ := s.appsUser(as)

	type viewJSON struct {
		URI  string `json:"uri"`
		HTML string `json:"html"`
		CSP  struct {
			ConnectDomains  []string `json:"connect_domains"`
			ResourceDomains []string `json:"resource_domains"`
			FrameDomains    []string `json:"frame_domains"`
			BaseURIDomains  []string `json:"base_uri_domains"`
		} `json:"csp"`
		Permissions   map[string]json.RawMessage `json:"permissions"`
		PrefersBorder *bool                      `json:"prefers_border"`
	}
	w := s.appView(token, map[string]string{"connection_id": mcpID, "uri": appViewURI})
	v := apitest.Decode[viewJSON](t, w, http.StatusOK)
	if v.URI != appViewURI || v.HTML != appViewHTML || !slices.Equal(v.CSP.ConnectDomains, []string{"https://api.example.com"}) ||
		!slices.Equal(v.CSP.ResourceDomains, []string{"https://cdn.example.com"}) || v.CSP.FrameDomains == nil || len(v.CSP.FrameDomains) != 0 ||
		v.CSP.BaseURIDomains == nil || len(v.Permissions) != 1 || string(v.Permissions["clipboard_write"]) != "{}" ||
		v.PrefersBorder == nil || *v.PrefersBorder {
		t.Errorf("view = %s", w.Body)
	}
	// A blob view, its settings from the server's resources/list.
	v = apitest.Decode[viewJSON](t, s.appView(token, map[string]string{"connection_id": mcpID, "uri": "ui://blob/view.html"}), http.StatusOK)
	if v.HTML != appViewHTML || v.PrefersBorder == nil || !*v.PrefersBorder {
		t.Errorf("blob view = %+v", v)
	}

	apitest.WantError(t, s.appView(other, map[string]string{"connection_id": mcpID, "uri": appViewURI}), http.StatusNotFound,
		"Connection not found. Connect again.")
	apitest.WantError(t, s.appView(token, map[string]string{"connection_id": "nope", "uri": appViewURI}), http.StatusNotFound,
		"Connection not found. Connect again.")
	apitest.WantErrorContaining(t, s.appView(token, map[string]string{"connection_id": mcpID, "uri": "ui://other/view.html"}),
		http.StatusBadRequest, "declares the view ui://other/view.html")
	apitest.WantErrorContaining(t, s.appView(token, map[string]string{"connection_id": mcpID, "uri": "https://example.com/view.html"}),
		http.StatusBadRequest, "ui://")
	for uri, why := range map[string]string{
		"ui://bad/type.html":     "is text/html, not text/html;profile=mcp-app",
		"ui://bad/large.html":    "is 2.0 MB; the limit is 2.0 MB",
		"ui://bad/wildcard.html": `asks for "https://*.example.com" in connectDomains: wildcards are not allowed`,
	} {
		e := apitest.WantErrorContaining(t, s.appView(token, map[string]string{"connection_id": mcpID, "uri": uri}), http.StatusUnprocessableEntity, why)
		if e.Code != "unprocessable" {
			t.Errorf("%s: code %q", uri, e.Code)
		}
	}
	apitest.WantError(t, s.appView("", map[string]string{"connection_id": mcpID, "uri": appViewURI}), http.StatusUnauthorized, "Not authenticated.")
	apitest.WantError(t, s.do(http.MethodPost, chatapi.AppViewPath, token, `{"connection_id":`), http.StatusBadRequest, "Malformed JSON in request body.")
	if len(as.called()) != 0 {
		t.Errorf("reading views called tools: %v", as.called())
	}

	mcptest.Close(as.srv)
	e := apitest.WantErrorContaining(t, s.appView(token, map[string]string{"connection_id": mcpID, "uri": appViewURI}), http.StatusBadGateway, "Apps")
	if e.Code != "upstream" {
		t.Errorf("server gone: %+v", e)
	}
}

// TestAppCall: a view's tool call is checked as a model's: the caller's
// own connection, a tool on its list that a view may call, arguments that
// fit its schema; read-only tools run, others wait for the user's approval
// unless they always allow them (and again once that is revoked); a
// user's views run at most so many tools a minute.
func TestAppCall(t *testing.T) {
	t.Parallel()
	as := newAppsServer(t)
	s := newToolStack(t, nil, func(o *chatapi.Options) { o.Tools.AppCallsPerMinute = 5 })
	uid, token, _, mcpID := s.appsUser(as)
	_, other, _, _ := s.appsUser(as)
	call := func(token, tool string, args any, approved bool) *httptest.ResponseRecorder {
		return s.appCall(token, map[string]any{"connection_id": mcpID, "tool": tool, "arguments": args, "approved": approved})
	}
	type resultJSON struct {
		Result struct {
			Content           []map[string]any `json:"content"`
			StructuredContent map[string]any   `json:"structuredContent"`
			IsError           *bool            `json:"isError"`
		} `json:"result"`
	}

	// An app-only, read-only tool runs at once: the server's result as it
	// sent it.
	w := call(token, "refresh", map[string]any{}, false)
	res := apitest.Decode[resultJSON](t, w, http.StatusOK)
	if len(res.Result.Content) != 1 || res.Result.Content[0]["text"] != "12:01" || res.Result.StructuredContent["time"] != "12:01" ||
		res.Result.IsError == nil || *res.Result.IsError {
		t.Errorf("refresh = %s", w.Body)
	}
	// A tab that asks before read-only tools too asks for a view's calls.
	ask := s.appCall(token, map[string]any{"connection_id": mcpID, "tool": "refresh", "arguments": map[string]any{}, "confirm_read_only": true})
	apitest.WantErrorContaining(t, ask, http.StatusConflict, "approval")
	// Not read-only: the user's approval first (nothing reaches the server),
	// then it runs.
	e := apitest.WantErrorContaining(t, call(token, "set-alarm", map[string]any{"at": "7:00"}, false), http.StatusConflict, "approval")
	if e.Code != "approval_required" {
		t.Errorf("code = %q, want approval_required", e.Code)
	}
	if got := as.called(); !slices.Equal(got, []string{"refresh"}) {
		t.Fatalf("calls on the server %v, want only refresh", got)
	}
	apitest.Decode[resultJSON](t, call(token, "set-alarm", map[string]any{"at": "7:00"}, true), http.StatusOK)

	// Always allowed (as the tool is now): it runs without asking; revoked
	// in Tools, it asks again.
	c, err := s.st.GetMCPConnection(context.Background(), uid, mcpID)
	storetest.Must(t, err, "connection")
	alarm := c.Tools[slices.IndexFunc(c.Tools, func(t domain.MCPTool) bool { return t.Name == "set-alarm" })]
	storetest.Must(t, s.st.AllowToolAlways(context.Background(), uid, store.ToolAllowance{ServerID: "apps", Tool: "set-alarm",
		Endpoint: store.AllowanceEndpoint(c.EndpointURL), Print: store.PrintTool(alarm)}, time.Now()), "always allow")
	apitest.Decode[resultJSON](t, call(token, "set-alarm", map[string]any{"at": "8:00"}, false), http.StatusOK)
	if w := s.do(http.MethodDelete, "/api/v1/mcp-connections/tools/always/apps/set-alarm", token, ""); w.Code != http.StatusNoContent {
		t.Fatalf("revoke: %d %s", w.Code, w.Body)
	}
	apitest.WantErrorContaining(t, call(token, "set-alarm", map[string]any{"at": "9:00"}, false), http.StatusConflict, "approval")

	// Refusals, none of which reaches the server.
	apitest.WantError(t, call(token, "no-such-tool", map[string]any{}, true), http.StatusNotFound, "Tool not found on this server.")
	apitest.WantErrorContaining(t, call(token, "model-only", map[string]any{}, true), http.StatusBadRequest, "for the model only")
	apitest.WantErrorContaining(t, call(token, "set-alarm", map[string]any{"at": 7}, true), http.StatusBadRequest, "Invalid arguments")
	apitest.WantErrorContaining(t, call(token, "set-alarm", []int{1}, true), http.StatusBadRequest, "must be a JSON object")
	apitest.WantErrorContaining(t, call(token, "refresh", map[string]any{"pad": strings.Repeat("x", 65<<10)}, false), http.StatusBadRequest, "the limit is 64 KB")
	apitest.WantError(t, call(other, "refresh", map[string]any{}, false), http.StatusNotFound, "Connection not found. Connect again.")
	apitest.WantError(t, call("", "refresh", map[string]any{}, false), http.StatusUnauthorized, "Not authenticated.")
	apitest.WantError(t, s.do(http.MethodPost, chatapi.AppCallPath, token, `{"tool": "refresh"`), http.StatusBadRequest, "Malformed JSON in request body.")
	if got := as.called(); len(got) != 3 {
		t.Errorf("calls on the server %v, want refresh and set-alarm twice", got)
	}

	// Five calls ran this minute (the test's limit): the next waits.
	call(token, "refresh", map[string]any{}, false)
	call(token, "get-time", nil, false)
	w = call(token, "refresh", map[string]any{}, false)
	e = apitest.WantErrorContaining(t, w, http.StatusTooManyRequests, "at most 5 tools a minute")
	if e.Code != "rate_limited" || w.Header().Get("Retry-After") == "" {
		t.Errorf("over the limit: %s, Retry-After %q", w.Body, w.Header().Get("Retry-After"))
	}
	apitest.Decode[resultJSON](t, s.appCall(other, map[string]any{"connection_id": otherConnection(t, s, other), "tool": "refresh"}), http.StatusOK)
}

// otherConnection is the MCP connection of the user token names.
func otherConnection(t *testing.T, s *stack, token string) string {
	t.Helper()
	got := apitest.Decode[struct {
		Servers []struct {
			ConnectionID string `json:"connection_id"`
		} `json:"servers"`
	}](t, s.do(http.MethodGet, "/api/v1/mcp-connections/tools", token, ""), http.StatusOK)
	if len(got.Servers) != 1 {
		t.Fatalf("%d connections", len(got.Servers))
	}
	return got.Servers[0].ConnectionID
}

// TestAppCallTimesOut: a view's tool call the server does not answer
// within the call timeout is a 504 saying so (the call is cancelled).
func TestAppCallTimesOut(t *testing.T) {
	t.Parallel()
	cancelled := make(chan struct{})
	ts := newToolServer(t, nil, testTool{name: "slow", readOnly: true, handle: func(ctx context.Context, _ map[string]any) (*sdk.CallToolResult, error) {
		<-ctx.Done()
		close(cancelled)
		return nil, ctx.Err()
	}})
	s := newToolStack(t, nil, func(o *chatapi.Options) { o.Tools.CallTimeout = 300 * time.Millisecond })
	token, _, mcpID := s.serverUser("slow", "Slow", ts.url)
	w := s.appCall(token, map[string]any{"connection_id": mcpID, "tool": "slow"})
	e := apitest.WantErrorContaining(t, w, http.StatusGatewayTimeout, "did not answer within 1 second")
	if e.Code != "timeout" {
		t.Errorf("code = %q", e.Code)
	}
	// The server is told to cancel the call (notifications/cancelled, sent
	// just after the answer). Waiting for it also keeps the stack's close
	// from ending the session first: the SDK server's session close waits
	// for the tool, which would then never end.
	waitFor(t, cancelled, "the server was never told to cancel the call")
}
