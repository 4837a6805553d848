package chatapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/api/chatapi"
	"aiwork/shared/api/mcpapi"
	"aiwork/shared/auth"
	"aiwork/shared/chat/chattest"
	"aiwork/shared/domain"
	"aiwork/shared/llm"
	"aiwork/shared/local/localmcp"
	"aiwork/shared/local/localmcp/localmcptest"
	"aiwork/shared/mcp"
	"aiwork/shared/seeddata"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// toolSealer seals MCP keys in the mcp group and opens them in the chat,
// as the two functions share MCP_KEY_ENCRYPTION_KEY.
var toolSealer = func() *mcp.Sealer {
	s, err := mcp.NewSealer([]byte(strings.Repeat("t", 32)))
	if err != nil {
		panic(err)
	}
	return s
}()

// newToolStack is a stack whose chat calls the tools of users' MCP servers
// on loopback (the devserver's outbound rules), with tweak applied to the
// chat's options.
func newToolStack(t *testing.T, upstreams map[string]llm.Provider, tweak func(*chatapi.Options)) *stack {
	t.Helper()
	policy := mcp.Policy{AllowLoopback: true}
	pool := mcp.NewPool(policy.Client(), time.Minute, 16)
	t.Cleanup(pool.Close)
	opts := chatapi.Options{StallTimeout: patience, Tools: chatapi.ToolOptions{Sealer: toolSealer, Pool: pool}}
	if tweak != nil {
		tweak(&opts)
	}
	return newStackMCP(t, opts, upstreams, func(*store.Store) *auth.Tokens { return auth.NewTokens(secret, time.Hour) },
		mcpapi.Options{Policy: policy, Sealer: toolSealer})
}

// connectReference connects the user to the real reference server through
// the mcp group (a real handshake) and answers the connection's id.
func (s *stack) connectReference(token string) string {
	s.t.Helper()
	endpoint := localmcptest.Reference(s.t, localmcp.ModeStreamable)
	storetest.Must(s.t, seeddata.SetLocalReference(context.Background(), s.st, endpoint), "local reference")
	return s.connectMCP(token, seeddata.LocalReferenceID, "")
}

// referenceUser makes a user connected to the real reference server and
// to a model (gpt-4o-mini of openai): the user's token, the chat
// connection and the MCP connection.
func (s *stack) referenceUser() (token, conn, mcpID string) {
	s.t.Helper()
	_, token = s.user()
	mcpID = s.connectReference(token)
	return token, s.connect(token, "openai", "gpt-4o-mini"), mcpID
}

// pausedReply makes a user with the reference server connected and a
// reply paused for the approval of its toggle-simulated-logging (not
// read-only), and answers the user's token, the chat and MCP connections
// and the paused reply.
func (s *stack) pausedReply() (token, conn, mcpID string, r reply) {
	s.t.Helper()
	token, conn, mcpID = s.referenceUser()
	r = s.sendTool(token, toolMsg{ConnectionID: conn, Message: "use toggle-simulated-logging", MCPConnectionIDs: []string{mcpID}})
	if r.approval == nil {
		s.t.Fatalf("no approval: %s", r.raw)
	}
	return token, conn, mcpID, r
}

// connectMCP connects the user to registry server id (with key, if any).
func (s *stack) connectMCP(token, serverID, key string) string {
	s.t.Helper()
	w := s.do("POST", "/api/v1/mcp-connections/", token, chattest.MustJSON(map[string]string{"server_id": serverID, "api_key": key}))
	if w.Code != http.StatusOK {
		s.t.Fatalf("connect MCP server %s: %d %s", serverID, w.Code, w.Body)
	}
	var c struct {
		ConnectionID string `json:"connection_id"`
	}
	storetest.Must(s.t, json.Unmarshal(w.Body.Bytes(), &c), "connect answer")
	return c.ConnectionID
}

// serverUser puts a registry entry for the test server at url and makes a
// user connected to it and to a model (gpt-4o-mini of openai): the user's
// token, the chat connection and the MCP connection.
func (s *stack) serverUser(id, title, url string) (token, conn, mcpID string) {
	s.t.Helper()
	s.addMCPServer(domain.MCPServer{ID: id, Title: title, EndpointURL: url})
	_, token = s.user()
	mcpID = s.connectMCP(token, id, "")
	return token, s.connect(token, "openai", "gpt-4o-mini"), mcpID
}

// addMCPServer puts a registry entry for an in-process test server.
func (s *stack) addMCPServer(srv domain.MCPServer) {
	s.t.Helper()
	srv.Name, srv.ModelType, srv.IsActive, srv.SupportedFeatures = "test/"+srv.ID, "test", true, []string{"tools"}
	storetest.Must(s.t, s.st.UpsertMCPServer(context.Background(), srv), "put MCP server")
}

