package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/domain"
	"aiwork/shared/mcp"
)

// MCP Apps: a tool's view, rendered by the browser beside the call in a
// sandboxed frame, is read from the user's own connection here (never by
// the browser from the server), and the tool calls it makes come back
// here, checked as a model's are: the connection is the caller's, the tool
// is on its list, and one that is not read-only (nor always allowed by the
// user, as for a model's call: turn.needsApproval) waits for the user's
// approval. Both go through the warm sessions the replies' tool calls use.

// Bounds of a view's requests.
const (
	// MaxAppArguments bounds a view's tool call's arguments, as JSON.
	MaxAppArguments = 64 << 10
	// DefaultAppCallsPerMinute is how many tool calls a user's views may
	// make in a minute (ToolOptions.AppCallsPerMinute).
	DefaultAppCallsPerMinute = 60
	// appCallScope counts them, per user, in the table (every instance
	// sees the same count).
	appCallScope  = "chat-app-call"
	appCallWindow = time.Minute
	// viewReadTimeout bounds reading a view.
	viewReadTimeout = 20 * time.Second
	// msgAppConnectionNotFound: the caller has no such connection.
	msgAppConnectionNotFound = "Connection not found. Connect again."
)

// AppView reads the view uri (a ui:// resource one of the connection's
// tools declares) of uid's connection connID, and checks it
// (mcp.ViewFrom). Refusals are *Error: NotFound (not the caller's
// connection), Invalid (no tool declares uri), Unprocessable (a view the
// chat will not render), Upstream or Timeout (the server failed, or did
// not answer).
func (e *Engine) AppView(ctx context.Context, uid, connID, uri string) (mcp.View, error) {
	tr, err := e.tools.appTurn(ctx, uid, connID, false)
	if err != nil {
		return mcp.View{}, err
	}
	c := tr.conns[0]
	declared := false
	for _, t := range c.Tools {
		declared = declared || t.UIResourceURI == uri
	}
	if !declared {
		return mcp.View{}, refuse(Invalid, "No tool of %s declares the view %s.", c.Label(), uri)
	}
	b := e.tools
	target, err := b.target(ctx, uid, c)
	if err != nil {
		return mcp.View{}, appFailure(c, err, b.opts.CallTimeout)
	}
	ctx, cancel := context.WithTimeout(ctx, viewReadTimeout)
	defer cancel()
	res, err := b.opts.Pool.ReadResource(ctx, owner(uid, c), target, uri, b.opts.ConnectTimeout)
	if tl, ok := errors.AsType[*mcp.TooLargeError](err); ok {
		size := "larger than"
		if tl.Size > 0 {
			size = mcp.HumanSize(tl.Size) + "; over"
		}
		return mcp.View{}, refuse(Unprocessable, "The view %s is %s the limit of %s.", uri, size, mcp.HumanSize(mcp.MaxViewBytes))
	}
	if err != nil {
		return mcp.View{}, appFailure(c, err, viewReadTimeout)
	}
	listed := func() sdk.Meta {
		// The view's settings from the server's resources/list, when its
		// read gave none: a failure leaves the view without them.
		list, _, err := b.opts.Pool.Resources(ctx, owner(uid, c), target, b.opts.ConnectTimeout)
		if err != nil {
			return nil
		}
		for _, r := range list.Resources {
			if r != nil && r.URI == uri {
				return r.Meta
			}
		}
		return nil
	}
	v, err := mcp.ViewFrom(res, uri, listed)
	if refused, ok := errors.AsType[*mcp.ViewRefusedError](err); ok {
		return mcp.View{}, &Error{Kind: Unprocessable, Detail: refused.Detail}
	}
	return v, err
}

// AppCall is a tool call a view makes.
type AppCall struct {
	UserID       string
	ConnectionID string
	Tool         string
	// Arguments is a JSON object (at most MaxAppArguments).
	Arguments json.RawMessage
	// Approved: the user allowed this call (on the approval card the
	// ApprovalRequired refusal made the browser show).
	Approved bool
	// ConfirmReadOnly asks before a read-only tool too, as the chat tab
	// the view is in does for the model's calls.
	ConfirmReadOnly bool
}

