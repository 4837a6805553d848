package chat

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"math"
	"strconv"
	"sync"
	"time"

	"aiwork/shared/config"
	"aiwork/shared/domain"
	"aiwork/shared/llm"
	"aiwork/shared/store"
)

// streamsRetryAfter is the Retry-After of a refusal for too many streams: a
// reply usually finishes within seconds.
const streamsRetryAfter = 5

// cleanupTimeout bounds the writes after a stream, which run on a fresh
// context: a client that went away must not cancel them.
const cleanupTimeout = 5 * time.Second

// admit runs a message's admission and prepares its reply. The checks
// (admission), the agent it runs as (agents.go) and the tools' connections
// are read at once, and nothing reaches a provider before all are done; then a resumed reply's state is
// taken (approval.go) and the conversation the reply is kept with is
// written (keep.go). A message the last verdicts say will pass (sure)
// does not wait: its model call starts while its checks run, and
// reply.stream cuts it off if they refuse. The error is the refusal;
// nothing was written.
func (e *Engine) admit(ctx context.Context, req Request) (r *reply, err error) {
	resuming := req.Approval != nil || req.Elicitation != nil || req.SignIn != nil
	if !resuming && len(req.Messages) == 0 {
		return nil, refuse(Invalid, "Message is required")
	}
	now := e.opts.Now().UTC()
	uid := req.UserID
	adm := e.newAdmission(ctx, req, now)
	defer func() {
		if err != nil {
			adm.end(ctx, nil) // a refusal gives back the slot it may hold
		}
	}()
	r = &reply{uid: uid, sid: req.SessionID, connID: req.ConnectionID, model: req.Model, msgs: req.Messages,
		tr: &turn{uid: uid}, adm: adm, parent: ctx, opts: e.opts, st: e.st, tools: e.tools, verdicts: e.verdicts, asks: e.asks, agents: e.agents}
	if req.Approval != nil {
		r.decision = req.Approval.Decision
	}
	r.answer = req.Elicitation
	if !resuming {
		r.rt, r.agent, r.staleAgent, r.sure = e.sureRoute(req, now)
		r.tr.agent = r.agent // it offers no tools, and refuses any call as the agent's
	}
	if !r.sure {
		adm.begin()
		// The agent and the tools' connections are read beside the checks.
		var trErr error
		var ag *domain.Agent
		if !resuming {
			if ag, trErr = e.agentFor(ctx, req, now); trErr == nil {
				if ag != nil {
					r.tr, trErr = e.tools.loadAgent(ctx, uid, ag, req.ConfirmReadOnly)
				} else {
					r.tr, trErr = e.tools.load(ctx, uid, req.MCPConnectionIDs, req.ConfirmReadOnly, false)
				}
			}
		}
		conn, err := adm.wait()
		if err != nil {
			e.verdicts.refused(uid)
			return nil, err
		}
		e.verdicts.passed(uid, req.SessionID, adm, false)
		if trErr == nil && resuming {
			// Taken only once the checks passed: a refused resume keeps
			// its approval for the user's next try.
			r.resumed, r.tr, ag, trErr = e.resume(ctx, req, now)
		}
		var ok bool
		if r.rt, ok = e.routeOf(conn); !ok {
			trErr = cmp.Or(trErr, error(refuse(NotFound, "Connection not found. Connect again.")))
		}
		if trErr == nil {
			r.rt, trErr = forRoute(r.rt, ag)
		}
		if trErr != nil {
			e.verdicts.ended(uid, 0)
			return nil, trErr
		}
		r.agent = ag
	}
	if r.agent != nil && !resuming {
		r.msgs = withoutSystem(r.msgs)
	}
	// Attached resources are read once the checks passed (a message with
	// any is never sure: sureRoute), before the model is called.
	if len(req.Attachments) > 0 {
		if r.msgs, req.attached, err = e.tools.attachTo(ctx, uid, r.msgs, req.Attachments); err != nil {
			e.verdicts.ended(uid, 0)
			return nil, err
		}
	}
	if r.keep, err = e.keepWith(ctx, req, r.resumed, agentID(r.agent), now); err != nil {
		e.verdicts.ended(uid, 0)
		return nil, err
	}
	if r.keep != nil {
		// Kept with its conversation, the reply outlives its client.
		r.parent = context.WithoutCancel(ctx)
	}
	return r, nil
}

