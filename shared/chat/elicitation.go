package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/clip"
	"aiwork/shared/llm"
	"aiwork/shared/store"
)

// A server asks its user something in the middle of a tool call
// (elicitation) in one of two ways, and a reply waits for the answer in
// the matching way:
//
//   - inside its open tools/call (an elicitation/create request, or a
//     -32042 URL elicitation required error): the call is open on this
//     instance, so the reply holds it, sends the elicitation event and
//     keeps its stream open, within the stream's own time limit. The
//     answer may come to any instance: it is written to the question's
//     item (Engine.AnswerElicitation) and the instance holding the call
//     learns of it at once when it is itself, else by polling the item;
//     then the call goes on. Past the question's expiry the call is
//     cancelled.
//   - through request state (SEP-2322: the call's result asks for input
//     and carries the server's state): nothing is held; the reply pauses
//     as for an approval (its stream ends without [DONE]) and the answer
//     resumes it on any instance, calling the tool again with the answer
//     and the state.

// Actions on a server's question.
const (
	ElicitAccept  = "accept"
	ElicitDecline = "decline"
	ElicitCancel  = "cancel"
)

// ElicitationAnswer is the user's answer to a server's question: Token from
// the elicitation event, or ID (its hash, as history shows it); Content is
// a form's fields (accept only).
type ElicitationAnswer struct {
	Token   string
	ID      string
	Action  string
	Content map[string]any
}

func (a ElicitationAnswer) key() string { return pauseKey(a.Token, a.ID) }

// What the user and the model are told of a question left unanswered.
const msgNotAnswered = "The server's question was not answered in time."

// Holding a call for an answer: the question expires this long before
// the stream's own limit, so the reply can still finish; a stream with less
// than minAsk left does not ask.
const (
	askReserve = 30 * time.Second
	minAsk     = 15 * time.Second
	// Polling the question's item for an answer given on another instance.
	askFirstPoll = 100 * time.Millisecond
	askMaxPoll   = time.Second
)

// elicitationView is the elicitation event.
type elicitationView struct {
	Token           string          `json:"token"`
	ID              string          `json:"id"`
	Mode            string          `json:"mode"`
	Message         string          `json:"message"`
	RequestedSchema json.RawMessage `json:"requested_schema,omitempty"`
	URL             string          `json:"url,omitempty"`
	ElicitationID   string          `json:"elicitation_id,omitempty"`
	ExpiresAt       string          `json:"expires_at"`
	Call            toolCallView    `json:"call"`
	// held: the stream goes on after it (the recorder keeps recording).
	held bool
}

// question reads a server's question as the card shows it, refusing what
// the spec does not allow (the error is what the server is told).
func (b *toolbox) question(q *sdk.ElicitParams, call toolCallView) (elicitationView, error) {
	v := elicitationView{Mode: q.Mode, Message: clip.WithEllipsis(q.Message, 2000), Call: call}
	if v.Mode == "" {
		v.Mode = "form"
		if q.URL != "" || q.ElicitationID != "" {
			v.Mode = "url"
		}
	}
	switch v.Mode {
	case "form":
		raw, err := json.Marshal(q.RequestedSchema)
		if err != nil {
			return v, fmt.Errorf("the requested schema is not JSON")
		}
		if _, err := checkFormSchema(raw); err != nil {
			return v, err
		}
		v.RequestedSchema = raw
	case "url":
		if err := b.checkElicitURL(q.URL); err != nil {
			return v, err
		}
		v.URL, v.ElicitationID = q.URL, q.ElicitationID
	default:
		return v, fmt.Errorf("the elicitation mode %q is not supported", q.Mode)
	}
	return v, nil
}