// toolMsg is a message offering MCP tools, or resuming a paused reply.
type toolMsg struct {
	ConnectionID     string         `json:"connection_id"`
	Message          string         `json:"message"`
	Model            string         `json:"model,omitempty"`
	MCPConnectionIDs []string       `json:"mcp_connection_ids,omitempty"`
	ConfirmReadOnly  bool           `json:"confirm_read_only,omitempty"`
	Approval         *approvalInput `json:"approval,omitempty"`
}

type approvalInput struct {
	Token    string `json:"token"`
	Decision string `json:"decision"`
}

// Frames of a tool reply, decoded.
type (
	toolCallJSON struct {
		ID         string          `json:"id"`
		ServerID   string          `json:"server_id"`
		ServerName string          `json:"server_name"`
		Tool       string          `json:"tool"`
		Arguments  json.RawMessage `json:"arguments"`
	}
	toolResultJSON struct {
		ID         string            `json:"id"`
		IsError    bool              `json:"is_error"`
		Content    []json.RawMessage `json:"content"`
		DurationMS int64             `json:"duration_ms"`
		Denied     bool              `json:"denied"`
		Truncated  bool              `json:"truncated"`
	}
	approvalJSON struct {
		Token     string `json:"token"`
		ExpiresAt string `json:"expires_at"`
		Call      struct {
			toolCallJSON
			Description string `json:"description"`
			Annotations struct {
				ReadOnlyHint    bool  `json:"readOnlyHint"`
				DestructiveHint *bool `json:"destructiveHint"`
			} `json:"annotations"`
		} `json:"call"`
	}
)

// reply is a tool reply's frames in order, decoded.
type reply struct {
	raw      string
	text     string // every content delta
	calls    []toolCallJSON
	results  []toolResultJSON
	notices  []string
	approval *approvalJSON
	// elicitations are the server's questions; progress and logs the
	// frames of running calls.
	elicitations []elicitationJSON
	progress     []progressJSON
	logs         []logJSON
	// signins are the sign-ins a call asked for (tool_signin).
	signins []signinJSON
	errors  []string
	usage   *struct{ InputTokens, OutputTokens int }
	done    bool
	order   []string // "content", "tool_call", "tool_result", "notice", "approval", "error", "usage", "done"
}

// parseReply decodes an SSE body, failing on a frame it does not know.
func parseReply(t *testing.T, body string) reply {
	t.Helper()
	r := reply{raw: body}
	for _, f := range chattest.Frames(body) {
		f = strings.TrimSuffix(f, "\n\n")
		switch {
		case strings.HasPrefix(f, ":"):
			continue // a keep-alive comment
		case f == "data: [DONE]":
			r.done = true
			r.order = append(r.order, "done")
			continue
		case strings.HasPrefix(f, "event: error\ndata: "):
			var e struct{ Detail string }
			storetest.Must(t, json.Unmarshal([]byte(strings.TrimPrefix(f, "event: error\ndata: ")), &e), "error frame")
			r.errors = append(r.errors, e.Detail)
			r.order = append(r.order, "error")
			continue
		case strings.HasPrefix(f, "event: tool_approval\ndata: "):
			r.approval = &approvalJSON{}
			storetest.Must(t, json.Unmarshal([]byte(strings.TrimPrefix(f, "event: tool_approval\ndata: ")), r.approval), "approval frame")
			r.order = append(r.order, "approval")
			continue
		case strings.HasPrefix(f, "event: elicitation\ndata: "):
			e, _ := questionIn(t, f)
			r.elicitations = append(r.elicitations, e)
			r.order = append(r.order, "elicitation")
			continue
		case !strings.HasPrefix(f, "data: "):
			t.Fatalf("unknown frame %q in\n%s", f, body)
		}
		var d struct {
			Content    *string         `json:"content"`
			ToolCall   *toolCallJSON   `json:"tool_call"`
			ToolResult *toolResultJSON `json:"tool_result"`
			Notice     *string         `json:"notice"`
			Progress   *progressJSON   `json:"tool_progress"`
			Log        *logJSON        `json:"tool_log"`
			Signin     *signinJSON     `json:"tool_signin"`
			Usage      *struct {
				InputTokens  int `json:"input_tokens"`
				OutputTokens int `json:"output_tokens"`
			} `json:"usage"`
		}
		storetest.Must(t, json.Unmarshal([]byte(strings.TrimPrefix(f, "data: ")), &d), "data frame "+f)
		switch {
		case d.Content != nil:
			r.text += *d.Content
			r.order = append(r.order, "content")
		case d.ToolCall != nil:
			r.calls = append(r.calls, *d.ToolCall)
			r.order = append(r.order, "tool_call")
		case d.ToolResult != nil:
			r.results = append(r.results, *d.ToolResult)
			r.order = append(r.order, "tool_result")
		case d.Notice != nil:
			r.notices = append(r.notices, *d.Notice)
			r.order = append(r.order, "notice")
		case d.Progress != nil:
			r.progress = append(r.progress, *d.Progress)
			r.order = append(r.order, "tool_progress")
		case d.Log != nil:
			r.logs = append(r.logs, *d.Log)
			r.order = append(r.order, "tool_log")
		case d.Signin != nil:
			r.signins = append(r.signins, *d.Signin)
			r.order = append(r.order, "tool_signin")
		case d.Usage != nil:
			r.usage = &struct{ InputTokens, OutputTokens int }{d.Usage.InputTokens, d.Usage.OutputTokens}
			r.order = append(r.order, "usage")
		default:
			t.Fatalf("unknown data frame %q", f)
		}
	}
	return r
}

