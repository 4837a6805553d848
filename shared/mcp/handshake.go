package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/domain"
)

// Target is one server to handshake with. APIKey is empty for probes.
type Target struct {
	Endpoint  string
	Transport string // domain.Transport*; "" means streamable HTTP
	APIKey    string
	KeyHeader string // "" or "Authorization" → "Authorization: Bearer <key>"
}

// Result is what a successful handshake learnt about a server.
type Result struct {
	ProtocolVersion string
	ServerInfo      domain.MCPImplementation
	Features        []string // of "tools", "prompts", "resources", "logging", "completions"
	Tools           []domain.MCPTool
	ToolsHash       string        // hex sha256 of the tools' names, descriptions and input schemas
	Transport       string        // the transport that worked (after any fallback to SSE)
	Latency         time.Duration // the initialize exchange alone
}

const (
	// DefaultHandshakeTimeout bounds a handshake whose context has no deadline.
	DefaultHandshakeTimeout = 15 * time.Second
	maxTools                = 500
	maxToolPages            = 50 // a server could hand out cursors forever
	maxDescriptionRunes     = 1000
	closeTimeout            = 3 * time.Second
)

var clientInfo = &mcp.Implementation{Name: "aiwork-mcp-registry", Version: "1.0.0"}

// Handshake connects to t with the official SDK, reads the server's identity,
// capabilities and tools, and closes the session in the background. hc must
// come from Policy.Client: it carries the outbound rules (nil means the
// strictest Policy{}). The whole exchange
// is bounded by ctx (DefaultHandshakeTimeout when ctx has no deadline).
//
// Every failure is an *Error, except a cancelled ctx, which is returned as an
// error wrapping context.Canceled (the caller went away; nobody to tell).
// A streamable endpoint that answers its initialize POST with a 4xx other
// than 401/403 is retried over SSE (the MCP spec's backwards compatibility).
func Handshake(ctx context.Context, hc *http.Client, t Target) (Result, error) {
	return dial(ctx, t, func(ctx context.Context, t Target, transport string) (Result, *observer, error) {
		return attempt(ctx, hc, t, transport)
	})
}

// dial runs try over t's transport, and over SSE when a streamable endpoint
// refuses the initialize POST, bounded by ctx (DefaultHandshakeTimeout when it has
// no deadline), the key trimmed and checked first; failures are
// classified for users (*Error).
func dial[T any](ctx context.Context, t Target, try func(context.Context, Target, string) (T, *observer, error)) (T, error) {
	var zero T
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultHandshakeTimeout)
		defer cancel()
	}
	deadline, _ := ctx.Deadline()
	budget := time.Until(deadline)
	t.APIKey = strings.TrimSpace(t.APIKey) // pasted keys often carry a newline
	if err := checkKey(t); err != nil {
		return zero, err
	}
	transport := t.Transport
	if transport == "" {
		transport = domain.TransportStreamableHTTP
	}
	out, obs, err := try(ctx, t, transport)
	if err != nil && closedByPeer(err) && ctx.Err() == nil {
		// A server may close a kept-alive connection just as it is reused
		// (Node's servers drop idle ones after 5 s): the handshake never
		// ran, so it goes once more, on a new connection.
		out, obs, err = try(ctx, t, transport)
	}
	if err != nil && transport == domain.TransportStreamableHTTP && obs.initializeRefused() && ctx.Err() == nil {
		first, firstErr, missing := obs, err, obs.postMissing()
		out, obs, err = try(ctx, t, domain.TransportSSE)
		if err != nil && !missing && ctx.Err() == nil {
			// Not an SSE server either: the streamable answer (a 400 with
			// the server's reason) says more than the SSE attempt's.
			obs, err = first, firstErr
		}
	}
	if err != nil {
		return zero, classify(ctx, obs, err, t.APIKey != "", budget)
	}
	return out, nil
}