// checkElicitURL lets the user open only https pages (plain http on
// loopback only where loopback servers are allowed, as under make run).
func (b *toolbox) checkElicitURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || len(raw) > 2048 {
		return fmt.Errorf("the elicitation URL is not a valid URL")
	}
	switch {
	case u.Scheme == "https":
		return nil
	case u.Scheme == "http" && b.opts.LoopbackURLs && isLoopback(u.Hostname()):
		return nil
	}
	return fmt.Errorf("the elicitation URL must use https")
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// refuseToServer is a question's refusal as the server is told it.
func refuseToServer(err error) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
}

// askHeld puts a question asked inside the open call run to the user and
// waits for the answer (see the top of this file).
func (r *reply) askHeld(run *callRun, call toolCallView, q *sdk.ElicitParams, completed <-chan struct{}) (*sdk.ElicitResult, error) {
	v, err := r.tools.question(q, call)
	if err != nil {
		return nil, refuseToServer(err)
	}
	left := time.Until(r.deadline) - r.askReserve()
	if left < r.minAsk() {
		return nil, refuseToServer(errors.New("the user's reply has no time left to ask them"))
	}
	ctx := context.WithoutCancel(r.parent)
	now := r.opts.Now()
	expires := now.Add(left)
	token := newToken("el_")
	hash := tokenHash(token)
	v.Token, v.ID, v.ExpiresAt, v.held = token, hash, expires.UTC().Format(time.RFC3339), true
	request, _ := json.Marshal(withoutToken(v))
	if err := r.st.SaveElicitation(ctx, r.uid, hash, store.Elicitation{Held: true, Request: request, ConnectionID: r.connID, Expires: expires}); err != nil {
		slog.ErrorContext(ctx, "elicitation not saved", "err", err)
		return nil, refuseToServer(errors.New("the question could not be put to the user"))
	}
	wake, forget := r.asks.wait(r.uid, hash, request)
	defer forget()
	run.hold()
	defer run.release()
	_ = r.out.event("elicitation", v)

	expiry := time.NewTimer(left)
	defer expiry.Stop()
	poll := time.NewTimer(askFirstPoll)
	defer poll.Stop()
	wait := askFirstPoll
	closeIt := func() { _ = r.st.CloseElicitation(ctx, r.uid, hash, r.opts.Now()) }
	for {
		select {
		case res := <-wake:
			return res, nil // written by this instance: no read needed
		case <-poll.C:
			wait = min(wait*3/2, askMaxPoll)
			poll.Reset(wait)
		case <-completed:
			closeIt()
			return &sdk.ElicitResult{Action: ElicitAccept}, nil
		case <-expiry.C:
			closeIt()
			run.cancel(errNotAnswered)
			return nil, refuseToServer(errors.New(msgNotAnswered))
		case <-run.ctx.Done():
			closeIt()
			return nil, context.Cause(run.ctx)
		}
		_, claimsBefore := r.asks.answering(hash)
		e, err := r.st.GetElicitation(ctx, r.uid, hash)
		if err != nil {
			slog.WarnContext(ctx, "elicitation not read", "err", err)
			continue
		}
		// An answer this instance is still confirming (its session checked
		// beside its write) comes through wake, or is taken back: one read
		// while a claim came and went may show an answer taken back since.
		claimed, claimsAfter := r.asks.answering(hash)
		if e.Answered() && !claimed && claimsBefore == claimsAfter {
			res := &sdk.ElicitResult{Action: e.Action}
			if len(e.Content) > 0 {
				_ = json.Unmarshal(e.Content, &res.Content)
			}
			return res, nil
		}
	}
}

// The margins of a held question, within a shorter stream limit (tests).
func (r *reply) askReserve() time.Duration { return min(askReserve, r.opts.MaxStreamDuration/10) }
func (r *reply) minAsk() time.Duration     { return min(minAsk, r.opts.MaxStreamDuration/20) }

var errNotAnswered = errors.New(msgNotAnswered)

// askWaiters are the questions held on this instance (their user, the
// question as the card shows it): an answer given here is checked against
// it without a read, and handed to the call waiting for it (another
// instance's call polls the table for it).
type askWaiters struct {
	mu sync.Mutex
	m  map[string]*askWaiter
}

