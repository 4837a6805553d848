package chatapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/llm"
	"aiwork/shared/mcp"
	"aiwork/shared/mcp/mcpauth"
	"aiwork/shared/store"
)

// ToolOptions let the chat call the tools of users' MCP servers. A zero
// value (no Sealer) offers no tools: mcp_connection_ids are refused.
type ToolOptions struct {
	// Sealer opens users' sealed server keys: only here, only for the
	// caller's own connections; a key never reaches a model, a frame or a
	// log line.
	Sealer *mcp.Sealer
	// Pool keeps sessions to users' servers warm between tool calls; its
	// client carries the outbound rules (mcp.Policy).
	Pool *mcp.Pool
	// MaxRounds: model calls that may ask for tools in one reply (default 8).
	MaxRounds int
	// CallTimeout bounds one tool call (default 60 s); ConnectTimeout
	// opening a session (default 15 s).
	CallTimeout    time.Duration
	ConnectTimeout time.Duration
}

// Bounds of what a tool result may carry.
const (
	// MaxToolTextForModel: a result's text is cut here before it goes to the
	// model.
	MaxToolTextForModel = 32 << 10
	// MaxToolResultShown: the content blocks the browser gets.
	MaxToolResultShown = 1 << 20
	// toolsFresh: a connection's tools list is read again after this long.
	toolsFresh = time.Minute
	// toolsRefreshTimeout bounds that read; on failure the stored list serves.
	toolsRefreshTimeout = 5 * time.Second
	deniedText          = "The user denied this tool call."
)

// turn is one reply's tools: what is offered, what runs without asking.
type turn struct {
	uid             string
	tools           toolset
	allowed         map[string]bool // serverID + "\x00" + tool
	confirmReadOnly bool
	mcpIDs          []string
}

func allowKey(serverID, tool string) string { return serverID + "\x00" + tool }

// needsApproval: a tool that is not read-only (or any, when the user asked
// to confirm read-only ones too) asks first, unless the user always allows
// it on that server.
func (tr *turn) needsApproval(bt boundTool) bool {
	if bt.tool.ReadOnly && !tr.confirmReadOnly {
		return false
	}
	return !tr.allowed[allowKey(bt.conn.ServerID, bt.tool.Name)]
}

// bindings names the connection each call reaches ("" for none).
func (tr *turn) bindings(calls []llm.ToolCall) []string {
	out := make([]string, len(calls))
	for i, c := range calls {
		out[i] = tr.tools.byName[c.Name].conn.ID
	}
	return out
}

// keepBindings withdraws the names of a resumed round's calls that no
// longer reach the connection they reached when the model called them (it
// was disconnected, and the name now falls to another): such a call fails
// as no longer connected, never running somewhere the user did not see.
func (tr *turn) keepBindings(calls []llm.ToolCall, bound []string) {
	for i, c := range calls {
		if bt, ok := tr.tools.byName[c.Name]; ok && (i >= len(bound) || bt.conn.ID != bound[i]) {
			delete(tr.tools.byName, c.Name)
		}
	}
}

// loadTurn reads the connections whose tools the reply offers (each the
// caller's own: another user's or an unknown id is a 404) and the caller's
// always-allowed tools, at once; a connection whose tools list is older
// than a minute is read again from its server.
//
// With skipMissing (a resumed reply), a connection deleted meanwhile is
// left out instead.
func (s *Service) loadTurn(ctx context.Context, uid string, ids []string, confirmReadOnly, skipMissing bool) (*turn, error) {
	tr := &turn{uid: uid, confirmReadOnly: confirmReadOnly, mcpIDs: ids, allowed: map[string]bool{}}
	if len(ids) == 0 {
		return tr, nil
	}
	if s.tools.Sealer == nil {
		return nil, httpx.Invalid("Tools from MCP servers are not available on this server.")
	}
	conns := make([]domain.MCPConnection, len(ids))
	errs := make([]error, len(ids)+1)
	var allowances []store.ToolAllowance
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Go(func() {
			conns[i], errs[i] = s.st.GetMCPConnection(ctx, uid, id)
			if errs[i] == nil {
				conns[i] = s.freshTools(ctx, uid, conns[i])
			}
		})
	}
	wg.Go(func() { allowances, errs[len(ids)] = s.st.ToolAllowances(ctx, uid) })
	wg.Wait()
	var found []domain.MCPConnection
	for i, err := range errs {
		switch {
		case errors.Is(err, store.ErrNotFound) && skipMissing:
		case errors.Is(err, store.ErrNotFound):
			return nil, httpx.NotFound(fmt.Sprintf("MCP connection %s not found. Connect the server again in the MCP Registry.", clip(ids[i], 100)))
		case err != nil:
			return nil, err
		case i < len(conns):
			found = append(found, conns[i])
		}
	}
	for _, a := range allowances {
		tr.allowed[allowKey(a.ServerID, a.Tool)] = true
	}
	tr.tools = newToolset(found)
	return tr, nil
}

