// Package chatapi streams chat replies: POST /api/v1/mcp-connections/message
// answers text/event-stream, one frame per upstream chunk, flushed as it
// arrives. The chat Lambda (response streaming) and the devserver mount it.
package chatapi

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"aiwork/shared/auth"
	"aiwork/shared/config"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/llm"
	"aiwork/shared/mcp"
	"aiwork/shared/routes"
	"aiwork/shared/store"
)

// Path is the streaming route.
const Path = routes.ChatPath

// Limits of one request.
const (
	MaxBodyBytes    = 512 << 10
	MaxContextChars = 120_000
)

// Options tune the stream.
type Options struct {
	// StallTimeout ends a stream that got no upstream chunk for this long.
	StallTimeout time.Duration
	// Limits meter each user's chat (zero fields: no limit). LoadChat gives
	// the defaults: 3 streams, 20 messages a minute, 200,000 tokens a day.
	Limits config.ChatLimits
	// MaxStreamDuration ends a stream that runs this long, so that it gives
	// back its slot and records its usage before the chat Lambda's 5 min
	// timeout could kill it; a stream slot's lease outlasts it (slotLease).
	MaxStreamDuration time.Duration
	// Now is the clock (tests move it across days).
	Now func() time.Time
	// SureChecksAfter is when a sure message's checks, and the writes of a
	// message kept in a known conversation, start at the latest (zero:
	// DefaultSureChecksAfter); see stream.
	SureChecksAfter time.Duration
	// Tools lets replies call the tools of users' MCP servers.
	Tools ToolOptions
}

// DefaultSureChecksAfter is when a sure message's checks start at the
// latest: soon enough that a refusal stops a provider that is slow to
// answer before it spent much, late enough to stay out of a quick first
// frame's way.
const DefaultSureChecksAfter = 20 * time.Millisecond

// DefaultMaxStreamDuration leaves the chat Lambda (5 min timeout, see
// infra/stack.ChatTimeoutSeconds) time to record usage and free the slot.
const DefaultMaxStreamDuration = 4*time.Minute + 40*time.Second

// slotLease is how long a stream slot is held at most when its stream never
// gives it back (a crash): longer than any stream plus its clean-up.
func (o Options) slotLease() time.Duration { return o.MaxStreamDuration + time.Minute }

// Service holds what the handler needs.
type Service struct {
	st       *store.Store
	tokens   *auth.Tokens
	registry *llm.Registry
	opts     Options
	tools    ToolOptions
	verdicts *verdicts
	known    *knownConversations
}

// New builds the chat handler.
func New(st *store.Store, tokens *auth.Tokens, registry *llm.Registry, opts Options) *Service {
	if opts.StallTimeout <= 0 {
		opts.StallTimeout = 30 * time.Second
	}
	if opts.MaxStreamDuration <= 0 {
		opts.MaxStreamDuration = DefaultMaxStreamDuration
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.SureChecksAfter <= 0 {
		opts.SureChecksAfter = DefaultSureChecksAfter
	}
	t := &opts.Tools
	t.MaxRounds = cmp.Or(t.MaxRounds, config.DefaultMaxToolRounds)
	t.CallTimeout = cmp.Or(t.CallTimeout, config.DefaultToolCallTimeout)
	t.ConnectTimeout = cmp.Or(t.ConnectTimeout, config.DefaultConnectTimeout)
	return &Service{st: st, tokens: tokens, registry: registry, opts: opts, tools: opts.Tools, verdicts: newVerdicts(), known: newKnownConversations()}
}

// FromConfig builds the chat group from its configuration, the one wiring
// the Lambda and the devserver share: registry serves the models.
func FromConfig(st *store.Store, registry *llm.Registry, cfg config.Chat) (*Service, error) {
	sealer, err := mcp.NewSealer(cfg.Tools.KeyEncryptionKey)
	if err != nil {
		return nil, err
	}
	policy, err := mcp.PolicyFor(cfg.Tools.Outbound)
	if err != nil {
		return nil, err
	}
	callTimeout := cmp.Or(cfg.Tools.CallTimeout, config.DefaultToolCallTimeout)
	// A tool may take up to the call timeout before its answer's headers.
	client := policy.ClientWithLimits(mcp.Limits{ResponseHeader: callTimeout})
	return New(st, auth.FromConfig(cfg.Base, 0, st), registry, Options{StallTimeout: cfg.StallTimeout, Limits: cfg.Limits, Tools: ToolOptions{
		Sealer: sealer, Pool: mcp.NewPool(client, sessionIdle, maxSessions),
		MaxRounds: cfg.Tools.MaxRounds, CallTimeout: callTimeout, ConnectTimeout: cfg.Tools.ConnectTimeout,
	}}), nil
}

// Warm MCP sessions: closed after sessionIdle unused, at most maxSessions
// per process.
const (
	sessionIdle = 5 * time.Minute
	maxSessions = 256
)

// Handler routes the message stream.
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	// The session is looked up by the admission, beside its other reads;
	// the handler decides what may be written before it is confirmed.
	mux.Handle("POST "+Path, s.tokens.RequiredSpeculative(httpx.Handle(s.message)))
	s.conversationRoutes(mux)
	return httpx.WithNotFound(mux)
}