// admission is one message's checks before the upstream call (DESIGN §10:
// nothing slow in series before the upstream): the session and the
// connection at once, then the limits in one write on the user's chat
// meter (store.AdmitChat), which counts the message in the per-minute
// window and takes a stream slot when every limit has room, so a burst gets
// exactly the limits' streams. A message the session or the connection
// refuses reaches no limit; one the limits refuse still counts toward the
// per-minute limit (unless that is what refused it).
type admission struct {
	st  *store.Store
	uid string
	now time.Time

	begin func()        // starts the checks (once)
	done  chan struct{} // closed when the checks are over
	err   error         // why the message may not stream (nil: it may)

	conn    domain.ChatConnection
	connErr error
	used    int          // tokens today
	window  store.Window // the per-minute window, this message counted

	slot  bool // a slot is held and must be given back
	ended bool
}

// newAdmission prepares the checks of req; they run from a.begin() on
// (wait and end begin them too).
func (e *Engine) newAdmission(ctx context.Context, req Request, now time.Time) *admission {
	a := &admission{st: e.st, uid: req.UserID, now: now, done: make(chan struct{})}
	a.begin = sync.OnceFunc(func() {
		go func() {
			defer close(a.done)
			// The checks finish what they started even when the request's
			// context ends (an ended session cancels it): each store call
			// is short, and a counter must not be left half-updated.
			checks, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
			defer cancel()
			a.err = a.run(checks, req, e.opts.Limits, e.opts.slotLease())
		}()
	})
	return a
}

// run is the checks: the session (req.ConfirmSession) and the connection
// at once, then the meter.
func (a *admission) run(ctx context.Context, req Request, lim config.ChatLimits, lease time.Duration) error {
	var sessionErr error
	var wg sync.WaitGroup
	if req.ConfirmSession != nil {
		wg.Go(func() { sessionErr = req.ConfirmSession() })
	}
	wg.Go(func() { a.conn, a.connErr = a.st.GetChatConnection(ctx, a.uid, req.ConnectionID) })
	wg.Wait()
	if sessionErr != nil {
		return sessionErr
	}
	if err := a.connectionRefusal(req.Model); err != nil {
		return err
	}
	got, err := a.st.AdmitChat(ctx, a.uid, store.ChatLimits{
		DailyTokens: lim.DailyTokenBudget, PerMinute: lim.RequestsPerMinute, Streams: lim.MaxConcurrentStreams,
		Window: time.Minute, Lease: lease,
	}, a.now)
	if err != nil {
		return err
	}
	a.used, a.window, a.slot = got.Tokens, got.Window, got.Slot
	return a.limitRefusal(got.Refusal, lim)
}

// wait answers the connection once the checks are over, or why the message
// may not stream.
func (a *admission) wait() (domain.ChatConnection, error) {
	a.begin()
	<-a.done
	return a.conn, a.err
}

// connectionRefusal says why the connection refuses the message: missing,
// or for another model.
func (a *admission) connectionRefusal(model string) error {
	switch {
	case errors.Is(a.connErr, store.ErrNotFound):
		return refuse(NotFound, "Connection not found. Connect again.")
	case a.connErr != nil:
		return a.connErr
	case model != "" && model != a.conn.Model:
		return refuse(Invalid, "This connection is for %s; connect again to use %s.", a.conn.Model, model)
	}
	return nil
}

// limitRefusal is the refusal of the limit that refused the message (nil
// for none), with when to try again.
func (a *admission) limitRefusal(r store.ChatRefusal, lim config.ChatLimits) error {
	now := a.now
	var e *Error
	switch r {
	case store.ChatOverBudget:
		e = refuse(RateLimited, "You have used today's chat allowance of %s tokens; it resets at 00:00 UTC.", thousands(lim.DailyTokenBudget))
		e.RetryAfterSeconds = secondsUntil(domain.NextUTCDay(now), now)
	case store.ChatOverRate:
		wait := secondsUntil(a.window.Ends(time.Minute), now)
		e = refuse(RateLimited, "You have sent %d messages in the last minute; try again in %d seconds.", lim.RequestsPerMinute, wait)
		e.RetryAfterSeconds = wait
	case store.ChatNoStreamSlot:
		e = refuse(RateLimited, "You already have %d replies streaming; wait for one to finish.", lim.MaxConcurrentStreams)
		e.RetryAfterSeconds = streamsRetryAfter
	default:
		return nil
	}
	return e
}

