package chat

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/llm"
	"aiwork/shared/mcp"
	"aiwork/shared/store"
)

// A signed-in server may refuse a tool call itself (401: the token is no
// longer good; 403 insufficient_scope: the call needs a scope the sign-in
// did not ask for), after it let the connection and its tools list
// through; a server connected without signing in may ask for sign-in (an
// OAuth challenge) only when one of its tools is called. The reply then
// pauses as for an approval: the tool block gets a tool_signin frame (the
// server, its connection, the scope it asked for, a single-use token) and
// the stream ends without [DONE]. The user signs in to that connection
// (the sign-in asks for the scope, plus what the connection had; a keyless
// connection becomes a signed-in one, same id), and the reply resumes
// with the token on any instance: the call runs again, in the same reply.
// A server that still refuses after maxSignIns sign-ins is not asked
// again: the call fails saying so.

// SignInTTL is how long a reply waits for its user to sign in: a sign-in
// takes longer than a click (the server's page, maybe an account there).
const SignInTTL = 15 * time.Minute

// maxSignIns bounds the sign-ins one call asks for: with the first
// sign-in at connect, three authorization requests at most, as the MCP
// conformance suite's retry limit wants.
const maxSignIns = 2

// SignIn resumes a reply paused until its user signed in: Token from the
// tool_signin frame, or ID (its hash, as history keeps it).
type SignIn struct {
	Token string
	ID    string
}

func (s SignIn) key() string { return pauseKey(s.Token, s.ID) }

// pausedSignIn is what a reply paused for a sign-in keeps of it.
type pausedSignIn struct {
	MCPConnectionID string `json:"mcp_connection_id"`
	ServerID        string `json:"server_id"`
	Scope           string `json:"scope,omitempty"`
	// Tries: the sign-ins this call asked for, this one included.
	Tries int `json:"tries"`
}

// signInNeed is a call its server refused for its sign-in.
type signInNeed struct {
	conn   domain.MCPConnection
	tool   string
	scope  string // what the challenge asked for ("" when it named none)
	stepUp bool   // 403 insufficient_scope: signed in, but short of a scope
	first  bool   // connected without signing in: the server asks only now
}

// refusedSignIn reads a call's failure as a sign-in the server refused
// (marking the connection for Sign in again); nil for any other failure.
func (b *toolbox) refusedSignIn(ctx context.Context, uid string, bt boundTool, err error) *signInNeed {
	if !b.noteSignInRefused(ctx, uid, bt.conn, err) {
		return nil
	}
	var me *mcp.Error
	errors.As(err, &me)
	return &signInNeed{conn: bt.conn, tool: bt.tool.Name, scope: me.Scope, stepUp: me.Kind == mcp.KindInsufficientScope, first: !bt.conn.OAuth}
}

// Frames of a sign-in pause.
type (
	toolSigninFrame struct {
		ToolSignin toolSigninView `json:"tool_signin"`
	}
	toolSigninView struct {
		ID           string `json:"id"` // the call's
		ServerID     string `json:"server_id"`
		ServerName   string `json:"server_name"`
		ConnectionID string `json:"connection_id"`
		EndpointURL  string `json:"endpoint_url"`
		Scope        string `json:"scope"`
		Reason       string `json:"reason"`
		// Token resumes the reply (single use); SigninID is its hash, which
		// is all history keeps (recorder.frame leaves the token out).
		Token     string `json:"token,omitempty"`
		SigninID  string `json:"signin_id"`
		ExpiresAt string `json:"expires_at"`
	}
)

// signInReason is the tool block's sentence.
func signInReason(n *signInNeed) string {
	name := n.conn.Label()
	if n.first {
		return fmt.Sprintf("%s needs you to sign in before %s can run.", name, n.tool)
	}
	if n.stepUp {
		if n.scope != "" {
			return fmt.Sprintf("%s needs you to sign in again to allow %s (scope %s) before %s can run.", name, n.tool, n.scope, n.tool)
		}
		return fmt.Sprintf("%s needs you to sign in again with wider access before %s can run.", name, n.tool)
	}
	return fmt.Sprintf("%s needs you to sign in again before %s can run: it no longer accepts your sign-in.", name, n.tool)
}

