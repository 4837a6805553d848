package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/domain"
)

// Pool keeps sessions open between tool calls, one per user connection, so
// a tool round costs one request rather than a handshake (docs/benchmarks.md: a
// warm tool round's overhead). A session unused for idle is closed by a
// timer (within twice idle), never while a request runs on it: an idle
// session would otherwise hold its server's standalone SSE stream open
// until the next call; at most max stay open (the least recently used goes
// first). Safe for concurrent use.
type Pool struct {
	client *http.Client
	idle   time.Duration
	max    int

	mu       sync.Mutex
	sessions map[string]*pooled
	sweeper  *time.Timer // armed while sessions are open
}

type pooled struct {
	s    *Session
	used time.Time // when its last request ended (or began, while busy)
	busy int       // requests running on it
}

// NewPool builds a pool whose sessions go through client (Policy.Client's).
func NewPool(client *http.Client, idle time.Duration, max int) *Pool {
	return &Pool{client: client, idle: idle, max: max, sessions: map[string]*pooled{}}
}

// poolKey names a session by its owner's connection and everything that
// decides where and how it connects: a changed key or endpoint never
// reuses an old session. The key itself is only hashed.
func poolKey(owner string, t Target) string {
	h := sha256.New()
	for _, part := range []string{owner, t.Endpoint, t.Transport, t.KeyHeader, t.APIKey} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// session answers a warm session for owner's target, opening one if none is
// (bounded by connectTimeout).
func (p *Pool) session(ctx context.Context, owner string, t Target, connectTimeout time.Duration) (*Session, string, error) {
	k := poolKey(owner, t)
	now := time.Now()
	p.mu.Lock()
	p.sweep(now)
	if e, ok := p.sessions[k]; ok {
		e.used = now
		e.busy++
		p.mu.Unlock()
		return e.s, k, nil
	}
	p.mu.Unlock()

	octx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	s, err := Open(octx, p.client, t)
	if err != nil {
		return nil, k, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if e, ok := p.sessions[k]; ok { // opened at the same time by another call
		s.Close()
		e.used = time.Now()
		e.busy++
		return e.s, k, nil
	}
	p.sessions[k] = &pooled{s: s, used: time.Now(), busy: 1}
	p.evict()
	p.armSweep()
	return s, k, nil
}

// done ends a request on k's session s: its idle time starts now.
func (p *Pool) done(k string, s *Session) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e, ok := p.sessions[k]; ok && e.s == s {
		e.busy--
		e.used = time.Now()
	}
}

// armSweep starts the sweep timer when sessions are open; p.mu held.
func (p *Pool) armSweep() {
	if p.sweeper == nil && len(p.sessions) > 0 {
		p.sweeper = time.AfterFunc(p.idle, p.sweepIdle)
	}
}

// sweepIdle closes the sessions idle for longer than idle, and looks again
// after idle while any is open.
func (p *Pool) sweepIdle() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sweeper = nil
	p.sweep(time.Now())
	p.armSweep()
}

// sweep closes idle sessions; p.mu held.
func (p *Pool) sweep(now time.Time) {
	for k, e := range p.sessions {
		if e.busy == 0 && now.Sub(e.used) > p.idle {
			e.s.Close()
			delete(p.sessions, k)
		}
	}
}

// evict closes the least recently used sessions past max; p.mu held.
func (p *Pool) evict() {
	for len(p.sessions) > p.max {
		var oldest string
		for k, e := range p.sessions {
			if oldest == "" || e.used.Before(p.sessions[oldest].used) {
				oldest = k
			}
		}
		p.sessions[oldest].s.Close()
		delete(p.sessions, oldest)
	}
}

// drop forgets a session that failed, if it is still the pooled one.
func (p *Pool) drop(k string, s *Session) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e, ok := p.sessions[k]; ok && e.s == s {
		delete(p.sessions, k)
	}
	s.Close()
}

// Call calls tool name on owner's target (see Session.Call).
func (p *Pool) Call(ctx context.Context, owner string, t Target, name string, args map[string]any, connectTimeout, budget time.Duration) (*mcp.CallToolResult, error) {
	return p.CallWith(ctx, owner, t, CallRequest{Name: name, Args: args}, connectTimeout, budget)
}

// CallWith is Call with hooks and a retry's answers (Session.CallWith).
func (p *Pool) CallWith(ctx context.Context, owner string, t Target, req CallRequest, connectTimeout, budget time.Duration) (*mcp.CallToolResult, error) {
	return withSession(ctx, p, owner, t, connectTimeout, func(s *Session) (*mcp.CallToolResult, error) {
		return s.CallWith(ctx, req, budget)
	})
}

// Tools lists owner's target's tools on a warm session.
func (p *Pool) Tools(ctx context.Context, owner string, t Target, connectTimeout time.Duration) ([]domain.MCPTool, error) {
	return withSession(ctx, p, owner, t, connectTimeout, func(s *Session) ([]domain.MCPTool, error) {
		return s.Tools(ctx)
	})
}

// withSession runs do on a warm session. A session the server no longer
// knows is replaced once, since the request never ran on it; any other
// failure but the caller's own end drops the session, so the next request
// starts afresh.
func withSession[T any](ctx context.Context, p *Pool, owner string, t Target, connectTimeout time.Duration, do func(*Session) (T, error)) (T, error) {
	for try := 0; ; try++ {
		s, k, err := p.session(ctx, owner, t, connectTimeout)
		if err != nil {
			var zero T
			return zero, err
		}
		out, err := do(s)
		p.done(k, s)
		if err == nil {
			return out, nil
		}
		if ctx.Err() != nil {
			// The caller left or ran out of time: the session is sound, and
			// the SDK is telling the server on it to cancel the request
			// (after returning here: closing the session now would lose
			// that notice, and the server's tool would run on).
			return out, err
		}
		stale := s.stale()
		p.drop(k, s)
		if !stale || try > 0 || ctx.Err() != nil {
			return out, err
		}
	}
}

// Client is the pool's HTTP client (the outbound rules).
func (p *Pool) Client() *http.Client { return p.client }

// Close closes every session.
func (p *Pool) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sweeper != nil {
		p.sweeper.Stop()
		p.sweeper = nil
	}
	for k, e := range p.sessions {
		e.s.Close()
		delete(p.sessions, k)
	}
}
