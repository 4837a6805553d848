package auth

import (
	"context"
	"fmt"
	"net/http"
	"sync"

	"aiwork/shared/httpx"
)

// RequiredConcurrent is Required for a route whose own reads should not wait
// for the session lookup (the chat stream, DESIGN §10: nothing slow between
// the request and the upstream call). The token is verified at once; the
// session is looked up in parallel with the handler, and nothing reaches
// the client before it is confirmed: the handler's first write (or flush)
// waits for the lookup, and an ended session's answer is replaced by 401
// and its request context cancelled. A handler that is about to spend
// (an upstream call) before writing anything calls ConfirmSession first.
func (t *Tokens) RequiredConcurrent(next http.Handler) http.Handler {
	return t.concurrent(next, true)
}

// RequiredSpeculative is RequiredConcurrent without holding the answer
// back: the handler may write before the session is confirmed, so it must
// call ConfirmSession itself and stop on a refusal (its context is then
// cancelled too). The lookup starts when the handler asks for it
// (StartSessionCheck or ConfirmSession), or when it returns. For the chat relay (chatapi), which writes nothing before
// the lookup unless this process saw the same session live moments ago.
func (t *Tokens) RequiredSpeculative(next http.Handler) http.Handler {
	return t.concurrent(next, false)
}

func (t *Tokens) concurrent(next http.Handler, gated bool) http.Handler {
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
		p := &pendingCheck{done: make(chan struct{})}
		p.lookup = func() {
			live, err := t.sessions.SessionLive(base, c.Subject, c.SessionID)
			switch {
			case err != nil:
				p.err = fmt.Errorf("check session: %w", err)
			case !live:
				p.err = httpx.Unauthorized(msgSessionEnded)
			}
			close(p.done)
			if p.err != nil {
				cancel() // stop whatever the handler started
			}
		}
		ctx := context.WithValue(WithUserID(base, c.Subject), sessionKey{}, c.SessionID)
		ctx = context.WithValue(ctx, checkKey{}, p)
		if !gated {
			// The handler starts the lookup when it suits it
			// (StartSessionCheck, ConfirmSession).
			next.ServeHTTP(w, r.WithContext(ctx))
			// The lookup ends before the request does: never cut off in
			// the middle (a store call cancelled mid-request).
			p.start()
			<-p.done
			return
		}
		p.start()
		gw := &gatedWriter{ResponseWriter: w, check: p, r: r}
		next.ServeHTTP(gw, r.WithContext(ctx))
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
// that (chatapi: once the first frame went out), so the lookup does not
// compete with it.
func StartSessionCheck(ctx context.Context) {
	if p, ok := ctx.Value(checkKey{}).(*pendingCheck); ok {
		p.start()
	}
}

type checkKey struct{}

type pendingCheck struct {
	once   sync.Once
	lookup func() // closes done
	done   chan struct{}
	err    error
}

func (p *pendingCheck) start() { p.once.Do(func() { go p.lookup() }) }

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
