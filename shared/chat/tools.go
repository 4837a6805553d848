package chat

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/clip"
	"aiwork/shared/domain"
	"aiwork/shared/llm"
	"aiwork/shared/mcp"
	"aiwork/shared/mcp/reach"
	"aiwork/shared/store"
)

// ToolOptions let the chat call the tools of users' MCP servers. A zero
// value (no Sealer) offers no tools: MCP connection ids are refused.
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
	// LoopbackURLs lets a server's question open a plain http page on
	// loopback (the devserver's rule for loopback servers); otherwise only
	// https pages are opened.
	LoopbackURLs bool
	// AppCallsPerMinute bounds the tool calls a user's MCP App views make
	// (default DefaultAppCallsPerMinute).
	AppCallsPerMinute int
}

// Bounds of what a tool result may carry.
const (
	// MaxToolTextForModel: a result's text is cut here before it goes to the
	// model.
	MaxToolTextForModel = 32 << 10
	// MaxToolResultShown: the content blocks the browser gets.
	MaxToolResultShown = 1 << 20
	// MaxStructuredContent: a result's structured content the browser gets
	// (for the tool's view).
	MaxStructuredContent = 64 << 10
	// toolsFresh: a connection's tools list is read again after this long.
	toolsFresh = time.Minute
	// toolsRefreshTimeout bounds that read; on failure the stored list serves.
	toolsRefreshTimeout = 5 * time.Second
	deniedText          = "The user denied this tool call."
)

// Tool offering limits.
const (
	// MaxMCPConnections is how many MCP connections one message may offer.
	MaxMCPConnections = 10
	// MaxOfferedTools caps the tools offered to a model in one reply (the
	// providers' own caps start at 128).
	MaxOfferedTools = 128
	// maxToolNameLen and the characters below are the strictest provider
	// rule for tool names (OpenAI, Anthropic, Bedrock: ^[a-zA-Z0-9_-]{1,64}$).
	maxToolNameLen = 64
	maxSlugLen     = 24
)

// keepAliveEvery: while a tool runs (up to MCP_TOOL_CALL_TIMEOUT), a
// comment line keeps the stream from looking stalled to the browser and to
// proxies, which give up after 30 s without a byte.
const keepAliveEvery = 10 * time.Second

// toolCalls answers calls[from:], results holding the answers before
// from, and adds the tool turn to the conversation; false when a call
// needs the user first (the reply pauses there: reply.pause): their
// approval, or their answer to the server's question asked through request
// state.
func (r *reply) toolCalls(calls []llm.ToolCall, results []llm.ToolResult, from int) bool {
	for i := from; i < len(calls); i++ {
		c := calls[i]
		view := r.tr.callView(c)
		_ = r.out.data(toolCallFrame{ToolCall: view})
		if bt, ok := r.tr.tools.byName[c.Name]; ok {
			if ask, changed := r.tr.needsApproval(bt); ask {
				seen := store.PrintTool(bt.tool)
				r.paused = r.pausedAt(calls, results, i)
				r.paused.Seen = &seen
				r.pending = approvalCall(view, bt, changed)
				return false
			}
		}
		res, ok := r.runTool(c, nil, calls, results, i)
		if !ok {
			return false
		}
		results = append(results, res)
	}
	r.msgs = append(r.msgs, llm.Message{Role: "tool", ToolResults: results})
	return true
}