type messageInput struct {
	ConnectionID string        `json:"connection_id"`
	Message      string        `json:"message"`
	Model        string        `json:"model"`
	Context      []llm.Message `json:"context"`
	// MCPConnectionIDs: the caller's MCP connections whose tools the model
	// may call (at most MaxMCPConnections).
	MCPConnectionIDs []string `json:"mcp_connection_ids"`
	// ConfirmReadOnly: ask before read-only tools too.
	ConfirmReadOnly bool `json:"confirm_read_only"`
	// Approval resumes a reply paused for a tool call; Message may be empty.
	Approval *approvalInput `json:"approval"`
	// ConversationID keeps the message and its reply with the caller's
	// conversation (conversations.go): the reply is saved as it streams and
	// goes on when the client leaves.
	ConversationID string `json:"conversation_id"`
}

type usageFrame struct {
	Usage struct {
		InputTokens  int     `json:"input_tokens"`
		OutputTokens int     `json:"output_tokens"`
		CostUSD      float64 `json:"cost_usd"`
		// Demo: the local demo model answered; its tokens are estimated
		// and cost nothing.
		Demo bool `json:"demo,omitempty"`
	} `json:"usage"`
}

// message answers one message with a stream. Every message, the
// summariser's included, passes the same admission (admission.go) before
// the upstream call, and every stream that reached the upstream records its
// usage and gives back its slot when it ends, however it ends. A message
// offering MCP tools, or resuming a reply paused for an approval, runs the
// tool loop (toolloop.go).
func (s *Service) message(w http.ResponseWriter, r *http.Request) error {
	var in messageInput
	if err := httpx.DecodeJSONLimit(w, r, &in, MaxBodyBytes); err != nil {
		return err
	}
	ctx := r.Context()
	uid, _ := auth.UserID(ctx)
	if strings.TrimSpace(in.ConnectionID) == "" {
		return httpx.Invalid("connection_id is required")
	}
	var msgs []llm.Message
	if in.Approval != nil {
		if err := in.Approval.validate(); err != nil {
			return err
		}
	} else {
		if strings.TrimSpace(in.Message) == "" {
			return httpx.Invalid("Message is required")
		}
		var total int
		var err error
		if msgs, total, err = conversation(in.Context, in.Message); err != nil {
			return err
		}
		if total > MaxContextChars {
			return &httpx.Error{Code: httpx.CodeTooLarge, Detail: fmt.Sprintf("This conversation is too long to send (%d characters; the limit is %d). Start a new chat tab or shorten the message.", total, MaxContextChars)}
		}
	}
	ids, err := connectionIDs(in.MCPConnectionIDs)
	if err != nil {
		return err
	}
	now := s.opts.Now().UTC()
	sid := auth.SessionID(ctx)
	adm := s.admit(ctx, uid, in.ConnectionID, in.Model, now)
	defer adm.end(ctx, nil) // a refusal gives back the slot it may hold
	tr := &turn{uid: uid}
	var rt route
	sure := false
	if in.Approval == nil && len(ids) == 0 {
		rt, sure = s.sureRoute(uid, sid, in, now)
	}
	var resumed *pausedReply
	if !sure {
		adm.begin()
		// The tools' connections are read beside the checks; nothing
		// reaches the provider before both are done.
		var trErr error
		if in.Approval == nil {
			tr, trErr = s.loadTurn(ctx, uid, ids, in.ConfirmReadOnly, false)
		}
		conn, err := adm.wait()
		if err != nil {
			s.verdicts.refused(uid)
			return err
		}
		s.verdicts.passed(uid, sid, adm, false)
		if trErr == nil && in.Approval != nil {
			// Taken only once the checks passed: a refused resume keeps
			// its approval for the user's next try.
			resumed, trErr = s.resumeTurn(ctx, uid, in, now, &tr)
		}
		var ok bool
		if rt, ok = s.routeOf(conn); !ok {
			trErr = cmp.Or(trErr, error(httpx.NotFound("Connection not found. Connect again.")))
		}
		if trErr != nil {
			s.verdicts.ended(uid, 0)
			return trErr
		}
	}
	verdict := func(refusal error) {
		if refusal != nil {
			s.verdicts.refused(uid)
		} else if sure {
			s.verdicts.passed(uid, sid, adm, true)
		}
	}
	rep := &reply{connID: in.ConnectionID, model: in.Model, msgs: msgs, tr: tr, resumed: resumed}
	if in.Approval != nil {
		rep.decision = in.Approval.Decision
	}
	parent := ctx
	keep, err := s.keepWith(ctx, uid, in, resumed, now)
	if err != nil {
		s.verdicts.ended(uid, 0)
		return err
	}
	if keep != nil {
		// Kept with its conversation, the reply outlives its client.
		rep.keep, parent = keep, context.WithoutCancel(ctx)
	}
	return s.stream(parent, &sse{w: w}, rt, rep, adm, sure, verdict, func(tokens int) { s.verdicts.ended(uid, tokens) })
}