type askWaiter struct {
	uid     string
	request []byte
	ch      chan *sdk.ElicitResult
	// claimed: an answer given here is being written and its session
	// checked; the call takes it from ch only (or it is taken back).
	claimed bool
	// claims counts the claims made: a read of the table that a claim
	// began during may hold an answer since taken back.
	claims int
}

func (w *askWaiters) wait(uid, hash string, request []byte) (<-chan *sdk.ElicitResult, func()) {
	aw := &askWaiter{uid: uid, request: request, ch: make(chan *sdk.ElicitResult, 1)}
	w.mu.Lock()
	if w.m == nil {
		w.m = map[string]*askWaiter{}
	}
	w.m[hash] = aw
	w.mu.Unlock()
	return aw.ch, func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.m[hash] == aw {
			delete(w.m, hash)
		}
	}
}

// claim answers the question uid's call holds here under hash, for one
// answer at a time (false: none held here for uid, or one is already
// being given: the table decides).
func (w *askWaiters) claim(uid, hash string) ([]byte, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	aw, ok := w.m[hash]
	if !ok || aw.uid != uid || aw.claimed {
		return nil, false
	}
	aw.claimed = true
	aw.claims++
	return aw.request, true
}

// unclaim ends a claim whose answer did not count.
func (w *askWaiters) unclaim(hash string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if aw, ok := w.m[hash]; ok {
		aw.claimed = false
	}
}

// answering reports whether an answer given here is being confirmed, and
// how many claims were made so far.
func (w *askWaiters) answering(hash string) (bool, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	aw, ok := w.m[hash]
	if !ok {
		return false, 0
	}
	return aw.claimed, aw.claims
}

func (w *askWaiters) wake(hash string, res *sdk.ElicitResult) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if aw, ok := w.m[hash]; ok {
		select {
		case aw.ch <- res:
		default:
		}
	}
}

// AnswerElicitation checks the user's answer to a server's question
// against the question (its action, its content against the form's
// schema: Invalid naming the field) and, when a call is held for it on
// some instance, writes it there once (held true: the caller acknowledges
// it; that instance goes on). A question paused through request state
// answers held false, untouched: Run with req.Elicitation resumes it.
// Another user's or an unknown question is NotFound; an answered, closed
// or expired one Conflict.
func (e *Engine) AnswerElicitation(ctx context.Context, req Request) (held bool, err error) {
	a := req.Elicitation
	if request, ok := e.asks.claim(req.UserID, a.key()); ok {
		return true, e.answerHere(ctx, req, request)
	}
	// The session is checked beside the question's read: the answer waits
	// for neither in series.
	confirmed := req.confirmSessionBeside()
	q, err := e.st.GetElicitation(ctx, req.UserID, a.key())
	sessionErr := confirmed()
	switch {
	case errors.Is(err, store.ErrElicitationUnknown):
		return false, refuse(NotFound, msgUnknownQuestion)
	case err != nil:
		return false, err
	}
	if err := checkAnswer(q.Request, *a); err != nil {
		return false, err
	}
	if !q.Held {
		return false, nil // Run checks the session again, with the rest of its admission
	}
	if sessionErr != nil {
		return false, sessionErr
	}
	if err := e.st.AnswerElicitation(ctx, req.UserID, a.key(), a.Action, answerContent(*a), e.opts.Now()); err != nil {
		return false, elicitationRefusal(err)
	}
	e.asks.wake(a.key(), answerResult(*a))
	return true, nil
}