// runTool runs calls[i] (c; retry: the answers to the questions it asked
// through request state) with the stall timer stopped (a tool has its own
// bound), a comment every keepAliveEvery meanwhile, what the server sends
// while it runs relayed (progress, log messages, its questions), and
// sends its result frame. False: the server asked through request state,
// or refused the call for its sign-in (signin.go), and the reply paused
// for the answer or the sign-in (r.paused).
func (r *reply) runTool(c llm.ToolCall, retry *pausedElicit, calls []llm.ToolCall, results []llm.ToolResult, i int) (llm.ToolResult, bool) {
	r.stall.Stop()
	defer r.stall.Reset(r.opts.StallTimeout)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(keepAliveEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				_ = r.out.comment("tool running")
			}
		}
	})
	start := time.Now()
	res, view, need, signIn := r.tools.call(r.ctx, r.tr, c, retry, func(run *callRun) *mcp.CallHooks { return r.hooks(run, c) })
	close(done)
	wg.Wait() // no write of the ticker's after this: frames stay whole
	if signIn != nil {
		if r.pauseForSignIn(c, signIn, calls, results, i) {
			return llm.ToolResult{}, false
		}
		res, view = stillRefuses(c, signIn, time.Since(start))
	}
	if need != nil {
		err := r.pauseOn(c, need, calls, results, i)
		if err == nil {
			return llm.ToolResult{}, false
		}
		res, view = questionRefused(c, r.tr.tools.byName[c.Name], err.Error())
	}
	_ = r.out.data(toolResultFrame{ToolResult: view})
	return res, true
}

// toolbox reaches users' MCP servers: it reads the connections a reply
// offers and calls their tools.
type toolbox struct {
	st   *store.Store
	opts ToolOptions
	now  func() time.Time
}

// turn is one reply's tools: what is offered, what runs without asking.
type turn struct {
	uid             string
	tools           toolset
	allowances      map[string][]store.ToolAllowance // by allowKey
	confirmReadOnly bool
	mcpIDs          []string
	// conns are the connections loaded, their tools as read (those not
	// offered to the model too: a view's calls, apps.go).
	conns []domain.MCPConnection
	// agent, when the reply runs as one, is whose allow-list the tools
	// offered keep to (agents.go).
	agent *domain.Agent
}

func allowKey(serverID, tool string) string { return serverID + "\x00" + tool }

// needsApproval: a tool that is not read-only (or any, when the user asked
// to confirm read-only ones too) asks first, unless the user always allows
// it on that server's endpoint as it is defined now. When an allowance of
// the tool no longer matches, changed names what differs: the endpoint
// (allowed elsewhere only), the parts of the definition, or
// store.ChangedUnrecorded for an allowance that kept neither.
func (tr *turn) needsApproval(bt boundTool) (ask bool, changed []string) {
	if bt.tool.ReadOnly && !tr.confirmReadOnly {
		return false, nil
	}
	all := tr.allowances[allowKey(bt.conn.ServerID, bt.tool.Name)]
	endpoint := store.AllowanceEndpoint(bt.conn.EndpointURL)
	elsewhere, unrecorded := false, false
	for _, a := range all {
		switch {
		case !a.Recorded():
			unrecorded = true
		case a.Endpoint != endpoint:
			elsewhere = true
		default:
			changed = a.Print.Changed(store.PrintTool(bt.tool))
			return len(changed) > 0, changed
		}
	}
	switch {
	case elsewhere:
		return true, []string{store.ChangedEndpoint}
	case unrecorded:
		return true, []string{store.ChangedUnrecorded}
	}
	return true, nil
}