// end records usage (nil: nothing to record) and gives back the slot, in
// one write on a fresh context, once, whatever ended the stream. It waits
// for the checks, which may still hold or take the slot.
func (a *admission) end(ctx context.Context, usage *domain.ModelUsage) {
	if a.ended {
		return
	}
	a.ended = true
	a.begin()
	<-a.done
	if !a.slot && usage == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	if err := a.st.EndChat(ctx, a.uid, a.now, usage, a.slot); err != nil {
		attrs := []any{"err", err, "slot", a.slot}
		if usage != nil {
			attrs = append(attrs, "input_tokens", usage.InputTokens, "output_tokens", usage.OutputTokens)
		}
		slog.ErrorContext(ctx, "chat usage not recorded; a slot not given back is freed by its lease", attrs...)
	}
}

// watch stops a sure message's stream (cancel) when its checks, started
// by start, refuse it; start answers the function that starts them.
func (a *admission) watch(ctx context.Context, cancel context.CancelCauseFunc) (start func()) {
	go func() {
		select {
		case <-a.done:
			if a.err != nil {
				cancel(errRefused)
			}
		case <-ctx.Done():
		}
	}()
	return a.begin
}

// settle ends the admission of a stream whose model calls are over: it
// records what they spent (nothing when the provider refused the only
// call) and gives back the slot, tells the verdicts, and answers the
// checks' refusal (a sure message's may come only now).
func (r *reply) settle() error {
	a := r.adm
	a.begin()
	spent := r.usage.InputTokens + r.usage.OutputTokens
	if r.calls == 0 {
		a.end(r.parent, nil) // the provider refused the call: nothing was spent
		spent = 0
	} else {
		a.end(r.parent, &domain.ModelUsage{Provider: r.rt.provider.ID, Model: r.rt.model.Name, Demo: r.rt.demo,
			InputTokens: r.usage.InputTokens, OutputTokens: r.usage.OutputTokens, Requests: r.calls})
	}
	// end waited for the checks: a refusal of a sure message shows now.
	if r.sure {
		if a.err != nil {
			r.verdicts.refused(r.uid)
		} else {
			r.verdicts.passed(r.uid, r.sid, a, true)
		}
	}
	r.verdicts.ended(r.uid, spent)
	return a.err
}

func secondsUntil(t, now time.Time) int {
	return max(1, int(math.Ceil(t.Sub(now).Seconds())))
}

// thousands writes n with comma thousands separators: 200000 → "200,000".
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	var b []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	if neg {
		return "-" + string(b)
	}
	return string(b)
}

// verdictTTL is how long what an admission found stays a reason to start
// the next message's upstream call before its own checks are over.
const verdictTTL = 30 * time.Second

// verdicts remembers, per user, what this process's last admissions found,
// so that a message sure to pass (DESIGN §10: nothing slow between the
// request and the upstream call) goes to its provider at once while its
// checks run beside it. "Sure" leaves room in every limit: the same session
// and connection passed within verdictTTL, and the per-minute count, the
// day's tokens and the streams this process runs for the user all stay
// below their limits with one message to spare. Anything else (a first
// message, a refusal, a limit close by, the demo model) waits for the
// checks, so a refusal near a limit never reaches a provider. The checks
// always run: a message they refuse after all is cut off (reply.stream).
type verdicts struct {
	mu     sync.Mutex
	byUser map[string]*verdict
}

type verdict struct {
	sessionID string
	conn      domain.ChatConnection
	at        time.Time // when the checks last passed
	window    store.Window
	tokens    int // today's tokens when last read, plus what ended since
	day       string
	streams   int // this process's streams for the user, running now
}

func newVerdicts() *verdicts { return &verdicts{byUser: map[string]*verdict{}} }