// connectionIDs checks the MCP connection ids a message offers: at most
// MaxMCPConnections, each once.
func connectionIDs(ids []string) ([]string, error) {
	var out []string
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if id == "" || slices.Contains(out, id) {
			continue
		}
		if len(id) > 100 {
			return nil, httpx.NotFound("MCP connection not found. Connect the server again in the MCP Registry.")
		}
		out = append(out, id)
	}
	if len(out) > MaxMCPConnections {
		return nil, httpx.Invalid(fmt.Sprintf("A message may use the tools of at most %d MCP servers; turn some off in Tools.", MaxMCPConnections))
	}
	return out, nil
}

// resumeTurn takes the paused reply the approval names and reads its tools
// again (a server disconnected meanwhile is no longer offered).
func (s *Service) resumeTurn(ctx context.Context, uid string, in messageInput, now time.Time, tr **turn) (*pausedReply, error) {
	p, err := s.resume(ctx, uid, in.Approval.Token, now)
	if err != nil {
		return nil, err
	}
	if p.ConnectionID != in.ConnectionID {
		return nil, httpx.Conflict("This approval belongs to another chat connection.")
	}
	if p.Pending < 0 || p.Pending >= len(p.Calls) {
		return nil, fmt.Errorf("paused reply: pending call %d of %d", p.Pending, len(p.Calls))
	}
	// A server disconnected while the reply waited is no longer offered:
	// its pending call fails saying so, and the others still serve.
	t, err := s.loadTurn(ctx, uid, p.MCPConnectionIDs, p.ConfirmReadOnly, true)
	if err != nil {
		return nil, err
	}
	t.keepBindings(loadCalls(p.Calls), p.Bound)
	*tr = t
	return &p, nil
}