// resultText is a result's text blocks, joined.
func (r toolResultJSON) text() string {
	var out []string
	for _, c := range r.Content {
		var b struct{ Type, Text string }
		_ = json.Unmarshal(c, &b)
		if b.Type == "text" {
			out = append(out, b.Text)
		}
	}
	return strings.Join(out, "\n")
}

// sendTool posts a tool message and answers the reply, failing unless the
// answer is a 200 stream.
func (s *stack) sendTool(token string, in toolMsg) reply {
	s.t.Helper()
	w := s.sendWithin(token, in, patience)
	if w.Code != http.StatusOK {
		s.t.Fatalf("message %+v: %d %s", in, w.Code, w.Body)
	}
	return parseReply(s.t, w.Body.String())
}

// testTool is a tool of an in-process MCP server.
type testTool struct {
	name     string
	readOnly bool
	schema   map[string]any
	handle   func(ctx context.Context, args map[string]any) (*sdk.CallToolResult, error)
}

// toolServer is an in-process go-sdk MCP server over streamable HTTP that
// records the calls it gets; close stops it mid-test.
type toolServer struct {
	url   string
	close func()
	mu    sync.Mutex
	calls []string
}

func (ts *toolServer) called() []string {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return append([]string(nil), ts.calls...)
}

func newToolServer(t *testing.T, wrap func(http.Handler) http.Handler, tools ...testTool) *toolServer {
	t.Helper()
	ts := &toolServer{}
	s := sdk.NewServer(&sdk.Implementation{Name: "tool-test", Version: "0.1.0"}, nil)
	for _, tt := range tools {
		schema := tt.schema
		if schema == nil {
			schema = map[string]any{"type": "object"}
		}
		s.AddTool(&sdk.Tool{Name: tt.name, Description: "Test tool " + tt.name + ".", InputSchema: schema,
			Annotations: &sdk.ToolAnnotations{ReadOnlyHint: tt.readOnly}},
			func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				ts.mu.Lock()
				ts.calls = append(ts.calls, tt.name)
				ts.mu.Unlock()
				var args map[string]any
				_ = json.Unmarshal(req.Params.Arguments, &args)
				return tt.handle(ctx, args)
			})
	}
	var h http.Handler = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	var once sync.Once
	// A chat session keeps the server's standalone stream open: its
	// connections are cut first, or Close would wait for them.
	ts.url, ts.close = srv.URL, func() { once.Do(func() { srv.CloseClientConnections(); srv.Close() }) }
	t.Cleanup(ts.close)
	return ts
}

func textResult(text string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}
}

// callsTool is an upstream model that calls tool with args on the user's
// turn and, once results came back, answers with the text it was given
// back ("got: <result>"), so a test sees what reached the model.
func callsTool(tool, args string) *chattest.Upstream {
	return chattest.NewEventUpstream(func(ctx context.Context, req llm.Request, emit func(llm.Event) error) (llm.Usage, error) {
		last := req.Messages[len(req.Messages)-1]
		if last.Role == "tool" {
			var got []string
			for _, r := range last.ToolResults {
				got = append(got, fmt.Sprintf("%s error=%v %d bytes", r.Name, r.IsError, len(r.Content)))
			}
			if err := emit(llm.Event{Text: "got: " + strings.Join(got, "; ")}); err != nil {
				return llm.Usage{}, err
			}
			return llm.Usage{InputTokens: 20, OutputTokens: 5}, emit(llm.Event{Stop: llm.StopEnd})
		}
		name := ""
		for _, t := range req.Tools {
			if llm.BareToolName(t.Name) == tool {
				name = t.Name
			}
		}
		if err := emit(llm.Event{ToolCall: &llm.ToolCall{ID: fmt.Sprintf("call_%d", len(req.Messages)), Name: name, Arguments: args}}); err != nil {
			return llm.Usage{}, err
		}
		return llm.Usage{InputTokens: 10, OutputTokens: 4}, emit(llm.Event{Stop: llm.StopToolCalls})
	})
}
