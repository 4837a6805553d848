package chatapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"sync"
	"time"

	"aiwork/shared/auth"
	"aiwork/shared/config"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/store"
)

// streamsRetryAfter is the Retry-After of a refusal for too many streams: a
// reply usually finishes within seconds.
const streamsRetryAfter = 5

// cleanupTimeout bounds the writes after a stream, which run on a fresh
// context: a client that went away must not cancel them.
const cleanupTimeout = 5 * time.Second

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

// admit prepares the checks of a message for connection cid and model;
// they run from a.begin() on (wait and end begin them too).
func (s *Service) admit(ctx context.Context, uid, cid, model string, now time.Time) *admission {
	a := &admission{st: s.st, uid: uid, now: now, done: make(chan struct{})}
	a.begin = sync.OnceFunc(func() {
		go func() {
			defer close(a.done)
			// The checks finish what they started even when the request's
			// context ends (an ended session cancels it): each store call
			// is short, and a counter must not be left half-updated.
			checks, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
			defer cancel()
			a.err = a.run(checks, ctx, cid, model, s.opts.Limits, s.opts.slotLease())
		}()
	})
	return a
}

// run is the checks: the session (auth.ConfirmSession, the request's) and
// the connection at once, then the meter.
func (a *admission) run(ctx, request context.Context, cid, model string, lim config.ChatLimits, lease time.Duration) error {
	var sessionErr error
	var wg sync.WaitGroup
	wg.Go(func() { sessionErr = auth.ConfirmSession(request) })
	wg.Go(func() { a.conn, a.connErr = a.st.GetChatConnection(ctx, a.uid, cid) })
	wg.Wait()
	if sessionErr != nil {
		return sessionErr
	}
	if err := a.connectionRefusal(model); err != nil {
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
		return httpx.NotFound("Connection not found. Connect again.")
	case a.connErr != nil:
		return a.connErr
	case model != "" && model != a.conn.Model:
		return httpx.Invalid(fmt.Sprintf("This connection is for %s; connect again to use %s.", a.conn.Model, model))
	}
	return nil
}

// limitRefusal is the 429 of the limit that refused the message (nil for
// none), with when to try again.
func (a *admission) limitRefusal(r store.ChatRefusal, lim config.ChatLimits) error {
	now := a.now
	switch r {
	case store.ChatOverBudget:
		return &httpx.Error{Code: httpx.CodeRateLimited,
			Detail:            fmt.Sprintf("You have used today's chat allowance of %s tokens; it resets at 00:00 UTC.", thousands(lim.DailyTokenBudget)),
			RetryAfterSeconds: secondsUntil(domain.NextUTCDay(now), now)}
	case store.ChatOverRate:
		wait := secondsUntil(a.window.Ends(time.Minute), now)
		return &httpx.Error{Code: httpx.CodeRateLimited,
			Detail:            fmt.Sprintf("You have sent %d messages in the last minute; try again in %d seconds.", lim.RequestsPerMinute, wait),
			RetryAfterSeconds: wait}
	case store.ChatNoStreamSlot:
		return &httpx.Error{Code: httpx.CodeRateLimited,
			Detail:            fmt.Sprintf("You already have %d replies streaming; wait for one to finish.", lim.MaxConcurrentStreams),
			RetryAfterSeconds: streamsRetryAfter}
	}
	return nil
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