// sureRoute answers the upstream of a message that this process's last
// verdicts say will pass (verdicts.sure), so its call may start before its
// checks are over; a paid provider only (the demo model costs nothing and
// answers at once: it waits).
func (s *Service) sureRoute(uid, sid string, in messageInput, now time.Time) (route, bool) {
	conn, ok := s.verdicts.sure(uid, sid, in.ConnectionID, s.opts.Limits, now)
	if !ok {
		return route{}, false
	}
	rt, known := s.routeOf(conn)
	if !known || rt.demo || (in.Model != "" && in.Model != conn.Model) {
		s.verdicts.ended(uid, 0)
		return route{}, false
	}
	return rt, true
}

// route is the upstream a message goes to.
type route struct {
	provider llm.ProviderInfo
	model    llm.Model
	adapter  llm.Provider
	demo     bool
}

// routeOf finds the connection's upstream.
func (s *Service) routeOf(conn domain.ChatConnection) (route, bool) {
	provider, ok := llm.FindProvider(conn.Provider)
	if !ok {
		return route{}, false
	}
	m, ok := provider.FindModel(conn.Model)
	if !ok {
		return route{}, false
	}
	adapter, demo, ok := s.registry.Adapter(provider.ID)
	if !ok {
		return route{}, false
	}
	return route{provider: provider, model: m, adapter: adapter, demo: demo}, true
}

// conversation is the context plus the new message, validated.
func conversation(context []llm.Message, message string) ([]llm.Message, int, error) {
	msgs := make([]llm.Message, 0, len(context)+1)
	total := utf8.RuneCountInString(message)
	for i, m := range context {
		if m.Role != "user" && m.Role != "assistant" && m.Role != "system" {
			return nil, 0, httpx.Invalid(fmt.Sprintf("context[%d].role must be user, assistant or system", i))
		}
		if strings.TrimSpace(m.Content) == "" {
			continue // an unfinished or empty turn says nothing
		}
		total += utf8.RuneCountInString(m.Content)
		msgs = append(msgs, m)
	}
	return append(msgs, llm.Message{Role: "user", Content: message}), total, nil
}

