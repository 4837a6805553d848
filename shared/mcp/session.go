package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/domain"
)

// Session is an open MCP session kept for tool calls (the chat's tool
// loop): the handshake is paid once, and each call is one request. It is
// safe for concurrent use.
type Session struct {
	cs       *mcp.ClientSession
	obs      *observer
	close    context.CancelFunc
	features []string
	protocol string
	// listed makes a session on a protocol with tool-parameter headers
	// list its tools once before its first call (withToolHeaders).
	listed sync.Once
	// calls are the tool calls running, which hear the server's progress,
	// log messages and questions.
	calls *calls
}

// Open connects to t and keeps the session open until Close, falling back
// from streamable HTTP to SSE as Handshake does. ctx bounds the handshake
// only. hc must come from Policy.Client (the outbound rules). Failures are
// *Error, as Handshake's.
func Open(ctx context.Context, hc *http.Client, t Target) (*Session, error) {
	return dial(ctx, t, func(ctx context.Context, t Target, transport string) (*Session, *observer, error) {
		s, err := openSession(ctx, hc, t, transport)
		return s, s.obs, err
	})
}

// openSession is one attempt over one transport. The observer lives as
// long as the session (its context ends at Close), not the handshake.
func openSession(ctx context.Context, hc *http.Client, t Target, transport string) (*Session, error) {
	life, stop := context.WithCancel(context.WithoutCancel(ctx))
	cs := newCalls()
	s := &Session{obs: newObserver(life, counting(hc, cs)), close: stop, calls: cs}
	session, res, err := open(ctx, s.obs, t, transport, s.calls.clientOptions())
	if err != nil {
		stop()
		return s, err
	}
	s.cs, s.features, s.protocol = session, res.Features, res.ProtocolVersion
	if slices.Contains(s.features, "logging") {
		// The log messages a call's tool block shows: info and above. A
		// server that refuses still serves.
		_ = session.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"})
	}
	return s, nil
}

// Close ends the session in the background (a streamable session's DELETE
// is bounded by closeTimeout).
func (s *Session) Close() {
	go func() {
		_ = s.cs.Close()
		s.close()
	}()
}

// Tools lists the server's tools (none when it has no tools capability).
func (s *Session) Tools(ctx context.Context) ([]domain.MCPTool, error) {
	if !slices.Contains(s.features, "tools") {
		return []domain.MCPTool{}, nil
	}
	tools, err := listTools(ctx, s.cs)
	if err != nil {
		return nil, s.failure(ctx, err, 0)
	}
	return toDomain(tools), nil
}

// Call calls tool name with args. A result the server marks as an error is
// a result (IsError), not an error; errors are *Error: the server refused
// or broke the request (a JSON-RPC error, HTTP, network, too large), or
// ctx ended (KindTimeout, saying budget; a cancelled ctx is returned as
// context.Canceled).
func (s *Session) Call(ctx context.Context, name string, args map[string]any, budget time.Duration) (*mcp.CallToolResult, error) {
	return s.CallWith(ctx, CallRequest{Name: name, Args: args}, budget)
}

// maxURLElicitationRounds bounds how often one call is retried after the
// server answered it with a URL elicitation required error (-32042).
const maxURLElicitationRounds = 3

// CallWith is Call with hooks and a multi round-trip retry's answers. The
// call goes with its own progress token; while it runs, the server's
// progress, log messages and questions reach req.Hooks. A call the server
// refuses with a URL elicitation required error (-32042) is asked as its
// questions (Hooks.Ask) and, once the user went through them, sent again.
// An input-required result (SEP-2322) is answered as it is: the caller
// asks its user and calls again with the answers.
func (s *Session) CallWith(ctx context.Context, req CallRequest, budget time.Duration) (*mcp.CallToolResult, error) {
	s.withToolHeaders(ctx)
	hooks := req.Hooks
	if hooks == nil {
		hooks = &CallHooks{}
	}
	for round := 0; ; round++ {
		params := &mcp.CallToolParams{Name: req.Name, Arguments: req.Args, InputResponses: req.InputResponses, RequestState: req.RequestState}
		token := newProgressToken()
		params.SetProgressToken(token)
		s.calls.add(token, hooks)
		res, err := s.cs.CallTool(ctx, params)
		s.calls.settle()
		s.calls.remove(token)
		if qs, ok := urlElicitations(err); ok && hooks.Ask != nil && round < maxURLElicitationRounds && ctx.Err() == nil {
			if err := s.calls.askURLs(ctx, hooks, qs); err != nil {
				if ctx.Err() != nil {
					return nil, s.failure(ctx, err, budget)
				}
				var d *urlDeclined
				if errors.As(err, &d) {
					return nil, &Error{Kind: KindNotMCP, Detail: "The server needs you to finish a step on its own page first, and you did not.", cause: err}
				}
				return nil, &Error{Kind: KindNotMCP, Detail: "The server's request could not be put to you: " + trimRunes(err.Error(), 300), cause: err}
			}
			continue
		}
		if err != nil {
			return nil, s.failure(ctx, err, budget)
		}
		if res == nil {
			return nil, &Error{Kind: KindNotMCP, Detail: "The server sent no result."}
		}
		s.calls.schemas.putAll(res)
		return res, nil
	}
}

// toolHeadersSince is the first protocol revision whose tools may name
// arguments to be sent as Mcp-Param headers too (x-mcp-header, SEP-2243).
const toolHeadersSince = "2026-07-28"

// withToolHeaders lists the server's tools once on a session that may need
// them for its calls: the SDK sends a tool's x-mcp-header arguments as
// headers only for tools this session has listed (a server may route on
// them, and may refuse a call without them). Older servers pay nothing. A
// failed list leaves the call to go without the headers.
func (s *Session) withToolHeaders(ctx context.Context) {
	if s.protocol < toolHeadersSince || !slices.Contains(s.features, "tools") {
		return
	}
	s.listed.Do(func() { _, _ = s.cs.ListTools(ctx, nil) })
}

// failure says why a request on an open session failed.
func (s *Session) failure(ctx context.Context, err error, budget time.Duration) error {
	if errors.Is(ctx.Err(), context.Canceled) {
		return fmt.Errorf("mcp call: %w", context.Canceled)
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return timeoutError(budget, err)
	}
	var rpc *jsonrpc.Error
	if errors.As(err, &rpc) {
		return &Error{Kind: KindNotMCP, Detail: "The server answered with an error: " + trimRunes(rpc.Message, 300), cause: err}
	}
	return classify(ctx, s.obs, err, false, budget)
}

// stale reports whether the server no longer knows this session (it
// answered a request with 404, as the MCP spec says a server does for an
// expired session, e.g. after a restart): the request never ran, and may
// be sent again on a new session.
func (s *Session) stale() bool {
	s.obs.mu.Lock()
	defer s.obs.mu.Unlock()
	return s.obs.missingPOST || s.obs.status == http.StatusNotFound
}