// answerHere answers a question held on this instance, whose form is in
// memory: the answer is checked against it, and its single-use write goes
// beside the session check (one table call's time, not a read and then a
// write). The call takes the answer only once both passed; a write whose
// session turned out ended is taken back, leaving the question open.
func (e *Engine) answerHere(ctx context.Context, req Request, request []byte) error {
	a := *req.Elicitation
	hash := a.key()
	if err := checkAnswer(request, a); err != nil {
		e.asks.unclaim(hash)
		return err
	}
	now := e.opts.Now()
	confirmed := req.confirmSessionBeside()
	writeErr := e.st.AnswerElicitation(ctx, req.UserID, hash, a.Action, answerContent(a), now)
	sessionErr := confirmed()
	switch {
	case sessionErr != nil:
		if writeErr == nil {
			if err := e.st.ReopenElicitation(context.WithoutCancel(ctx), req.UserID, hash, now); err != nil {
				// Still answered in the table: the call must not take an
				// answer whose session ended, so the question is cancelled.
				slog.ErrorContext(ctx, "elicitation answer not taken back", "err", err)
				e.asks.wake(hash, &sdk.ElicitResult{Action: ElicitCancel})
				return sessionErr
			}
		}
		e.asks.unclaim(hash)
		return sessionErr
	case writeErr != nil:
		e.asks.unclaim(hash)
		return elicitationRefusal(writeErr)
	}
	e.asks.wake(hash, answerResult(a))
	return nil
}

// confirmSessionBeside starts req's session check beside the caller's
// table call; the function it answers waits for the check's verdict.
func (req Request) confirmSessionBeside() func() error {
	if req.ConfirmSession == nil {
		return func() error { return nil }
	}
	var err error
	checked := make(chan struct{})
	go func() {
		defer close(checked)
		err = req.ConfirmSession()
	}()
	return func() error {
		<-checked
		return err
	}
}

// answerContent is an accepted form's content as the table keeps it.
func answerContent(a ElicitationAnswer) []byte {
	if a.Action != ElicitAccept || a.Content == nil {
		return nil
	}
	b, _ := json.Marshal(a.Content)
	return b
}

// answerResult is the answer as the server gets it.
func answerResult(a ElicitationAnswer) *sdk.ElicitResult {
	res := &sdk.ElicitResult{Action: a.Action}
	if a.Action == ElicitAccept {
		res.Content = a.Content
	}
	return res
}

const msgUnknownQuestion = "This question is not known: the reply that asked it belongs to another account or no longer exists."

func elicitationRefusal(err error) error {
	switch {
	case errors.Is(err, store.ErrElicitationUnknown):
		return refuse(NotFound, msgUnknownQuestion)
	case errors.Is(err, store.ErrElicitationUsed):
		return refuse(Conflict, "This question was already answered, or is no longer waiting.")
	case errors.Is(err, store.ErrElicitationExpired):
		return refuse(Conflict, "This question expired. Send your message again.")
	case errors.Is(err, store.ErrElicitationOtherConnection):
		return refuse(Conflict, "This question belongs to another chat connection.")
	}
	return err
}

// checkAnswer checks an answer against the question as stored.
func checkAnswer(request []byte, a ElicitationAnswer) error {
	var q struct {
		Mode            string          `json:"mode"`
		RequestedSchema json.RawMessage `json:"requested_schema"`
	}
	_ = json.Unmarshal(request, &q)
	switch a.Action {
	case ElicitDecline, ElicitCancel:
		if a.Content != nil {
			return refuse(Invalid, "elicitation.content is only sent with accept")
		}
		return nil
	case ElicitAccept:
	default:
		return refuse(Invalid, "elicitation.action must be accept, decline or cancel")
	}
	if q.Mode == "url" {
		if a.Content != nil {
			return refuse(Invalid, "elicitation.content is not sent for a page the server opened (Done takes no content)")
		}
		return nil
	}
	schema, err := checkFormSchema(q.RequestedSchema)
	if err != nil {
		return refuse(Invalid, "The question's form cannot be answered: %s", err)
	}
	content := a.Content
	if content == nil {
		content = map[string]any{}
	}
	if err := schema.checkContent(content); err != nil {
		return refuse(Invalid, "elicitation.%s", err)
	}
	return nil
}