// stillRefuses is the call's result once its server refused it after
// maxSignIns sign-ins.
func stillRefuses(c llm.ToolCall, n *signInNeed, duration time.Duration) (llm.ToolResult, toolResultView) {
	name := n.conn.Label()
	text := fmt.Sprintf("%s still refuses after signing in with the scope it asked for, so %s did not run.", name, n.tool)
	return llm.ToolResult{CallID: c.ID, Name: c.Name, Content: fmt.Sprintf("The tool %s on %s failed: %s", n.tool, name, text), IsError: true},
		toolResultView{ID: c.ID, IsError: true, Content: textBlock(text), DurationMS: duration.Milliseconds()}
}

// pauseForSignIn pauses the reply on calls[i] (c) until its user signed in
// to n's server; false when c asked for maxSignIns sign-ins already (the
// caller fails it instead).
func (r *reply) pauseForSignIn(c llm.ToolCall, n *signInNeed, calls []llm.ToolCall, results []llm.ToolResult, i int) bool {
	tries := r.signInTries + 1
	if tries > maxSignIns {
		return false
	}
	r.paused = r.pausedAt(calls, results, i)
	r.paused.SignIn = &pausedSignIn{MCPConnectionID: n.conn.ID, ServerID: n.conn.ServerID, Scope: n.scope, Tries: tries}
	r.pendingSignIn = toolSigninView{ID: c.ID, ServerID: n.conn.ServerID, ServerName: n.conn.Label(), ConnectionID: n.conn.ID,
		EndpointURL: n.conn.EndpointURL, Scope: n.scope, Reason: signInReason(n)}
	return true
}

// pauseOnSignIn stores the reply paused for a sign-in and ends the stream
// with its tool_signin frame (no [DONE]: the reply is not over).
func (r *reply) pauseOnSignIn() error {
	state, err := r.paused.encode()
	var token string
	var expires time.Time
	if err == nil {
		token = newToken("ts_")
		expires = r.opts.Now().Add(SignInTTL)
		err = r.st.SaveToolApproval(context.WithoutCancel(r.parent), r.uid, tokenHash(token),
			store.ToolApproval{State: state, Expires: expires, ConnectionID: r.paused.ConnectionID, Kind: store.ToolPauseSignIn})
	}
	if err != nil {
		slog.ErrorContext(r.parent, "reply not paused for a sign-in", "err", err)
		detail := "The reply could not be paused for you to sign in. Please try again."
		if err == errTooLongToPause {
			detail = "This conversation is too long to pause for you to sign in. Start a new chat tab."
		}
		_ = r.out.error(detail)
		return nil
	}
	v := r.pendingSignIn
	v.Token, v.SigninID, v.ExpiresAt = token, tokenHash(token), expires.UTC().Format(time.RFC3339)
	_ = r.out.data(toolSigninFrame{ToolSignin: v})
	return nil
}

// takeSignIn takes the paused reply req.SignIn resumes, once.
func (e *Engine) takeSignIn(ctx context.Context, req Request, now time.Time) (pausedReply, error) {
	a, err := e.st.TakeToolPause(ctx, req.UserID, req.SignIn.key(), store.ToolPauseSignIn, req.ConnectionID, now)
	switch {
	case errors.Is(err, store.ErrApprovalOtherConnection):
		return pausedReply{}, refuse(Conflict, "This sign-in belongs to another chat connection.")
	case errors.Is(err, store.ErrApprovalUnknown):
		return pausedReply{}, refuse(NotFound, "This sign-in is not known: the reply it paused belongs to another account or no longer exists.")
	case errors.Is(err, store.ErrApprovalUsed):
		return pausedReply{}, refuse(Conflict, "This reply already went on after the sign-in.")
	case errors.Is(err, store.ErrApprovalExpired):
		return pausedReply{}, refuse(Conflict, "This sign-in expired: a paused reply waits %d minutes. Send your message again.", int(SignInTTL.Minutes()))
	case err != nil:
		return pausedReply{}, err
	}
	p, err := decodePaused(a.State)
	if err != nil {
		return pausedReply{}, fmt.Errorf("resume paused reply: %w", err)
	}
	if p.SignIn == nil {
		return pausedReply{}, fmt.Errorf("paused reply: no sign-in")
	}
	return p, nil
}