// AppCall runs a view's tool call on the caller's connection and answers
// the server's result as it sent it. It is checked as a model's call is:
// the connection is the caller's (NotFound), the tool is on its list
// (NotFound) and may be called by a view (Invalid: its visibility lacks
// "app"), the arguments fit its input schema (Invalid), and a tool that is
// not read-only runs only when the user always allows it as it is now, or
// approved this call (ApprovalRequired otherwise). A user's views may make
// ToolOptions.AppCallsPerMinute calls a minute (RateLimited). The server's
// failure is Upstream, or Timeout; a result the server marks as an error
// is a result.
func (e *Engine) AppCall(ctx context.Context, call AppCall) (*sdk.CallToolResult, error) {
	b := e.tools
	tr, err := b.appTurn(ctx, call.UserID, call.ConnectionID, call.ConfirmReadOnly)
	if err != nil {
		return nil, err
	}
	c := tr.conns[0]
	bt := boundTool{conn: c}
	found := false
	for _, t := range c.Tools {
		if t.Name == call.Tool {
			bt.tool, found = t, true
		}
	}
	switch {
	case !found:
		return nil, refuse(NotFound, "Tool not found on this server.")
	case !bt.tool.VisibleTo(domain.ToolVisibleToApp):
		return nil, refuse(Invalid, "The tool %s on %s is for the model only: its view may not call it.", bt.tool.Name, c.Label())
	}
	args, err := bt.arguments(string(call.Arguments))
	if err != nil {
		return nil, refuse(Invalid, "Invalid arguments: %s", err)
	}
	if ask, _ := tr.needsApproval(bt); ask && !call.Approved {
		return nil, refuse(ApprovalRequired, "%s on %s asks for your approval before it runs.", bt.tool.Name, c.Label())
	}
	if err := b.admitAppCall(ctx, call.UserID); err != nil {
		return nil, err
	}
	target, err := b.target(ctx, call.UserID, c)
	if err != nil {
		return nil, appFailure(c, err, b.opts.CallTimeout)
	}
	run := newCallRun(ctx, b.opts.CallTimeout)
	defer run.end()
	res, err := b.opts.Pool.CallWith(run.ctx, owner(call.UserID, c), target, mcp.CallRequest{Name: bt.tool.Name, Args: args},
		b.opts.ConnectTimeout, b.opts.CallTimeout)
	switch cause := context.Cause(run.ctx); {
	case err == nil:
	case errors.Is(cause, errCallTimeout) && ctx.Err() == nil:
		return nil, refuse(Timeout, "%s", toolFailure(bt, &mcp.Error{Kind: mcp.KindTimeout, Detail: callTimeoutDetail(b.opts.CallTimeout)}))
	default:
		return nil, appFailure(c, err, b.opts.CallTimeout)
	}
	if res.NeedsInput() {
		return nil, refuse(Upstream, "The tool %s on %s asked a question, which a view's call cannot answer.", bt.tool.Name, c.Label())
	}
	return res, nil
}

// appTurn reads the caller's connection id (its tools list read again
// when over a minute old) and the caller's always-allowed tools, as a
// reply does (toolbox.load); another user's or an unknown id is NotFound.
func (b *toolbox) appTurn(ctx context.Context, uid, id string, confirmReadOnly bool) (*turn, error) {
	tr, err := b.load(ctx, uid, []string{id}, confirmReadOnly, false)
	if e, ok := errors.AsType[*Error](err); ok && e.Kind == NotFound {
		return nil, refuse(NotFound, msgAppConnectionNotFound)
	}
	if err != nil {
		return nil, err
	}
	return tr, nil
}

// admitAppCall counts one view's tool call of uid in the minute's window
// (a table item: every instance counts in it), refusing it past the limit.
func (b *toolbox) admitAppCall(ctx context.Context, uid string) error {
	now := b.now()
	win, ok, err := b.st.Admit(ctx, appCallScope, uid, b.opts.AppCallsPerMinute, appCallWindow, now)
	if err != nil {
		return err
	}
	if !ok {
		wait := max(1, int(math.Ceil(win.Ends(appCallWindow).Sub(now).Seconds())))
		return &Error{Kind: RateLimited, RetryAfterSeconds: wait,
			Detail: fmt.Sprintf("Views may run at most %d tools a minute. Try again in %d seconds.", b.opts.AppCallsPerMinute, wait)}
	}
	return nil
}

// appFailure says why a view's request to c's server failed: Timeout when
// it did not answer within budget, Upstream when it failed or refused, in
// shared/mcp's words (never a key). Anything else (the caller's own end,
// the table) is returned as it is.
func appFailure(c domain.MCPConnection, err error, budget time.Duration) error {
	me, ok := errors.AsType[*mcp.Error](err)
	switch {
	case errors.Is(err, context.Canceled):
		return err
	case ok && me.Kind == mcp.KindTimeout, !ok && errors.Is(err, context.DeadlineExceeded):
		return refuse(Timeout, "%s: %s", c.Label(), callTimeoutDetail(budget))
	case ok:
		return refuse(Upstream, "%s: %s", c.Label(), me.Detail)
	}
	return err
}