// pausedElicit is what a reply paused on a request-state question keeps:
// the server's questions not answered yet (raw {method, params}), the one
// being asked, the answers so far and the server's state.
type pausedElicit struct {
	Requests     map[string]json.RawMessage `json:"requests"`
	Asking       string                     `json:"asking"`
	Responses    map[string]json.RawMessage `json:"responses,omitempty"`
	RequestState string                     `json:"request_state,omitempty"`
	Rounds       int                        `json:"rounds"`
}

// maxElicitRounds bounds the input-required results one call may answer
// with (the SDK's own bound).
const maxElicitRounds = 10

// inputRequired reads an input-required result into what a pause keeps,
// or the reason the call fails (a request this site does not serve).
func inputRequired(res *sdk.CallToolResult, rounds int) (*pausedElicit, error) {
	if rounds >= maxElicitRounds {
		return nil, fmt.Errorf("the server asked for input %d times for one call", rounds)
	}
	b, err := json.Marshal(res.InputRequests)
	if err != nil {
		return nil, fmt.Errorf("the server's input requests could not be read")
	}
	var reqs map[string]json.RawMessage
	_ = json.Unmarshal(b, &reqs)
	for id, raw := range reqs {
		var m struct {
			Method string `json:"method"`
		}
		_ = json.Unmarshal(raw, &m)
		if m.Method != "elicitation/create" {
			return nil, fmt.Errorf("the server asked for %q (request %s), which this site does not offer", m.Method, clip.WithEllipsis(id, 40))
		}
	}
	if len(reqs) == 0 {
		return nil, fmt.Errorf("the server is busy (it asked for input without a question); try again")
	}
	p := &pausedElicit{Requests: reqs, RequestState: res.RequestState, Rounds: rounds + 1}
	p.next()
	return p, nil
}

// next picks the next question to ask (by the server's ids, in order).
func (p *pausedElicit) next() {
	ids := slices.Sorted(maps.Keys(p.Requests))
	p.Asking = ""
	if len(ids) > 0 {
		p.Asking = ids[0]
	}
}

// asking is the question being asked.
func (p *pausedElicit) asking() (*sdk.ElicitParams, error) {
	var m struct {
		Params sdk.ElicitParams `json:"params"`
	}
	// The form as the server wrote it: decoded into the SDK's any, its
	// fields would come back sorted by name.
	var raw struct {
		Params struct {
			RequestedSchema json.RawMessage `json:"requestedSchema"`
		} `json:"params"`
	}
	if err := json.Unmarshal(p.Requests[p.Asking], &m); err != nil || json.Unmarshal(p.Requests[p.Asking], &raw) != nil {
		return nil, fmt.Errorf("the server's question could not be read")
	}
	if len(raw.Params.RequestedSchema) > 0 && string(raw.Params.RequestedSchema) != "null" {
		m.Params.RequestedSchema = raw.Params.RequestedSchema
	}
	return &m.Params, nil
}

// answer records the user's answer to the question asked and moves on.
func (p *pausedElicit) answer(a ElicitationAnswer) {
	res := sdk.ElicitResult{Action: a.Action}
	if a.Action == ElicitAccept {
		res.Content = a.Content
	}
	b, _ := json.Marshal(res)
	if p.Responses == nil {
		p.Responses = map[string]json.RawMessage{}
	}
	p.Responses[p.Asking] = b
	delete(p.Requests, p.Asking)
	p.next()
}

// responses are the answers as the retry sends them.
func (p *pausedElicit) responses() (sdk.InputResponseMap, error) {
	b, err := json.Marshal(p.Responses)
	if err != nil {
		return nil, err
	}
	var m sdk.InputResponseMap
	if err := m.UnmarshalJSON(b); err != nil {
		return nil, err
	}
	return m, nil
}