// freshTools reads c's tools again when the stored list is over a minute
// old (or predates stored schemas), and stores what it read; a server that
// does not answer leaves the stored list in use.
func (s *Service) freshTools(ctx context.Context, uid string, c domain.MCPConnection) domain.MCPConnection {
	if checked, err := time.Parse(time.RFC3339Nano, c.ToolsCheckedAt); err == nil && s.opts.Now().Sub(checked) < toolsFresh {
		return c
	}
	target, err := s.target(ctx, uid, c)
	if err != nil {
		slog.WarnContext(ctx, "mcp tools not refreshed", "connection", c.ID, "err", err)
		return c
	}
	rctx, cancel := context.WithTimeout(ctx, toolsRefreshTimeout)
	defer cancel()
	tools, err := s.tools.Pool.Tools(rctx, owner(uid, c), target, s.tools.ConnectTimeout)
	if err != nil {
		s.noteSignInRefused(ctx, uid, c, err)
		slog.InfoContext(ctx, "mcp tools not refreshed", "connection", c.ID, "err", err)
		return c
	}
	c.Tools, c.ToolsCheckedAt = tools, s.opts.Now().UTC().Format(time.RFC3339Nano)
	if err := s.st.UpdateMCPConnectionTools(ctx, uid, c.ID, c.Tools, c.ToolsCheckedAt); err != nil && !errors.Is(err, store.ErrNotFound) {
		slog.WarnContext(ctx, "mcp tools not stored", "connection", c.ID, "err", err)
	}
	return c
}

// noteSignInRefused marks a signed-in connection whose server refused its
// token (revoked, or short of a scope: the wider one is kept for the next
// sign-in), so the registry offers Sign in again; true when it did.
func (s *Service) noteSignInRefused(ctx context.Context, uid string, c domain.MCPConnection, err error) bool {
	var me *mcp.Error
	if !c.OAuth || !errors.As(err, &me) || !me.Rejected() {
		return false
	}
	if err := s.st.MarkMCPConnectionNeedsSignIn(context.WithoutCancel(ctx), uid, c.ID, me.Scope); err != nil && !errors.Is(err, store.ErrNotFound) {
		slog.WarnContext(ctx, "mcp sign-in not marked", "connection", c.ID, "err", err)
	}
	return true
}

// owner names a user's connection in the session pool.
func owner(uid string, c domain.MCPConnection) string { return uid + "/" + c.ID }

// target is how to reach c: its key unsealed for uid (bound to uid and
// the server: a key sealed for anyone else does not open).
func (s *Service) target(ctx context.Context, uid string, c domain.MCPConnection) (mcp.Target, error) {
	t := mcp.Target{Endpoint: c.EndpointURL, Transport: c.Transport, KeyHeader: c.APIKeyHeader}
	if len(c.SealedAPIKey) == 0 {
		return t, nil
	}
	if c.OAuth {
		k := mcpauth.Keeper{St: s.st, Sealer: s.tools.Sealer, Client: s.tools.Pool.Client(), Now: s.opts.Now}
		token, err := k.AccessToken(ctx, uid, c)
		if errors.Is(err, mcpauth.ErrReauth) {
			return mcp.Target{}, &mcp.Error{Kind: mcp.KindAuthRequired, Detail: fmt.Sprintf("Sign in to %s again in the MCP Registry.", c.Label())}
		}
		if err != nil {
			return mcp.Target{}, err
		}
		t.APIKey, t.KeyHeader = token, "Authorization"
		return t, nil
	}
	key, err := s.tools.Sealer.Open(c.SealedAPIKey, uid, c.ServerID)
	if err != nil {
		return mcp.Target{}, &mcp.Error{Kind: mcp.KindKeyRefused, Detail: "The stored API key for this server could not be read; connect the server again."}
	}
	if t.KeyHeader == "" { // a connection made before the header was recorded
		srv, err := s.st.GetMCPServer(ctx, c.ServerID)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return mcp.Target{}, err
		}
		t.KeyHeader = srv.APIKeyHeader
	}
	t.APIKey = key
	return t, nil
}

// Frames of the tool loop.
type (
	toolCallView struct {
		ID         string          `json:"id"`
		ServerID   string          `json:"server_id"`
		ServerName string          `json:"server_name"` // its Label: an override's host beside the name
		Tool       string          `json:"tool"`
		Arguments  json.RawMessage `json:"arguments"`
	}
	toolResultView struct {
		ID         string            `json:"id"`
		IsError    bool              `json:"is_error"`
		Content    []json.RawMessage `json:"content"`
		DurationMS int64             `json:"duration_ms"`
		Denied     bool              `json:"denied,omitempty"`
		Truncated  bool              `json:"truncated,omitempty"`
	}
	approvalView struct {
		Token     string           `json:"token"`
		ExpiresAt string           `json:"expires_at"`
		Call      approvalCallView `json:"call"`
	}
	approvalCallView struct {
		toolCallView
		Description string          `json:"description"`
		Annotations annotationsView `json:"annotations"`
	}
	annotationsView struct {
		ReadOnlyHint    bool  `json:"readOnlyHint"`
		DestructiveHint *bool `json:"destructiveHint,omitempty"`
	}
)

