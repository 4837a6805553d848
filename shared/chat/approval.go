package chat

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/llm"
	"aiwork/shared/store"
)

// ApprovalTTL is how long a reply waits for the user's decision on a tool
// call.
const ApprovalTTL = 10 * time.Minute

// maxPausedBytes keeps a paused reply's item well inside DynamoDB's 400 KB.
const maxPausedBytes = 300 << 10

// pause stores the paused reply, with what the reply spent so far, and
// ends the stream with its tool_approval event (no [DONE]: the reply is
// not over).
func (r *reply) pause(spent llm.Usage) error {
	r.paused.Usage = spent
	if r.paused.Elicit != nil {
		return r.pauseForQuestion()
	}
	if r.paused.SignIn != nil {
		return r.pauseOnSignIn()
	}
	token, expires, err := savePaused(context.WithoutCancel(r.parent), r.st, r.uid, *r.paused, r.opts.Now())
	if err != nil {
		slog.ErrorContext(r.parent, "reply not paused", "err", err)
		detail := "The reply could not be paused for your approval of a tool call. Please try again."
		if err == errTooLongToPause {
			detail = "This conversation is too long to pause for your approval of a tool call. Start a new chat tab."
		}
		_ = r.out.error(detail)
		return nil
	}
	_ = r.out.event("tool_approval", pauseView{approvalView: approvalView{Token: token, ExpiresAt: expires.UTC().Format(time.RFC3339), Call: r.pending},
		ID: tokenHash(token)})
	return nil
}

// pauseView is the tool_approval event: the approval with its id, which is
// all a kept reply stores of it (recorder.Event leaves the token out), so
// that the table never holds a usable token. A reply paused in another
// tab, or before a reload, is answered by its id with the user's session:
// the approval is in the user's own partition, so the id names nothing for
// anyone else, just as the token did.
type pauseView struct {
	approvalView
	ID string `json:"id"`
}

// savePaused stores p for uid and answers its token: random, single-use,
// only its hash is stored (in uid's partition, so it names nothing for
// anyone else).
func savePaused(ctx context.Context, st *store.Store, uid string, p pausedReply, now time.Time) (string, time.Time, error) {
	state, err := p.encode()
	if err != nil {
		return "", time.Time{}, err
	}
	token := newToken("ta_")
	expires := now.Add(ApprovalTTL)
	if err := st.SaveToolApproval(ctx, uid, tokenHash(token), store.ToolApproval{State: state, Expires: expires, ConnectionID: p.ConnectionID}); err != nil {
		return "", time.Time{}, err
	}
	return token, expires, nil
}

// newToken is a random single-use token; only its hash is stored.
func newToken(prefix string) string {
	raw := make([]byte, 32)
	_, _ = rand.Read(raw)
	return prefix + base64.RawURLEncoding.EncodeToString(raw)
}

func tokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// pauseKey is the hash an answer names what it answers by: its token's,
// or its id (the hash itself, as history shows it).
func pauseKey(token, id string) string {
	if token != "" {
		return tokenHash(token)
	}
	return id
}

// resume takes the paused reply req.Approval names, once (of concurrent
// answers exactly one gets it; the rest, replays, expired, forged and other
// users' tokens are refused with what happened; an answer from another
// chat connection is refused without using the approval up), and reads its
// tools again:
// a server disconnected meanwhile is no longer offered, its pending call
// fails saying so, and the others still serve.
//
// A reply of an agent goes on as that agent, read again (and the user's
// access to it checked again): its instructions, model and allow-list as
// they are now.
func (e *Engine) resume(ctx context.Context, req Request, now time.Time) (*pausedReply, *turn, *domain.Agent, error) {
	p, err := e.takePaused(ctx, req, now)
	if err != nil {
		return nil, nil, nil, err
	}
	if p.ConnectionID != req.ConnectionID { // an approval saved without its connection
		return nil, nil, nil, refuse(Conflict, msgOtherConnection)
	}
	if p.Pending < 0 || p.Pending >= len(p.Calls) {
		return nil, nil, nil, fmt.Errorf("paused reply: pending call %d of %d", p.Pending, len(p.Calls))
	}
	var ag *domain.Agent
	if p.AgentID != "" {
		if ag, err = e.agents.let(ctx, req.UserID, p.AgentID, now, false); err != nil {
			return nil, nil, nil, err
		}
	}
	tr, err := e.tools.loadAs(ctx, req.UserID, p.MCPConnectionIDs, p.ConfirmReadOnly, true, ag)
	if err != nil {
		return nil, nil, nil, err
	}
	tr.keepBindings(loadCalls(p.Calls), p.Bound)
	return &p, tr, ag, nil
}