// stream relays the upstream reply frame by frame, through the tool loop
// (toolloop.go) when tools are offered. It ends with a usage frame and
// [DONE], with an error frame, or, paused for the user's approval of a tool
// call, with a tool_approval event; a stall ends it with 'Stream timeout';
// a client disconnect cancels the upstream call and any tool call.
//
// With sure set, the call started before the admission's checks were over:
// verdict gets their outcome; a refusal stops the call and is the HTTP
// answer when nothing was written yet, else an error frame.
//
// Once the model calls are over, and before the last frame, the stream
// records its usage and gives back its slot (adm.end), so a client that
// sends again on [DONE] finds its slot free and its usage counted: each
// model call's usage as the provider reported it, each count it did not
// report estimated (llm.Usage.Complete), for a finished, cancelled,
// stalled, refused or cut-off call and for one that failed after its first
// output; nothing for a call that failed before producing anything (the
// provider refused it). ended then gets the tokens spent.
func (s *Service) stream(parent context.Context, out *sse, rt route, rep *reply, adm *admission, sure bool, verdict func(error), ended func(tokens int)) error {
	ctx, cancel := context.WithCancelCause(parent)
	defer cancel(nil)
	ctx, stop := context.WithTimeoutCause(ctx, s.opts.MaxStreamDuration, errTooLong)
	defer stop()
	stall := time.AfterFunc(s.opts.StallTimeout, func() { cancel(errStall) })
	defer stall.Stop()
	rep.s, rep.ctx, rep.out, rep.rt, rep.stall = s, ctx, out, rt, stall
	var later []func() // started after the first frames
	if k := rep.keep; k != nil {
		out.rec = newRecorder(s.st, rep.tr.uid, k, s.opts.Now, func() { cancel(errStopped) })
		defer func() { _ = out.rec.finish() }() // idempotent: the last frame finished it
		var ids messageIDsFrame
		ids.MessageIDs.User, ids.MessageIDs.Assistant = k.userID, k.reply.ID
		opening, _ := json.Marshal(ids)
		// The first frame waits for the messages to be stored: a
		// conversation that is not the caller's is a 404, and the model
		// call it started is cancelled.
		out.gate = func() ([]byte, error) {
			if !k.known {
				if err := k.wait(); err != nil {
					cancel(errNotKept)
					return nil, err
				}
			}
			return append(append([]byte("data: "), opening...), "\n\n"...), nil
		}
		if k.known {
			// The conversation is known to be the caller's: the stream does
			// not wait for the writes, which start after its first frames
			// (below); should they fail (the conversation deleted
			// meanwhile), the reply stops.
			later = append(later, k.begin)
			go func() {
				select {
				case <-k.stored:
					if k.written() != nil {
						cancel(errNotKept)
					}
				case <-ctx.Done():
				}
			}()
		}
	}
	if sure {
		// The watcher stops the call on the checks' refusal.
		later = append(later, adm.begin)
		go func() {
			select {
			case <-adm.done:
				if adm.err != nil {
					cancel(errRefused)
				}
			case <-ctx.Done():
			}
		}()
	}
	// What need not come before the first frame (a sure message's checks, a
	// known conversation's writes) starts once two frames went out, the
	// call ended, or SureChecksAfter passed (a provider still thinking),
	// whichever comes first: their store calls do not compete with the
	// first frame.
	startLater := sync.OnceFunc(func() {
		for _, begin := range later {
			begin()
		}
	})
	if len(later) > 0 {
		due := time.AfterFunc(s.opts.SureChecksAfter, startLater)
		defer due.Stop()
		rep.framesOut = func(n int) {
			if n == 2 {
				startLater()
			}
		}
	}

	err := rep.run()
	stall.Stop()
	startLater()
	adm.begin()
	spent := rep.usage.InputTokens + rep.usage.OutputTokens
	if rep.calls == 0 {
		adm.end(parent, nil) // the provider refused the call: nothing was spent
		spent = 0
	} else {
		adm.end(parent, s.usageRecord(rt, rep.usage, rep.calls))
	}
	// adm.end waited for the checks: a refusal of a sure message shows now.
	if sure {
		verdict(adm.err)
	}
	ended(spent)
	if out.gateErr != nil && !out.started {
		return out.gateErr // the conversation is not the caller's, or storing failed
	}
	if refusal := adm.err; refusal != nil {
		if !out.started {
			return refusal
		}
		_ = out.error(refusalDetail(refusal))
		return nil
	}
	if k := rep.keep; k != nil {
		// A known conversation's messages are stored beside the reply (the
		// stream did not wait for them): a reply whose messages could not
		// be stored says so rather than end as if it were kept.
		if err := k.wait(); err != nil {
			if !out.started {
				return err
			}
			_ = out.error(notKeptDetail(err))
			return nil
		}
	}
	cause := context.Cause(ctx)
	switch {
	case errors.Is(cause, errStopped):
		// Stopped by its user: it ends like a finished reply, with what it had.
	case errors.Is(cause, errStall):
		_ = out.error("Stream timeout")
		return nil
	case errors.Is(cause, errTooLong):
		_ = out.error(fmt.Sprintf("The reply was cut off after %s, the longest a reply may stream.", s.opts.MaxStreamDuration))
		return nil
	case parent.Err() != nil:
		return nil // the client went away; nobody to tell (a kept reply's parent never ends)
	case err != nil:
		slog.WarnContext(parent, "chat upstream failed", "model", rt.model.APIID, "err", err)
		_ = out.error(upstreamDetail(err))
		return nil
	}
	total := rep.usage
	if rep.resumed != nil {
		total.InputTokens += rep.resumed.Usage.InputTokens
		total.OutputTokens += rep.resumed.Usage.OutputTokens
	}
	if rep.paused != nil {
		return s.sendApproval(parent, out, rep, total)
	}
	if rep.limited {
		_ = out.data(noticeFrame{Notice: fmt.Sprintf("The reply stopped after %d tool rounds, the most one reply may use. Ask again to go on.", s.tools.MaxRounds)})
	}
	var uf usageFrame
	uf.Usage.InputTokens, uf.Usage.OutputTokens = total.InputTokens, total.OutputTokens
	if rt.demo {
		uf.Usage.Demo = true
	} else {
		uf.Usage.CostUSD = rt.model.Cost(total)
	}
	_ = out.data(uf)
	_ = out.done()
	return nil
}