// allow lets bt run without asking for the rest of the reply, as the user
// just allowed it always (with the definition print they saw).
func (tr *turn) allow(bt boundTool, seen store.ToolPrint) {
	k := allowKey(bt.conn.ServerID, bt.tool.Name)
	tr.allowances[k] = append(tr.allowances[k], store.ToolAllowance{ServerID: bt.conn.ServerID, Tool: bt.tool.Name,
		Endpoint: store.AllowanceEndpoint(bt.conn.EndpointURL), Print: seen, Destructive: bt.tool.MayDestroy()})
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

// load reads the connections whose tools the reply offers (each the
// caller's own: another user's or an unknown id is refused NotFound) and the caller's
// always-allowed tools, at once; a connection whose tools list is older
// than a minute is read again from its server.
//
// With skipMissing (a resumed reply), a connection deleted meanwhile is
// left out instead.
func (b *toolbox) load(ctx context.Context, uid string, ids []string, confirmReadOnly, skipMissing bool) (*turn, error) {
	return b.loadAs(ctx, uid, ids, confirmReadOnly, skipMissing, nil)
}

// loadAs is load for a reply that runs as agent ag (nil: none): only its
// servers' connections and its allowed tools are offered.
func (b *toolbox) loadAs(ctx context.Context, uid string, ids []string, confirmReadOnly, skipMissing bool, ag *domain.Agent) (*turn, error) {
	tr := &turn{uid: uid, confirmReadOnly: confirmReadOnly, mcpIDs: ids, agent: ag, allowances: map[string][]store.ToolAllowance{}}
	if len(ids) == 0 {
		return tr, nil
	}
	if b.opts.Sealer == nil {
		return nil, refuse(Invalid, "Tools from MCP servers are not available on this server.")
	}
	conns := make([]domain.MCPConnection, len(ids))
	errs := make([]error, len(ids)+1)
	var allowances []store.ToolAllowance
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Go(func() {
			conns[i], errs[i] = b.st.GetMCPConnection(ctx, uid, id)
			if errs[i] == nil {
				conns[i] = b.fresh(ctx, uid, conns[i])
			}
		})
	}
	wg.Go(func() { allowances, errs[len(ids)] = b.st.ToolAllowances(ctx, uid) })
	wg.Wait()
	var found []domain.MCPConnection
	for i, err := range errs {
		switch {
		case errors.Is(err, store.ErrNotFound) && skipMissing:
		case errors.Is(err, store.ErrNotFound):
			return nil, refuse(NotFound, "MCP connection %s not found. Connect the server again in the MCP Registry.", clip.WithEllipsis(ids[i], 100))
		case err != nil:
			return nil, err
		case i < len(conns):
			found = append(found, conns[i])
		}
	}
	tr.use(found, allowances)
	return tr, nil
}

// loadAgent reads the tools of a reply that runs as agent ag: the
// caller's connections to its servers (whatever the request offered: it
// cannot widen them), their tools kept to the allow-list. A server the
// caller has not connected offers nothing; without the chat's tools (no
// Sealer) the agent answers without any.
func (b *toolbox) loadAgent(ctx context.Context, uid string, ag *domain.Agent, confirmReadOnly bool) (*turn, error) {
	tr := &turn{uid: uid, confirmReadOnly: confirmReadOnly, agent: ag, allowances: map[string][]store.ToolAllowance{}}
	if len(ag.Servers) == 0 || b.opts.Sealer == nil {
		return tr, nil
	}
	all, err := b.st.ListMCPConnections(ctx, uid)
	if err != nil {
		return nil, err
	}
	var conns []domain.MCPConnection
	for _, c := range all {
		if usesServer(ag, c.ServerID) && len(conns) < MaxMCPConnections {
			conns = append(conns, c)
			tr.mcpIDs = append(tr.mcpIDs, c.ID)
		}
	}
	if len(conns) == 0 {
		return tr, nil
	}
	var allowances []store.ToolAllowance
	var wg sync.WaitGroup
	for i := range conns {
		wg.Go(func() { conns[i] = b.fresh(ctx, uid, conns[i]) })
	}
	wg.Go(func() { allowances, err = b.st.ToolAllowances(ctx, uid) })
	wg.Wait()
	if err != nil {
		return nil, err
	}
	tr.use(conns, allowances)
	return tr, nil
}

// use offers the tools of conns (an agent's: of its servers, those it
// allows) with the caller's always-allowed tools.
func (tr *turn) use(conns []domain.MCPConnection, allowances []store.ToolAllowance) {
	for _, a := range allowances {
		k := allowKey(a.ServerID, a.Tool)
		tr.allowances[k] = append(tr.allowances[k], a)
	}
	if ag := tr.agent; ag != nil {
		var kept []domain.MCPConnection
		for _, c := range conns {
			if !usesServer(ag, c.ServerID) {
				continue
			}
			c.Tools = slices.DeleteFunc(slices.Clone(c.Tools), func(t domain.MCPTool) bool { return !ag.Allows(c.ServerID, t.Name) })
			kept = append(kept, c)
		}
		conns = kept
	}
	tr.tools, tr.conns = newToolset(conns), conns
}