const msgOtherConnection = "This approval belongs to another chat connection."

// takePaused takes the paused reply an approval, or an answer to a
// server's question, resumes.
func (e *Engine) takePaused(ctx context.Context, req Request, now time.Time) (pausedReply, error) {
	if req.Elicitation != nil {
		return e.resumeQuestion(ctx, req, now)
	}
	if req.SignIn != nil {
		return e.takeSignIn(ctx, req, now)
	}
	a, err := e.st.TakeToolApproval(ctx, req.UserID, pauseKey(req.Approval.Token, req.Approval.ID), req.ConnectionID, now)
	switch {
	case errors.Is(err, store.ErrApprovalOtherConnection):
		return pausedReply{}, refuse(Conflict, msgOtherConnection)
	case errors.Is(err, store.ErrApprovalUnknown):
		return pausedReply{}, refuse(NotFound, "This approval is not known: the reply it paused belongs to another account or no longer exists.")
	case errors.Is(err, store.ErrApprovalUsed):
		return pausedReply{}, refuse(Conflict, "This tool call was already answered.")
	case errors.Is(err, store.ErrApprovalExpired):
		return pausedReply{}, refuse(Conflict, "This approval expired: a paused reply waits %d minutes. Send your message again.", int(ApprovalTTL.Minutes()))
	case err != nil:
		return pausedReply{}, err
	}
	p, err := decodePaused(a.State)
	if err != nil {
		return pausedReply{}, fmt.Errorf("resume paused reply: %w", err)
	}
	return p, nil
}

// finishRound answers a resumed round's pending call as the user decided,
// then the round's other calls (reply.toolCalls); false when one of them
// pauses the reply again.
func (r *reply) finishRound() bool {
	p := r.resumed
	r.rounds, r.msgs = p.Rounds, loadMessages(p.Messages)
	calls, results := loadCalls(p.Calls), loadResults(p.Results)
	c := calls[p.Pending]
	var res llm.ToolResult
	ok := true
	switch {
	case p.Elicit != nil:
		res, ok = r.finishQuestion(c, p, results, calls)
	case p.SignIn != nil:
		// Signed in (or not): the call runs again, counting the sign-ins
		// it asked for.
		r.signInTries = p.SignIn.Tries
		res, ok = r.runTool(c, nil, calls, results, p.Pending)
		r.signInTries = 0
	case r.decision == Deny:
		var view toolResultView
		res, view = denied(c)
		_ = r.out.data(toolResultFrame{ToolResult: view})
	default:
		if r.decision == AlwaysAllow {
			r.allowAlways(c, p)
		}
		res, ok = r.runTool(c, nil, calls, results, p.Pending)
	}
	if !ok {
		return false
	}
	results = append(results, res)
	return r.toolCalls(calls, results, p.Pending+1)
}

// allowAlways keeps the user's "always" for c's tool, bound to the
// definition the card showed: a tool that changed since asks again at its
// next call.
func (r *reply) allowAlways(c llm.ToolCall, p *pausedReply) {
	bt, ok := r.tr.tools.byName[c.Name]
	if !ok {
		return
	}
	seen := store.PrintTool(bt.tool)
	if p.Seen != nil {
		seen = *p.Seen
	}
	a := store.ToolAllowance{ServerID: bt.conn.ServerID, Tool: bt.tool.Name, Endpoint: bt.conn.EndpointURL,
		Print: seen, Destructive: bt.tool.MayDestroy()}
	if err := r.st.AllowToolAlways(r.ctx, r.uid, a, r.opts.Now()); err != nil {
		slog.WarnContext(r.ctx, "always-allow not saved", "err", err)
		return
	}
	r.tr.allow(bt, seen)
}

// pausedAt is the reply paused at calls[i], results answering the calls
// before it; the caller says what it waits for.
func (r *reply) pausedAt(calls []llm.ToolCall, results []llm.ToolResult, i int) *pausedReply {
	return &pausedReply{
		ConnectionID: r.connID, Model: r.model, MCPConnectionIDs: r.tr.mcpIDs, ConfirmReadOnly: r.tr.confirmReadOnly,
		ConversationID: r.keep.conversationID(), MessageID: r.keep.messageID(), AgentID: agentID(r.agent),
		Messages: storeMessages(r.msgs), Calls: storeCalls(calls), Bound: r.tr.bindings(calls), Results: storeResults(results), Pending: i, Rounds: r.rounds,
	}
}