// callView is a call as the browser sees it: its server and the tool's own
// name (not the model-facing one), the arguments as JSON (as text when the
// model wrote something else).
func (tr *turn) callView(c llm.ToolCall) toolCallView {
	v := toolCallView{ID: c.ID, Tool: llm.BareToolName(c.Name)}
	if bt, ok := tr.tools.byName[c.Name]; ok {
		v.ServerID, v.ServerName, v.Tool = bt.conn.ServerID, bt.conn.Label(), bt.tool.Name
	}
	v.Arguments = json.RawMessage(c.Arguments)
	if !json.Valid(v.Arguments) {
		v.Arguments, _ = json.Marshal(c.Arguments)
	}
	if len(c.Arguments) == 0 {
		v.Arguments = json.RawMessage(`{}`)
	}
	return v
}

func approvalCall(v toolCallView, bt boundTool) approvalCallView {
	a := annotationsView{ReadOnlyHint: bt.tool.ReadOnly}
	if !bt.tool.DestructiveHintAbsent {
		d := bt.tool.Destructive
		a.DestructiveHint = &d
	}
	return approvalCallView{toolCallView: v, Description: bt.tool.Description, Annotations: a}
}

// textBlock is a text content block, for results the chat makes itself.
func textBlock(text string) []json.RawMessage {
	b, _ := json.Marshal(map[string]string{"type": "text", "text": text})
	return []json.RawMessage{b}
}

// runCall validates a call's arguments and calls its tool on the user's
// server, answering the result for the model and the frame for the
// browser. Nothing here fails the reply: a failure is a tool error the
// model is told about.
func (s *Service) runCall(ctx context.Context, tr *turn, c llm.ToolCall) (llm.ToolResult, toolResultView) {
	start := time.Now()
	fail := func(detail string) (llm.ToolResult, toolResultView) {
		return llm.ToolResult{CallID: c.ID, Name: c.Name, Content: detail, IsError: true},
			toolResultView{ID: c.ID, IsError: true, Content: textBlock(detail), DurationMS: time.Since(start).Milliseconds()}
	}
	bt, ok := tr.tools.byName[c.Name]
	if !ok {
		return fail(fmt.Sprintf("The tool %q is not available: its MCP server is no longer connected, or no longer offers it.", llm.BareToolName(c.Name)))
	}
	args, err := bt.arguments(c.Arguments)
	if err != nil {
		return fail("Invalid arguments: " + err.Error())
	}
	target, err := s.target(ctx, tr.uid, bt.conn)
	if err != nil {
		return fail(toolFailure(bt, err))
	}
	cctx, cancel := context.WithTimeout(ctx, s.tools.CallTimeout)
	defer cancel()
	res, err := s.tools.Pool.Call(cctx, owner(tr.uid, bt.conn), target, bt.tool.Name, args, s.tools.ConnectTimeout, s.tools.CallTimeout)
	if err != nil {
		if ctx.Err() == nil { // the client is still there: worth a line
			slog.InfoContext(ctx, "mcp tool call failed", "server", bt.conn.ServerID, "tool", bt.tool.Name, "err", err)
		}
		if s.noteSignInRefused(ctx, tr.uid, bt.conn, err) {
			return fail(fmt.Sprintf("The tool %s on %s failed: the server no longer accepts your sign-in. Sign in to %s again in the MCP Registry.",
				bt.tool.Name, bt.conn.Label(), bt.conn.Label()))
		}
		return fail(toolFailure(bt, err))
	}
	out := mcp.Output(res, MaxToolResultShown, MaxToolTextForModel)
	return llm.ToolResult{CallID: c.ID, Name: c.Name, Content: out.Text, IsError: out.IsError},
		toolResultView{ID: c.ID, IsError: out.IsError, Content: out.Content, Truncated: out.Truncated, DurationMS: time.Since(start).Milliseconds()}
}

// toolFailure says why a call did not run, without secrets: shared/mcp's
// details never hold the key.
func toolFailure(bt boundTool, err error) string {
	var me *mcp.Error
	if errors.As(err, &me) {
		return fmt.Sprintf("The tool %s on %s failed: %s", bt.tool.Name, bt.conn.Label(), me.Detail)
	}
	if errors.Is(err, context.Canceled) {
		return fmt.Sprintf("The tool %s on %s was cancelled.", bt.tool.Name, bt.conn.Label())
	}
	slog.Error("mcp tool call failed", "err", err)
	return fmt.Sprintf("The tool %s on %s failed.", bt.tool.Name, bt.conn.Label())
}

// denied is the result of a call the user refused.
func denied(c llm.ToolCall) (llm.ToolResult, toolResultView) {
	return llm.ToolResult{CallID: c.ID, Name: c.Name, Content: deniedText, IsError: true},
		toolResultView{ID: c.ID, IsError: true, Denied: true, Content: textBlock(deniedText)}
}