// fresh reads c's tools again when the stored list is over a minute
// old (or predates stored schemas), and stores what it read; a server that
// does not answer leaves the stored list in use.
func (b *toolbox) fresh(ctx context.Context, uid string, c domain.MCPConnection) domain.MCPConnection {
	if checked, err := time.Parse(time.RFC3339Nano, c.ToolsCheckedAt); err == nil && b.now().Sub(checked) < toolsFresh {
		return c
	}
	target, err := b.target(ctx, uid, c)
	if err != nil {
		slog.WarnContext(ctx, "mcp tools not refreshed", "connection", c.ID, "err", err)
		return c
	}
	rctx, cancel := context.WithTimeout(ctx, toolsRefreshTimeout)
	defer cancel()
	tools, err := b.opts.Pool.Tools(rctx, owner(uid, c), target, b.opts.ConnectTimeout)
	if err != nil {
		b.noteSignInRefused(ctx, uid, c, err)
		slog.InfoContext(ctx, "mcp tools not refreshed", "connection", c.ID, "err", err)
		return c
	}
	c.Tools, c.ToolsCheckedAt = tools, b.now().UTC().Format(time.RFC3339Nano)
	if err := b.st.UpdateMCPConnectionTools(ctx, uid, c.ID, c.Tools, c.ToolsCheckedAt); err != nil && !errors.Is(err, store.ErrNotFound) {
		slog.WarnContext(ctx, "mcp tools not stored", "connection", c.ID, "err", err)
	}
	return c
}

// noteSignInRefused reads err as a refusal a sign-in may lift: true for a
// signed-in connection whose server refused its token (revoked, or short
// of a scope: the wider one is kept for the next sign-in; the connection is
// marked so the registry offers Sign in again), and for a keyless one
// whose server answered with an OAuth challenge (it lets connections
// through and asks for sign-in only for some calls).
func (b *toolbox) noteSignInRefused(ctx context.Context, uid string, c domain.MCPConnection, err error) bool {
	var me *mcp.Error
	if !errors.As(err, &me) {
		return false
	}
	if !c.OAuth {
		keyless := len(c.SealedAPIKey) == 0
		return keyless && (me.Kind == mcp.KindOAuth || me.Kind == mcp.KindInsufficientScope)
	}
	if !me.Rejected() {
		return false
	}
	if err := b.st.MarkMCPConnectionNeedsSignIn(context.WithoutCancel(ctx), uid, c.ID, me.Scope); err != nil && !errors.Is(err, store.ErrNotFound) {
		slog.WarnContext(ctx, "mcp sign-in not marked", "connection", c.ID, "err", err)
	}
	return true
}

// owner names a user's connection in the session pool.
func owner(uid string, c domain.MCPConnection) string { return reach.Owner(uid, c) }

// target is how to reach c: its key unsealed for uid (bound to uid and
// the server: a key sealed for anyone else does not open).
func (b *toolbox) target(ctx context.Context, uid string, c domain.MCPConnection) (mcp.Target, error) {
	return reach.Reacher{St: b.st, Sealer: b.opts.Sealer, Client: b.opts.Pool.Client(), Now: b.now}.Target(ctx, uid, c)
}