// pausedReply is everything a reply needs to go on after the user's
// decision, stored server-side (any chat instance may resume it). The
// user's server keys are not in it: they are unsealed again on resume.
type pausedReply struct {
	ConnectionID     string          `json:"connection_id"`
	Model            string          `json:"model"`
	MCPConnectionIDs []string        `json:"mcp_connection_ids"`
	ConfirmReadOnly  bool            `json:"confirm_read_only,omitempty"`
	Messages         []storedMessage `json:"messages"` // up to the assistant turn that made Calls
	Calls            []storedCall    `json:"calls"`
	// Bound is the MCP connection each of Calls was bound to ("" when it
	// named no offered tool): on resume a name must still reach the same
	// connection.
	Bound   []string       `json:"bound"`
	Results []storedResult `json:"results"` // of Calls[:Pending]
	Pending int            `json:"pending"` // the call awaiting the decision
	// Seen is the pending tool's definition as the approval card showed
	// it: what "always" allows.
	Seen *store.ToolPrint `json:"seen,omitempty"`
	// Elicit: the reply paused on the server's question to its pending
	// call, asked through request state (elicitation.go).
	Elicit *pausedElicit `json:"elicit,omitempty"`
	// SignIn: the reply paused until its user signed in to the pending
	// call's server (signin.go).
	SignIn *pausedSignIn `json:"signin,omitempty"`
	Rounds int           `json:"rounds"`
	// Usage is what the reply spent before the pause (already metered),
	// so the last usage frame covers every model call of the reply.
	Usage llm.Usage `json:"usage"`
	// The conversation and message a kept reply goes on in when resumed.
	ConversationID string `json:"conversation_id,omitempty"`
	MessageID      string `json:"message_id,omitempty"`
	// AgentID: the reply runs as this agent (its instructions are not
	// stored: they are read again on resume).
	AgentID string `json:"agent_id,omitempty"`
}

// The conversation as stored (llm.Message keeps its tool fields out of
// JSON, so that no client can send them).
type (
	storedMessage struct {
		Role        string         `json:"role"`
		Content     string         `json:"content,omitempty"`
		ToolCalls   []storedCall   `json:"tool_calls,omitempty"`
		ToolResults []storedResult `json:"tool_results,omitempty"`
	}
	storedCall struct {
		ID        string `json:"id"`
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
		Signature string `json:"signature,omitempty"`
	}
	storedResult struct {
		CallID  string `json:"call_id"`
		Name    string `json:"name"`
		Content string `json:"content"`
		IsError bool   `json:"is_error,omitempty"`
	}
)

func storeMessages(ms []llm.Message) []storedMessage {
	out := make([]storedMessage, len(ms))
	for i, m := range ms {
		out[i] = storedMessage{Role: m.Role, Content: m.Content, ToolCalls: storeCalls(m.ToolCalls), ToolResults: storeResults(m.ToolResults)}
	}
	return out
}

func loadMessages(ms []storedMessage) []llm.Message {
	out := make([]llm.Message, len(ms))
	for i, m := range ms {
		out[i] = llm.Message{Role: m.Role, Content: m.Content, ToolCalls: loadCalls(m.ToolCalls), ToolResults: loadResults(m.ToolResults)}
	}
	return out
}

func storeCalls(cs []llm.ToolCall) []storedCall {
	return convert(cs, func(c llm.ToolCall) storedCall { return storedCall(c) })
}

func loadCalls(cs []storedCall) []llm.ToolCall {
	return convert(cs, func(c storedCall) llm.ToolCall { return llm.ToolCall(c) })
}

func storeResults(rs []llm.ToolResult) []storedResult {
	return convert(rs, func(r llm.ToolResult) storedResult { return storedResult(r) })
}

func loadResults(rs []storedResult) []llm.ToolResult {
	return convert(rs, func(r storedResult) llm.ToolResult { return llm.ToolResult(r) })
}

// convert maps each of in through f; none gives nil, which the stored
// JSON leaves out.
func convert[From, To any](in []From, f func(From) To) []To {
	var out []To
	for _, v := range in {
		out = append(out, f(v))
	}
	return out
}

// encode gzips the state's JSON: conversations compress well, and an item
// holds at most 400 KB.
func (p pausedReply) encode() ([]byte, error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if err := json.NewEncoder(zw).Encode(p); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	if buf.Len() > maxPausedBytes {
		return nil, errTooLongToPause
	}
	return buf.Bytes(), nil
}

var errTooLongToPause = errors.New("this conversation is too long to pause for an approval")

func decodePaused(b []byte) (pausedReply, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return pausedReply{}, err
	}
	var p pausedReply
	if err := json.NewDecoder(io.LimitReader(zr, 16<<20)).Decode(&p); err != nil {
		return pausedReply{}, err
	}
	return p, nil
}