// refusalDetail is what an error frame says of a refusal: its detail, or a
// generic line for an internal error (whose cause is logged, not shown).
func refusalDetail(err error) string {
	var he *httpx.Error
	if errors.As(err, &he) {
		return he.Detail
	}
	slog.Error("chat admission failed", "err", err)
	return "The message could not be checked. Please try again."
}

// notKeptDetail is what an error frame says of a reply whose messages
// could not be stored with its conversation.
func notKeptDetail(err error) string {
	if he, ok := httpx.AsClientError(err); ok && he.Code == httpx.CodeNotFound {
		return "The conversation was deleted, so this reply was not kept."
	}
	return replyNotSaved
}

// usageRecord is what a stream's model calls spent, for the meter.
func (s *Service) usageRecord(rt route, u llm.Usage, calls int) *domain.ModelUsage {
	return &domain.ModelUsage{Provider: rt.provider.ID, Model: rt.model.Name, Demo: rt.demo,
		InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, Requests: calls}
}

var (
	errStall   = errors.New("stream stalled")
	errTooLong = errors.New("stream ran too long")
	errRefused = errors.New("message refused by its checks")
	errStopped = errors.New("reply stopped by its user")
	errNotKept = errors.New("message not kept with its conversation")
)

func upstreamDetail(err error) string {
	var ue *llm.UpstreamError
	if errors.As(err, &ue) {
		switch {
		case ue.Status == http.StatusUnauthorized || ue.Status == http.StatusForbidden:
			return fmt.Sprintf("%s refused the API key (HTTP %d). Check the provider key configured on the server.", ue.Provider, ue.Status)
		case ue.Status == http.StatusTooManyRequests:
			return fmt.Sprintf("%s is rate limiting requests (HTTP 429). Wait a moment and try again.", ue.Provider)
		case ue.Status >= 500:
			return fmt.Sprintf("%s is having trouble (HTTP %d). Try again shortly.", ue.Provider, ue.Status)
		case ue.Status > 0:
			return fmt.Sprintf("%s refused the request (HTTP %d): %s", ue.Provider, ue.Status, ue.Detail)
		}
		return fmt.Sprintf("%s: %s", ue.Provider, ue.Detail)
	}
	var syntax *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	var netErr net.Error
	switch {
	case errors.As(err, &syntax), errors.As(err, &typeErr):
		return MsgProviderUnreadable
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF), errors.As(err, &netErr):
		return MsgProviderCut
	}
	return "The model provider failed to answer. Please try again."
}

// What a reply's error frame says when the provider's stream broke on the
// wire (issue 26): cut before its end, or an event that is not JSON.
const (
	MsgProviderCut        = "The model provider's stream was cut off before the reply ended. Please try again."
	MsgProviderUnreadable = "The model provider sent a reply this site could not read. Please try again."
)