// attempt is one handshake over one transport, with its own observer so a
// fallback starts from a clean record.
func attempt(ctx context.Context, hc *http.Client, t Target, transport string) (Result, *observer, error) {
	obs := newObserver(ctx, hc)
	cs, res, err := open(ctx, obs, t, transport, nil)
	if err != nil {
		return Result{}, obs, err
	}
	// Close may wait on the server (a DELETE for streamable sessions,
	// modelcontextprotocol/go-sdk#1183); the observer bounds that request by
	// closeTimeout.
	defer func() { go func() { _ = cs.Close() }() }()
	if slices.Contains(res.Features, "tools") {
		tools, err := listTools(ctx, cs)
		if err != nil {
			return Result{}, obs, err
		}
		res.Tools, res.ToolsHash = toDomain(tools), toolsHash(tools)
	} else {
		res.Tools, res.ToolsHash = []domain.MCPTool{}, toolsHash(nil)
	}
	return res, obs, nil
}

// open connects to t over transport through obs and reads the initialize
// result; the caller closes the session. opts are the client's (nil: a
// handshake's, which declares what a chat session does).
func open(ctx context.Context, obs *observer, t Target, transport string, opts *mcp.ClientOptions) (*mcp.ClientSession, Result, error) {
	client := obs.client(t)
	var tr mcp.Transport
	if transport == domain.TransportSSE {
		tr = &mcp.SSEClientTransport{Endpoint: t.Endpoint, HTTPClient: client}
	} else {
		transport = domain.TransportStreamableHTTP
		// A chat session (opts set) listens on the server's standalone
		// stream too: a server may send its questions and notices there
		// rather than on the call's own stream. A handshake does not.
		tr = &mcp.StreamableClientTransport{Endpoint: t.Endpoint, HTTPClient: client, MaxRetries: streamReconnects, DisableStandaloneSSE: opts == nil}
	}
	if opts == nil {
		// A handshake declares a chat session's capabilities, so the tools
		// it reads (stored with the connection, shown in the registry) are
		// the ones the chat is offered: a server may list the tools that ask
		// their user only to a client that says it can answer. It asks
		// nothing of a handshake, which lists tools and closes; a question
		// it sent anyway is refused by the SDK (no handler).
		opts = &mcp.ClientOptions{Capabilities: chatCapabilities()}
	}
	c := mcp.NewClient(clientInfo, opts)
	key := transport + " " + t.Endpoint
	sopts := legacy.options(key)
	start := time.Now()
	cs, err := c.Connect(ctx, tr, sopts)
	if err != nil {
		legacy.learn(key, sopts, nil)
		return nil, Result{}, err
	}
	latency := time.Since(start)
	init := cs.InitializeResult()
	legacy.learn(key, sopts, init)
	if init == nil {
		go func() { _ = cs.Close() }()
		return nil, Result{}, errors.New("no initialize result")
	}
	res := Result{ProtocolVersion: init.ProtocolVersion, Transport: transport, Latency: latency}
	if init.ServerInfo != nil {
		res.ServerInfo = domain.MCPImplementation{Name: init.ServerInfo.Name, Title: init.ServerInfo.Title, Version: init.ServerInfo.Version}
	}
	res.Features = features(init.Capabilities)
	return cs, res, nil
}

// streamReconnects is how often a response stream the server closes or
// loses before its answer is resumed (a GET with Last-Event-ID, after the
// server's SSE retry delay: SEP-1699): a tool call's result is then not
// lost to a server that ends its streams to poll, or to one dropped
// connection. Each reconnect still counts against the call's own budget.
const streamReconnects = 3

func features(c *mcp.ServerCapabilities) []string {
	out := []string{}
	if c == nil {
		return out
	}
	for _, f := range []struct {
		name string
		on   bool
	}{
		{"tools", c.Tools != nil}, {"prompts", c.Prompts != nil}, {"resources", c.Resources != nil},
		{"logging", c.Logging != nil}, {"completions", c.Completions != nil},
	} {
		if f.on {
			out = append(out, f.name)
		}
	}
	return out
}

