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

// rateScope is the store.Admit scope of chat messages (per user, per minute).
const rateScope = "chat-message"

// streamsRetryAfter is the Retry-After of a refusal for too many streams: a
// reply usually finishes within seconds.
const streamsRetryAfter = 5

// cleanupTimeout bounds the writes after a stream, which run on a fresh
// context: a client that went away must not cancel them.
const cleanupTimeout = 5 * time.Second

// admission is one message's checks before the upstream call, all reads at
// once (DESIGN §10: nothing slow in series before the upstream): the
// session, the connection, today's tokens and store.Admit. Only a
// message that passes them all takes a stream slot
// (store.AcquireStreamSlot), so a burst gets exactly the limit's streams
// whatever the other limits refuse. Each counter is one conditional write,
// exact under concurrency. Every message counts toward the per-minute
// limit, refused or not.
type admission struct {
	st  *store.Store
	uid string
	now time.Time

	begin func()        // starts the checks (once)
	done  chan struct{} // closed when the checks are over
	err   error         // why the message may not stream (nil: it may)

	conn    domain.ChatConnection
	connErr error
	used    int // tokens today
	usedErr error
	window  store.Window
	rateOK  bool
	rateErr error

	slot  bool // a slot is held and must be given back
	ended bool
}

// admit prepares the checks of a message for connection cid and model;
// they run from a.begin() on (wait and end begin them too).
func (s *Service) admit(ctx context.Context, uid, cid, model string, now time.Time) *admission {
	a := &admission{st: s.st, uid: uid, now: now, rateOK: true, done: make(chan struct{})}
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

// run is the checks: the reads and the count at once, then the slot; the
// session lookup is the request's (auth.ConfirmSession).
func (a *admission) run(ctx, request context.Context, cid, model string, lim config.ChatLimits, lease time.Duration) error {
	var sessionErr error
	var wg sync.WaitGroup
	wg.Go(func() { sessionErr = auth.ConfirmSession(request) })
	wg.Go(func() { a.conn, a.connErr = a.st.GetChatConnection(ctx, a.uid, cid) })
	if lim.DailyTokenBudget > 0 {
		wg.Go(func() { a.used, a.usedErr = a.st.ChatTokensOn(ctx, a.uid, a.now) })
	}
	if lim.RequestsPerMinute > 0 {
		wg.Go(func() {
			a.window, a.rateOK, a.rateErr = a.st.Admit(ctx, rateScope, a.uid, lim.RequestsPerMinute, time.Minute, a.now)
		})
	}
	wg.Wait()
	if sessionErr != nil {
		return sessionErr
	}
	if err := a.refusal(model, lim); err != nil {
		return err
	}
	if lim.MaxConcurrentStreams > 0 {
		err := a.st.AcquireStreamSlot(ctx, a.uid, lim.MaxConcurrentStreams, lease, a.now)
		if errors.Is(err, store.ErrTooManyStreams) {
			return &httpx.Error{Code: httpx.CodeRateLimited,
				Detail:            fmt.Sprintf("You already have %d replies streaming; wait for one to finish.", lim.MaxConcurrentStreams),
				RetryAfterSeconds: streamsRetryAfter}
		}
		if err != nil {
			return err
		}
		a.slot = true
	}
	return nil
}

// wait answers the connection once the checks are over, or why the message
// may not stream.
func (a *admission) wait() (domain.ChatConnection, error) {
	a.begin()
	<-a.done
	return a.conn, a.err
}

// refusal says why the concurrent checks refuse the message, most
// fundamental first: the connection, its model, the budget, the rate.
func (a *admission) refusal(model string, lim config.ChatLimits) error {
	now := a.now
	switch {
	case errors.Is(a.connErr, store.ErrNotFound):
		return httpx.NotFound("Connection not found. Connect again.")
	case a.connErr != nil:
		return a.connErr
	case model != "" && model != a.conn.Model:
		return httpx.Invalid(fmt.Sprintf("This connection is for %s; connect again to use %s.", a.conn.Model, model))
	case a.usedErr != nil:
		return a.usedErr
	case lim.DailyTokenBudget > 0 && a.used >= lim.DailyTokenBudget:
		return &httpx.Error{Code: httpx.CodeRateLimited,
			Detail:            fmt.Sprintf("You have used today's chat allowance of %s tokens; it resets at 00:00 UTC.", thousands(lim.DailyTokenBudget)),
			RetryAfterSeconds: secondsUntil(domain.NextUTCDay(now), now)}
	case a.rateErr != nil:
		return a.rateErr
	case !a.rateOK:
		wait := secondsUntil(a.window.Ends(time.Minute), now)
		return &httpx.Error{Code: httpx.CodeRateLimited,
			Detail:            fmt.Sprintf("You have sent %d messages in the last minute; try again in %d seconds.", lim.RequestsPerMinute, wait),
			RetryAfterSeconds: wait}
	}
	return nil
}

// end records usage (nil: nothing to record) and gives back the slot, once,
// on a fresh context (both at the same time), whatever ended the stream. It
// waits for the checks, which may still hold or take the slot.
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
	var wg sync.WaitGroup
	if a.slot {
		wg.Go(func() {
			if err := a.st.ReleaseStreamSlot(ctx, a.uid); err != nil {
				slog.WarnContext(ctx, "chat stream slot not given back; its lease frees it", "err", err)
			}
		})
	}
	if usage != nil {
		wg.Go(func() {
			if err := a.st.RecordChatUsage(ctx, a.uid, a.now, *usage); err != nil {
				slog.ErrorContext(ctx, "chat usage not recorded", "err", err, "input_tokens", usage.InputTokens, "output_tokens", usage.OutputTokens)
			}
		})
	}
	wg.Wait()
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