// Frames of the tool loop.
type (
	toolCallView struct {
		ID         string          `json:"id"`
		ServerID   string          `json:"server_id"`
		ServerName string          `json:"server_name"` // its Label: an override's host beside the name
		Tool       string          `json:"tool"`
		Arguments  json.RawMessage `json:"arguments"`
		// ConnectionID is the MCP connection the call runs on ("" for a
		// tool no connection offers): a view's reads and calls go there.
		ConnectionID string `json:"connection_id"`
		// UI names the tool's view (MCP Apps), when it declares one.
		UI *toolUIView `json:"ui,omitempty"`
	}
	toolUIView struct {
		ResourceURI string `json:"resource_uri"`
	}
	toolResultView struct {
		ID         string            `json:"id"`
		IsError    bool              `json:"is_error"`
		Content    []json.RawMessage `json:"content"`
		DurationMS int64             `json:"duration_ms"`
		Denied     bool              `json:"denied,omitempty"`
		Truncated  bool              `json:"truncated,omitempty"`
		// StructuredContent is the result's structuredContent as the
		// server sent it, for the tool's view (at most
		// MaxStructuredContent; left out past it).
		StructuredContent json.RawMessage `json:"structured_content,omitempty"`
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
		// Endpoint is where the tool is reached, host and path
		// (store.EndpointLabel).
		Endpoint string `json:"endpoint"`
		// Changed: the user always allowed this tool, but not as it is now
		// (needsApproval names the parts); absent otherwise.
		Changed []string `json:"changed,omitempty"`
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
		v.ServerID, v.ServerName, v.Tool, v.ConnectionID = bt.conn.ServerID, bt.conn.Label(), bt.tool.Name, bt.conn.ID
		if bt.tool.UIResourceURI != "" {
			v.UI = &toolUIView{ResourceURI: bt.tool.UIResourceURI}
		}
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

func approvalCall(v toolCallView, bt boundTool, changed []string) approvalCallView {
	a := annotationsView{ReadOnlyHint: bt.tool.ReadOnly}
	if !bt.tool.DestructiveHintAbsent {
		d := bt.tool.Destructive
		a.DestructiveHint = &d
	}
	return approvalCallView{toolCallView: v, Description: bt.tool.Description, Annotations: a,
		Endpoint: store.EndpointLabel(store.AllowanceEndpoint(bt.conn.EndpointURL)), Changed: changed}
}

// textBlock is a text content block, for results the chat makes itself.
func textBlock(text string) []json.RawMessage {
	b, _ := json.Marshal(map[string]string{"type": "text", "text": text})
	return []json.RawMessage{b}
}

// call validates a call's arguments and calls its tool on the user's
// server, answering the result for the model and the frame for the
// browser; hooks hear the server while the call runs. retry, when set,
// calls again with the answers to the questions the server asked through
// request state; an input-required result answers need, the questions to
// put to the user, and a call the server refused for its sign-in
// answers signIn (the result is then empty). Nothing here fails the
// reply: a failure is a tool error the model is told about.
func (b *toolbox) call(ctx context.Context, tr *turn, c llm.ToolCall, retry *pausedElicit, hooks func(*callRun) *mcp.CallHooks) (llm.ToolResult, toolResultView, *pausedElicit, *signInNeed) {
	start := time.Now()
	fail := func(detail string) (llm.ToolResult, toolResultView, *pausedElicit, *signInNeed) {
		return llm.ToolResult{CallID: c.ID, Name: c.Name, Content: detail, IsError: true},
			toolResultView{ID: c.ID, IsError: true, Content: textBlock(detail), DurationMS: time.Since(start).Milliseconds()}, nil, nil
	}
	bt, ok := tr.tools.byName[c.Name]
	if !ok && tr.agent != nil && !allowsTool(tr.agent, c.Name) {
		// Never sent to a server: the model is told the agent's rule.
		return fail(fmt.Sprintf(msgAgentNoTool, llm.BareToolName(c.Name)))
	}
	if !ok {
		return fail(fmt.Sprintf("The tool %q is not available: its MCP server is no longer connected, or no longer offers it.", llm.BareToolName(c.Name)))
	}
	args, err := bt.arguments(c.Arguments)
	if err != nil {
		return fail("Invalid arguments: " + err.Error())
	}
	target, err := b.target(ctx, tr.uid, bt.conn)
	if err != nil {
		return fail(toolFailure(bt, err))
	}
	run := newCallRun(ctx, b.opts.CallTimeout)
	defer run.end()
	req := mcp.CallRequest{Name: bt.tool.Name, Args: args, Hooks: hooks(run)}
	rounds := 0
	if retry != nil {
		req.RequestState, rounds = retry.RequestState, retry.Rounds
		if req.InputResponses, err = retry.responses(); err != nil {
			return fail(toolFailure(bt, err))
		}
	}
	res, err := b.opts.Pool.CallWith(run.ctx, owner(tr.uid, bt.conn), target, req, b.opts.ConnectTimeout, b.opts.CallTimeout)
	switch cause := context.Cause(run.ctx); {
	case err == nil:
	case errors.Is(cause, errNotAnswered):
		return fail(fmt.Sprintf("The tool %s on %s was cancelled: %s", bt.tool.Name, bt.conn.Label(), msgNotAnswered))
	case errors.Is(cause, errCallTimeout) && ctx.Err() == nil:
		return fail(toolFailure(bt, &mcp.Error{Kind: mcp.KindTimeout, Detail: callTimeoutDetail(b.opts.CallTimeout)}))
	default:
		if ctx.Err() == nil { // the client is still there: worth a line
			slog.InfoContext(ctx, "mcp tool call failed", "server", bt.conn.ServerID, "tool", bt.tool.Name, "err", err)
		}
		if need := b.refusedSignIn(ctx, tr.uid, bt, err); need != nil {
			return llm.ToolResult{}, toolResultView{}, nil, need
		}
		return fail(toolFailure(bt, err))
	}
	if res.NeedsInput() {
		need, err := inputRequired(res, rounds)
		if err != nil {
			return fail(fmt.Sprintf("The tool %s on %s failed: %s.", bt.tool.Name, bt.conn.Label(), err))
		}
		return llm.ToolResult{}, toolResultView{}, need, nil
	}
	out := mcp.Output(res, MaxToolResultShown, MaxToolTextForModel)
	return llm.ToolResult{CallID: c.ID, Name: c.Name, Content: out.Text, IsError: out.IsError},
		toolResultView{ID: c.ID, IsError: out.IsError, Content: out.Content, Truncated: out.Truncated, DurationMS: time.Since(start).Milliseconds(),
			StructuredContent: structuredContent(res)}, nil, nil
}

// structuredContent is res's structuredContent as JSON for the frame, nil
// when it has none or it is over MaxStructuredContent (a view then has the
// content blocks alone).
func structuredContent(res *sdk.CallToolResult) json.RawMessage {
	if res == nil || res.StructuredContent == nil {
		return nil
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil || len(b) > MaxStructuredContent || string(b) == "null" {
		return nil
	}
	return b
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

// toolset is what one reply offers a model: each tool of the chosen MCP
// connections under a model-safe name, and how to reach it.
type toolset struct {
	offered []llm.Tool
	byName  map[string]boundTool
	// note says what was left out (tools past MaxOfferedTools), for a
	// notice frame; empty when nothing was.
	note string
}

// boundTool is an offered tool and the connection that serves it.
type boundTool struct {
	conn domain.MCPConnection
	tool domain.MCPTool
}

// newToolset names the connections' tools for the models (not those a
// server keeps for its views: visibility without "model"). Names are
// "<server-slug>__<tool>" cut to the providers' rules; a name already taken
// (two servers, or two tools that clean to one name) gets a suffix made
// from a hash of its connection and tool, so the same connections always
// give the same names, whichever order they come in (a paused reply is
// resumed with the names the model saw).
func newToolset(conns []domain.MCPConnection) toolset {
	conns = slices.SortedFunc(slices.Values(conns), func(a, b domain.MCPConnection) int { return strings.Compare(a.ID, b.ID) })
	ts := toolset{byName: map[string]boundTool{}}
	total := 0
	for _, c := range conns {
		for _, t := range c.Tools {
			if t.VisibleTo(domain.ToolVisibleToModel) {
				total++
			}
		}
	}
	for _, c := range conns {
		slug := cleanName(c.ServerID, maxSlugLen)
		for _, t := range c.Tools {
			if !t.VisibleTo(domain.ToolVisibleToModel) {
				continue // an MCP App's own tool: only its view calls it (apps.go)
			}
			if len(ts.offered) == MaxOfferedTools {
				ts.note = fmt.Sprintf("Your connected servers offer %d tools; the model is offered the first %d. Turn off servers you do not need in Tools.", total, MaxOfferedTools)
				return ts
			}
			name := uniqueName(slug, t.Name, c.ID, ts.byName)
			ts.byName[name] = boundTool{conn: c, tool: t}
			ts.offered = append(ts.offered, llm.Tool{Name: name, Description: describe(c, t), InputSchema: objectSchema(t.InputSchema)})
		}
	}
	return ts
}

// uniqueName is the model-facing name of a connection's tool, unique in
// taken.
func uniqueName(slug, tool, connID string, taken map[string]boundTool) string {
	name := slug + "__" + cleanName(tool, maxToolNameLen-len(slug)-2)
	if _, clash := taken[name]; !clash {
		return name
	}
	sum := sha256.Sum256([]byte(connID + "\x00" + tool))
	tag := hex.EncodeToString(sum[:])
	for n := 4; ; n += 2 { // a longer tag in the unlikely case of a second clash
		suffix := "_" + tag[:n]
		base := name
		if len(base)+len(suffix) > maxToolNameLen {
			base = base[:maxToolNameLen-len(suffix)]
		}
		if _, clash := taken[base+suffix]; !clash {
			return base + suffix
		}
	}
}

// cleanName keeps [a-zA-Z0-9_-] (anything else becomes '_'), at most max
// bytes, never empty.
func cleanName(s string, max int) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() == max {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "tool"
	}
	return b.String()
}

// describe is the tool's description for the model, naming its server
// (two servers' tools may read alike).
func describe(c domain.MCPConnection, t domain.MCPTool) string {
	d := strings.TrimSpace(t.Description)
	if d == "" {
		d = t.Title
	}
	return fmt.Sprintf("%s (tool %q of the MCP server %s)", d, t.Name, c.Label())
}

// objectSchema is the schema offered to models: the tool's, which MCP
// requires to be an object schema, else the permissive object.
func objectSchema(s json.RawMessage) json.RawMessage {
	var probe struct {
		Type any `json:"type"`
	}
	if len(s) == 0 || json.Unmarshal(s, &probe) != nil || probe.Type != "object" {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return s
}

// resolveSchema prepares a tool's schema for validating arguments; nil
// when it does not resolve (arguments are then only required to be an
// object). References are never fetched. It runs when a tool is called,
// not when it is offered: a message offers every connected tool and calls
// few, and resolving a schema costs more than the rest of offering it.
func resolveSchema(s json.RawMessage) *jsonschema.Resolved {
	if len(s) == 0 {
		return nil
	}
	var schema jsonschema.Schema
	if err := json.Unmarshal(s, &schema); err != nil {
		return nil
	}
	r, err := schema.Resolve(&jsonschema.ResolveOptions{Loader: func(*url.URL) (*jsonschema.Schema, error) {
		return nil, fmt.Errorf("remote schema references are not followed")
	}})
	if err != nil {
		return nil
	}
	return r
}

// arguments parses and validates a call's arguments against its tool's
// schema; the error is what the model is told (the server is never sent
// arguments that fail).
func (b boundTool) arguments(raw string) (map[string]any, error) {
	if strings.TrimSpace(raw) == "" {
		raw = "{}"
	}
	var args map[string]any
	if err := json.Unmarshal([]byte(raw), &args); err != nil || args == nil {
		return nil, fmt.Errorf("the arguments must be a JSON object (got %s)", clip.WithEllipsis(raw, 200))
	}
	if schema := resolveSchema(b.tool.InputSchema); schema != nil {
		if err := schema.Validate(args); err != nil {
			// Models often send null for an optional argument they leave
			// out; where the schema does not take null, it is left out.
			if !dropOptionalNulls(args, b.tool.InputSchema) || schema.Validate(args) != nil {
				return nil, fmt.Errorf("the arguments do not match the tool's input schema: %s", clip.WithEllipsis(err.Error(), 500))
			}
		}
	}
	return args, nil
}

// dropOptionalNulls removes the null arguments the schema does not require,
// and tells whether it removed any.
func dropOptionalNulls(args map[string]any, schema json.RawMessage) bool {
	var s struct {
		Required []string `json:"required"`
	}
	_ = json.Unmarshal(schema, &s)
	dropped := false
	for k, v := range args {
		if v == nil && !slices.Contains(s.Required, k) {
			delete(args, k)
			dropped = true
		}
	}
	return dropped
}