// listTools pages through tools/list up to maxTools.
func listTools(ctx context.Context, cs *mcp.ClientSession) ([]*mcp.Tool, error) {
	var tools []*mcp.Tool
	params := &mcp.ListToolsParams{}
	for range maxToolPages {
		page, err := cs.ListTools(ctx, params)
		if err != nil {
			return nil, err
		}
		for _, tool := range page.Tools {
			if tool != nil && len(tools) < maxTools {
				tools = append(tools, tool)
			}
		}
		if page.NextCursor == "" || len(tools) >= maxTools {
			break
		}
		params = &mcp.ListToolsParams{Cursor: page.NextCursor}
	}
	return tools, nil
}

// toDomain maps tools and their hints. Following the MCP spec the hints are
// advisory; we report destructive only when the server says so explicitly
// (DestructiveHint true), rather than the spec's pessimistic default for an
// absent hint, so the badge means "the server declares this destructive".
func toDomain(tools []*mcp.Tool) []domain.MCPTool {
	out := make([]domain.MCPTool, 0, len(tools))
	for _, t := range tools {
		d := domain.MCPTool{Name: t.Name, Title: t.Title, Description: trimRunes(t.Description, maxDescriptionRunes),
			InputSchema: inputSchema(t), DestructiveHintAbsent: true}
		if a := t.Annotations; a != nil {
			d.ReadOnly = a.ReadOnlyHint
			d.Destructive = a.DestructiveHint != nil && *a.DestructiveHint
			d.DestructiveHintAbsent = a.DestructiveHint == nil
			if d.Title == "" {
				d.Title = a.Title
			}
		}
		d.UIResourceURI, d.Visibility = toolUI(t.Meta)
		out = append(out, d)
	}
	return out
}

// maxUIResourceURI bounds a view's URI as kept with a tool.
const maxUIResourceURI = 2048

// toolUI reads a tool's view (MCP Apps): its ui:// resource, from
// _meta.ui.resourceUri or the older flat _meta["ui/resourceUri"] (the
// nested one wins), and who may call it (_meta.ui.visibility: "model",
// "app"; nil when it says neither, which means both). A URI that is not
// ui:// is not a view and is dropped.
func toolUI(meta mcp.Meta) (uri string, visibility []string) {
	ui, _ := meta["ui"].(map[string]any)
	uri, _ = ui["resourceUri"].(string)
	if uri == "" {
		uri, _ = meta["ui/resourceUri"].(string)
	}
	if !strings.HasPrefix(uri, UIScheme) || len(uri) > maxUIResourceURI {
		uri = ""
	}
	list, _ := ui["visibility"].([]any)
	for _, v := range list {
		if s, _ := v.(string); (s == domain.ToolVisibleToModel || s == domain.ToolVisibleToApp) && !slices.Contains(visibility, s) {
			visibility = append(visibility, s)
		}
	}
	return uri, visibility
}

// maxSchemaBytes bounds one tool's input schema as kept and offered to
// models; a larger one is replaced by the permissive object schema.
const maxSchemaBytes = 16 << 10

// inputSchema is the tool's input schema as JSON: an object schema (MCP
// requires one); a missing, unreadable or oversized one is the permissive
// {"type":"object"}.
func inputSchema(t *mcp.Tool) json.RawMessage {
	permissive := json.RawMessage(`{"type":"object"}`)
	if t.InputSchema == nil {
		return permissive
	}
	b, err := json.Marshal(t.InputSchema)
	if err != nil || len(b) > maxSchemaBytes || string(b) == "null" {
		return permissive
	}
	return b
}

func trimRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// toolsHash fingerprints what a model sees of the tools (names, full
// descriptions, input schemas), sorted by name so server order does not
// matter. encoding/json sorts map keys, so the schema encoding is stable.
func toolsHash(tools []*mcp.Tool) string {
	sorted := slices.Clone(tools)
	slices.SortFunc(sorted, func(a, b *mcp.Tool) int { return strings.Compare(a.Name, b.Name) })
	h := sha256.New()
	for _, t := range sorted {
		schema, _ := json.Marshal(t.InputSchema)
		for _, part := range [][]byte{[]byte(t.Name), []byte(t.Description), schema} {
			h.Write(part)
			h.Write([]byte{0})
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// closedByPeer reports a connection the server closed before answering.
func closedByPeer(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET)
}
