package mcpapi

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/store"
)

// Counter scopes of connect attempts, per user and per target host.
const (
	userConnectScope = "mcp-connect"
	hostConnectScope = "mcp-connect-host"
	// countTimeout bounds the counter writes, which finish even when the
	// request ends (an ended session cancels it): a count must be taken
	// back, not left behind, when the attempt is refused.
	countTimeout = 5 * time.Second
)

// admission is what a connect or sign-in start asks for: the registry
// entry, the user's endpoint override ("" for the entry's), and the
// route's own check of the entry (nil for none).
type admission struct {
	serverID string
	override string
	check    func(domain.MCPServer) error
}

// admit answers the registry entry and the endpoint to reach, once the
// session is confirmed live, the entry is active, the route's check and
// the outbound rules pass, and the attempt is counted under the caller's
// and the target host's per-minute limits: all before any packet leaves,
// so the service cannot be used to scan.
//
// The table calls (the session and the entry in one, both counts) run at
// once, the host counted being the override's or the one this entry had
// when last read (hosts); a wrong or missing guess costs one more count after
// the read. The counts of a refused attempt are given back, so the outcome
// is that of checking in turn: an ended session, a missing or inactive
// entry, a refused key or endpoint count nothing, and a caller past their
// limit uses up no host's.
func (s *Service) admit(r *http.Request, uid string, a admission) (domain.MCPServer, string, error) {
	ctx := r.Context()
	counts, stop := context.WithTimeout(context.WithoutCancel(ctx), countTimeout)
	defer stop()
	now := time.Now()
	override := strings.TrimSpace(a.override)
	var overrideErr error
	host, guessed := "", false
	if override != "" {
		overrideErr = s.checkEndpoint(override)
		host, guessed = hostOf(override), overrideErr == nil
	} else {
		host, guessed = s.hosts.guess(a.serverID)
	}

	var srv domain.MCPServer
	var srvErr, sessionErr error
	var user, target count
	var wg sync.WaitGroup
	read := s.entryRead(r, a.serverID)
	wg.Go(func() { srv, srvErr = read() })
	wg.Go(func() { user = s.count(counts, userConnectScope, uid, s.userLimit, now) })
	if guessed {
		wg.Go(func() { target = s.count(counts, hostConnectScope, host, s.hostLimit, now) })
	}
	sessionErr = auth.ConfirmSession(ctx)
	wg.Wait()

	if srvErr == nil {
		s.hosts.remember(srv.ID, hostOf(srv.EndpointURL))
	}
	endpoint, endpointErr := override, overrideErr
	if override == "" {
		endpoint, endpointErr = srv.EndpointURL, s.checkEndpoint(srv.EndpointURL)
	}
	err := sessionErr
	if err == nil {
		err = activeEntry(srv, srvErr)
	}
	if err == nil && a.check != nil {
		err = a.check(srv)
	}
	if err == nil {
		err = endpointErr
	}
	if err == nil && hostOf(endpoint) != host {
		s.release(counts, &target)
		host = hostOf(endpoint)
		target = s.count(counts, hostConnectScope, host, s.hostLimit, now)
	}
	if err == nil {
		err = s.verdict(counts, &user, &target, now)
	}
	if err != nil {
		s.release(counts, &user, &target)
		return srv, "", err
	}
	return srv, endpoint, nil
}

// entryRead claims the request's session lookup (the routes are
// auth.RequiredBatched) before anything runs beside it, and answers the
// read of the registry entry, which then reads the session in the same
// table call; ConfirmSession answers what it found. Unclaimed (the lookup
// already started), it reads the entry alone.
func (s *Service) entryRead(r *http.Request, id string) func() (domain.MCPServer, error) {
	uid, sid, settle, ok := auth.ClaimSessionCheck(r.Context())
	if !ok {
		return func() (domain.MCPServer, error) { return s.serverOr404(r, id) }
	}
	return func() (domain.MCPServer, error) {
		id, valid := serverID(id)
		if !valid {
			id = "" // the session alone
		}
		got, err := s.st.SessionAndMCPServer(r.Context(), uid, sid, id)
		settle(got.Live, err)
		switch {
		case err != nil:
			return domain.MCPServer{}, err
		case !got.Found:
			return domain.MCPServer{}, noServer()
		}
		return got.Server, nil
	}
}

// activeEntry is the entry read's refusal: missing (404) or no longer
// active (409).
func activeEntry(srv domain.MCPServer, err error) error {
	if err != nil {
		return err
	}
	if !srv.IsActive {
		return httpx.Conflict(fmt.Sprintf("%s is no longer listed as active in the registry.", displayName(srv)))
	}
	return nil
}

// checkEndpoint is the outbound rules' refusal of endpoint, judged from
// the URL alone (the dial judges the address it resolves to).
func (s *Service) checkEndpoint(endpoint string) error {
	if len(endpoint) > maxEndpointLen {
		return httpx.Invalid("The endpoint URL is too long.")
	}
	if err := s.policy.CheckURL(endpoint); err != nil {
		return clientError(err)
	}
	return nil
}

// verdict is the counts' refusal, the caller's limit first; the host count
// of a caller past their limit is given back, while a caller refused by the
// host's limit keeps their own count (the attempt was theirs).
func (s *Service) verdict(ctx context.Context, user, target *count, now time.Time) error {
	switch {
	case user.err != nil:
		return user.err
	case !user.ok:
		s.release(ctx, target)
		return tooMany("You are connecting too often. Please wait a minute and try again.", user.win.Ends(connectWindow), now)
	case target.err != nil:
		return target.err
	case !target.ok:
		return tooMany("Too many connections to this server right now. Please try again in a minute.", target.win.Ends(connectWindow), now)
	}
	return nil
}

// count is one attempt counted (or refused) in a per-minute window.
type count struct {
	scope, key string
	win        store.Window
	ok         bool
	err        error
}

func (s *Service) count(ctx context.Context, scope, key string, limit int, now time.Time) count {
	c := count{scope: scope, key: key}
	c.win, c.ok, c.err = s.st.Admit(ctx, scope, key, limit, connectWindow, now)
	return c
}

// release gives back the admitted ones of counts, each at most once.
// Failing to is logged, not answered: the attempt is refused either way,
// and the count ends with its window.
func (s *Service) release(ctx context.Context, counts ...*count) {
	for _, c := range counts {
		if c.ok && c.err == nil {
			c.ok = false
			if err := s.st.Release(ctx, c.scope, c.key, c.win); err != nil {
				slog.WarnContext(ctx, "mcp connect: count not given back", "scope", c.scope, "err", err)
			}
		}
	}
}

func hostOf(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return strings.ToLower(endpoint)
	}
	return strings.ToLower(u.Hostname())
}

func tooMany(detail string, ends, now time.Time) error {
	return &httpx.Error{Code: httpx.CodeRateLimited, Detail: detail, RetryAfterSeconds: max(1, int(math.Ceil(ends.Sub(now).Seconds())))}
}