// sure answers the connection to stream on at once, when the remembered
// verdict allows it for this message, and counts the stream as running.
func (v *verdicts) sure(uid, sessionID, cid string, lim config.ChatLimits, now time.Time) (domain.ChatConnection, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	vd := v.byUser[uid]
	switch {
	case vd == nil || vd.sessionID == "" || vd.sessionID != sessionID || vd.conn.ID != cid:
		return domain.ChatConnection{}, false
	case now.Sub(vd.at) > verdictTTL || now.Before(vd.at):
		return domain.ChatConnection{}, false
	case lim.RequestsPerMinute > 0 && now.Before(vd.window.Ends(time.Minute)) && vd.window.Count+2 > lim.RequestsPerMinute:
		return domain.ChatConnection{}, false
	case lim.DailyTokenBudget > 0 && (vd.day != now.UTC().Format(time.DateOnly) || vd.tokens >= lim.DailyTokenBudget):
		return domain.ChatConnection{}, false
	case lim.MaxConcurrentStreams > 0 && vd.streams+2 > lim.MaxConcurrentStreams:
		return domain.ChatConnection{}, false
	}
	vd.streams++
	return vd.conn, true
}

// passed records an admission that let a message stream; counted tells
// whether sure already counted its stream.
func (v *verdicts) passed(uid, sessionID string, a *admission, counted bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	vd := v.byUser[uid]
	if vd == nil {
		v.forgetStale(a.now)
		vd = &verdict{}
		v.byUser[uid] = vd
	}
	vd.sessionID, vd.conn, vd.at, vd.window = sessionID, a.conn, a.now, a.window
	vd.tokens, vd.day = a.used, a.now.UTC().Format(time.DateOnly)
	if !counted {
		vd.streams++
	}
}

// maxRemembered bounds the map: past it, verdicts too old to use (and with
// no stream running) are dropped before a new user's is added.
const maxRemembered = 10_000

func (v *verdicts) forgetStale(now time.Time) {
	if len(v.byUser) < maxRemembered {
		return
	}
	for uid, vd := range v.byUser {
		if vd.streams == 0 && now.Sub(vd.at) > verdictTTL {
			delete(v.byUser, uid)
		}
	}
}

// refused forgets the user's verdict: the next message waits for its checks.
func (v *verdicts) refused(uid string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	delete(v.byUser, uid)
}

// ended counts a stream of the user as over, with the tokens it spent.
func (v *verdicts) ended(uid string, tokens int) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if vd := v.byUser[uid]; vd != nil {
		vd.streams = max(0, vd.streams-1)
		vd.tokens += tokens
	}
}

// sureRoute answers the upstream of a message that this process's last
// verdicts say will pass (verdicts.sure), so its call may start before its
// checks are over, and its agent, as this process remembers it (an agent
// not remembered, or one that offers tools, waits for its reads); a paid
// provider only (the demo model costs nothing and answers at once: it
// waits).
func (e *Engine) sureRoute(req Request, now time.Time) (rt route, ag *domain.Agent, stale, sure bool) {
	if len(req.Attachments) > 0 { // read before the call: after the checks
		return route{}, nil, false, false
	}
	ag, known, unbound, stale := e.agents.ready(req, now)
	switch {
	case !known:
		return route{}, nil, false, false
	case unbound && e.known.has(req.UserID, req.ConversationID, now):
		// Its first frame would not wait for the claim that checks the
		// binding (keep.go): it waits for the binding's read instead.
		return route{}, nil, false, false
	case ag == nil && len(req.MCPConnectionIDs) > 0, ag != nil && len(ag.Servers) > 0:
		return route{}, nil, false, false // the tools' connections are read first
	}
	conn, ok := e.verdicts.sure(req.UserID, req.SessionID, req.ConnectionID, e.opts.Limits, now)
	if !ok {
		return route{}, nil, false, false
	}
	rt, known = e.routeOf(conn)
	var err error
	if known {
		rt, err = forRoute(rt, ag)
	}
	if !known || err != nil || rt.demo || (req.Model != "" && req.Model != conn.Model) {
		e.verdicts.ended(req.UserID, 0)
		return route{}, nil, false, false
	}
	return rt, ag, stale, true
}

// route is the upstream a message goes to.
type route struct {
	provider llm.ProviderInfo
	model    llm.Model
	adapter  llm.Provider
	demo     bool
}

// routeOf finds the connection's upstream.
func (e *Engine) routeOf(conn domain.ChatConnection) (route, bool) {
	provider, ok := llm.FindProvider(conn.Provider)
	if !ok {
		return route{}, false
	}
	m, ok := provider.FindModel(conn.Model)
	if !ok {
		return route{}, false
	}
	adapter, demo, ok := e.registry.Adapter(provider.ID)
	if !ok {
		return route{}, false
	}
	return route{provider: provider, model: m, adapter: adapter, demo: demo}, true
}
