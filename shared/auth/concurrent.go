package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"aiwork/shared/httpx"
)

// RequiredConcurrent is Required for a route whose own reads should not wait
// for the session lookup (the chat stream, docs/benchmarks.md: nothing slow between
// the request and the upstream call). The token is verified at once; the
// session is looked up in parallel with the handler, and nothing reaches
// the client before it is confirmed: the handler's first write (or flush)
// waits for the lookup, and an ended session's answer is replaced by 401
// and its request context cancelled. A handler that is about to spend
// (an upstream call) before writing anything calls ConfirmSession first.
func (t *Tokens) RequiredConcurrent(next http.Handler) http.Handler {
	return t.concurrent(next, true, true)
}

// RequiredBatched is RequiredConcurrent for a handler that reads the
// session itself, in one table call with its own reads (ClaimSessionCheck):
// the lookup does not start at once. Unclaimed, it starts when the handler
// asks (ConfirmSession, StartSessionCheck), writes, or returns.
func (t *Tokens) RequiredBatched(next http.Handler) http.Handler {
	return t.concurrent(next, true, false)
}

// RequiredSpeculative is RequiredConcurrent without holding the answer
// back: the handler may write before the session is confirmed, so it must
// call ConfirmSession itself and stop on a refusal (its context is then
// cancelled too). The lookup starts when the handler asks for it
// (StartSessionCheck or ConfirmSession), or when it returns. For the chat
// relay (shared/chat), which writes nothing before the lookup unless this
// process saw the same session live moments ago.
func (t *Tokens) RequiredSpeculative(next http.Handler) http.Handler {
	return t.concurrent(next, false, false)
}

// concurrent is the three modes: gated holds the answer back until the
// session is confirmed; eager starts the lookup before the handler.
func (t *Tokens) concurrent(next http.Handler, gated, eager bool) http.Handler {
	if t.sessions == nil {
		return t.Required(next)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, present := bearer(r)
		if !present {
			w.Header().Set("WWW-Authenticate", "Bearer")
			httpx.WriteError(w, r, httpx.Unauthorized("Not authenticated."))
			return
		}
		c, err := t.VerifyClaims(raw)
		if err != nil {
			httpx.WriteError(w, r, httpx.Unauthorized("Your session has expired or is invalid. Please log in again."))
			return
		}
		if c.SessionID == "" {
			httpx.WriteError(w, r, httpx.Unauthorized(msgSessionEnded))
			return
		}
		base, cancel := context.WithCancel(r.Context())
		defer cancel()
		// cancel stops whatever the handler started for an ended session.
		p := &pendingCheck{done: make(chan struct{}), uid: c.Subject, sid: c.SessionID, cancel: cancel}
		p.lookup = func() { p.settle(t.sessions.SessionLive(base, c.Subject, c.SessionID)) }
		ctx := context.WithValue(WithUserID(base, c.Subject), sessionKey{}, c.SessionID)
		ctx = context.WithValue(ctx, checkKey{}, p)
		if !gated {
			// The handler starts the lookup when it suits it
			// (StartSessionCheck, ConfirmSession).
			next.ServeHTTP(w, r.WithContext(ctx))
			// The lookup ends before the request does: never cut off in
			// the middle (a store call cancelled mid-request).
			p.finish()
			return
		}
		if eager {
			p.start()
		}
		gw := &gatedWriter{ResponseWriter: w, check: p, r: r}
		next.ServeHTTP(gw, r.WithContext(ctx))
		p.finish()
		gw.gate() // a handler that wrote nothing still answers 401 for an ended session
	})
}

// ConfirmSession waits for the session lookup RequiredConcurrent started and
// answers its refusal (a 401 client error, or an internal error). Under
// Required and Optional, which look the session up before the handler
// runs, it answers nil at once.
func ConfirmSession(ctx context.Context) error {
	p, ok := ctx.Value(checkKey{}).(*pendingCheck)
	if !ok {
		return nil
	}
	p.start()
	<-p.done
	return p.err
}

// StartSessionCheck starts RequiredSpeculative's session lookup without
// waiting for it (RequiredConcurrent starts it at once). A handler that
// starts spending before its checks are over may start the lookup after
// that (the chat engine: once the first frame went out), so the lookup
// does not compete with it.
func StartSessionCheck(ctx context.Context) {
	if p, ok := ctx.Value(checkKey{}).(*pendingCheck); ok {
		p.start()
	}
}

type checkKey struct{}

// ClaimSessionCheck hands a RequiredBatched request's session lookup to
// the handler, which reads the session (uid, sid) beside its own reads and
// answers what it found with settle (as Sessions.SessionLive would); the
// answer gates the response and ConfirmSession as the middleware's own
// lookup does. ok is false when the lookup has already started (or there
// is none): the handler then reads only its own and calls ConfirmSession.
// A claimed lookup never settled fails the request (500), never hangs it.
func ClaimSessionCheck(ctx context.Context) (uid, sid string, settle func(live bool, err error), ok bool) {
	p, found := ctx.Value(checkKey{}).(*pendingCheck)
	if !found {
		return "", "", nil, false
	}
	p.once.Do(func() { p.claimed = true })
	if !p.claimed {
		return "", "", nil, false
	}
	return p.uid, p.sid, p.settle, true
}

var errUnsettled = errors.New("claimed and never answered")

type pendingCheck struct {
	once     sync.Once
	claimed  bool   // by the handler (ClaimSessionCheck), set inside once
	lookup   func() // settles
	uid, sid string
	cancel   context.CancelFunc
	settled  sync.Once
	done     chan struct{}
	err      error
}

func (p *pendingCheck) start() { p.once.Do(func() { go p.lookup() }) }

// settle records the lookup's answer once and releases its waiters.
func (p *pendingCheck) settle(live bool, err error) {
	p.settled.Do(func() {
		switch {
		case err != nil:
			p.err = fmt.Errorf("check session: %w", err)
		case !live:
			p.err = httpx.Unauthorized(msgSessionEnded)
		}
		close(p.done)
		if p.err != nil {
			p.cancel()
		}
	})
}

// finish runs when the handler has returned: the lookup is started if
// nobody did, a claimed one left unanswered fails, and either way the
// lookup has its answer before the request ends.
func (p *pendingCheck) finish() {
	p.start()
	if p.claimed {
		p.settle(false, errUnsettled)
	}
	<-p.done
}

// gatedWriter holds back the response until the session is confirmed.
type gatedWriter struct {
	http.ResponseWriter
	check   *pendingCheck
	r       *http.Request
	decided bool
	refused bool
}

// gate waits for the lookup once; on a refusal it answers the error itself
// and drops everything the handler writes.
func (g *gatedWriter) gate() bool {
	if !g.decided {
		g.check.start() // a RequiredBatched lookup nobody claimed or started
		<-g.check.done
		g.decided = true
		if g.check.err != nil {
			g.refused = true
			httpx.WriteError(g.ResponseWriter, g.r, g.check.err)
		}
	}
	return !g.refused
}

func (g *gatedWriter) WriteHeader(code int) {
	if g.gate() {
		g.ResponseWriter.WriteHeader(code)
	}
}

func (g *gatedWriter) Write(b []byte) (int, error) {
	if !g.gate() {
		return len(b), nil
	}
	return g.ResponseWriter.Write(b)
}

// Flush is what http.ResponseController finds first, so a stream's first
// flush is gated too.
func (g *gatedWriter) Flush() {
	if !g.gate() {
		return
	}
	if f, ok := g.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the writer's other features.
func (g *gatedWriter) Unwrap() http.ResponseWriter { return g.ResponseWriter }