// savePausedElicitation stores a reply paused on a request-state question
// and answers its token and expiry.
func savePausedElicitation(ctx context.Context, st *store.Store, uid string, p pausedReply, v elicitationView, now time.Time) (string, time.Time, error) {
	state, err := p.encode()
	if err != nil {
		return "", time.Time{}, err
	}
	token := newToken("el_")
	expires := now.Add(ApprovalTTL)
	v.ID, v.ExpiresAt = tokenHash(token), expires.UTC().Format(time.RFC3339)
	request, _ := json.Marshal(withoutToken(v))
	if err := st.SaveElicitation(ctx, uid, tokenHash(token), store.Elicitation{State: state, Request: request, ConnectionID: p.ConnectionID, Expires: expires}); err != nil {
		return "", time.Time{}, err
	}
	return token, expires, nil
}

// pauseForQuestion ends the stream with the elicitation event of a reply
// paused on a request-state question.
func (r *reply) pauseForQuestion() error {
	v := r.pendingQuestion
	token, expires, err := savePausedElicitation(context.WithoutCancel(r.parent), r.st, r.uid, *r.paused, v, r.opts.Now())
	if err != nil {
		slog.ErrorContext(r.parent, "reply not paused for a question", "err", err)
		detail := "The reply could not be paused for the server's question. Please try again."
		if err == errTooLongToPause {
			detail = "This conversation is too long to pause for the server's question. Start a new chat tab."
		}
		_ = r.out.error(detail)
		return nil
	}
	v.Token, v.ID, v.ExpiresAt = token, tokenHash(token), expires.UTC().Format(time.RFC3339)
	_ = r.out.event("elicitation", v)
	return nil
}

// resumeQuestion takes the paused reply req.Elicitation answers, once.
func (e *Engine) resumeQuestion(ctx context.Context, req Request, now time.Time) (pausedReply, error) {
	q, err := e.st.TakeElicitation(ctx, req.UserID, req.Elicitation.key(), req.ConnectionID, now)
	if err != nil {
		return pausedReply{}, elicitationRefusal(err)
	}
	p, err := decodePaused(q.State)
	if err != nil {
		return pausedReply{}, fmt.Errorf("resume paused reply: %w", err)
	}
	if p.Elicit == nil {
		return pausedReply{}, fmt.Errorf("paused reply: no question")
	}
	return p, nil
}

// finishQuestion goes on with a resumed round's call after the user's
// answer to its question: the next question, or the call again with the
// answers; the result, or nil when the reply pauses again.
func (r *reply) finishQuestion(c llm.ToolCall, p *pausedReply, results []llm.ToolResult, calls []llm.ToolCall) (llm.ToolResult, bool) {
	el := p.Elicit
	el.answer(*r.answer)
	if el.Asking == "" {
		return r.runTool(c, el, calls, results, p.Pending)
	}
	err := r.pauseOn(c, el, calls, results, p.Pending)
	if err == nil {
		return llm.ToolResult{}, false
	}
	res, view := questionRefused(c, r.tr.tools.byName[c.Name], err.Error())
	_ = r.out.data(toolResultFrame{ToolResult: view})
	return res, true
}

// pauseOn pauses the reply on el's question for calls[i]; the error says
// why the question cannot be put to the user (nothing paused).
func (r *reply) pauseOn(c llm.ToolCall, el *pausedElicit, calls []llm.ToolCall, results []llm.ToolResult, i int) error {
	q, err := el.asking()
	if err != nil {
		return errors.New("its question could not be read")
	}
	v, err := r.tools.question(q, r.tr.callView(c))
	if err != nil {
		return err
	}
	r.paused = r.pausedAt(calls, results, i)
	r.paused.Elicit = el
	r.pendingQuestion = v
	return nil
}

// questionRefused is a call's result when its server asked something that
// cannot be put to the user.
func questionRefused(c llm.ToolCall, bt boundTool, why string) (llm.ToolResult, toolResultView) {
	text := fmt.Sprintf("The tool %s on %s asked a question this site cannot show: %s.", bt.tool.Name, bt.conn.Label(), strings.TrimSuffix(why, "."))
	return llm.ToolResult{CallID: c.ID, Name: c.Name, Content: text, IsError: true},
		toolResultView{ID: c.ID, IsError: true, Content: textBlock(text)}
}
