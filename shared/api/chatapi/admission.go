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

// admission is one message's checks before the upstream call. The reads
// and the per-minute count run concurrently (DESIGN §10: nothing slow in
// series before the upstream): the connection, today's tokens and
// store.Admit. Only a message that passes them all takes a stream slot
// (store.AcquireStreamSlot), so a burst gets exactly the limit's streams
// whatever the other limits refuse. Each counter is one conditional write,
// exact under concurrency. Every message counts toward the per-minute
// limit, refused or not.
type admission struct {
	st  *store.Store
	uid string
	now time.Time

	conn    store.Connection
	connErr error
	used    int // tokens today
	usedErr error
	window  store.Window
	rateOK  bool
	rateErr error

	slot  bool // a slot is held and must be given back
	ended bool
}

func (s *Service) admit(ctx context.Context, uid, cid string, now time.Time) *admission {
	a := &admission{st: s.st, uid: uid, now: now, rateOK: true}
	lim := s.opts.Limits
	var wg sync.WaitGroup
	wg.Go(func() { a.conn, a.connErr = s.st.GetConnection(ctx, uid, cid) })
	if lim.DailyTokenBudget > 0 {
		wg.Go(func() { a.used, a.usedErr = s.st.ChatTokensOn(ctx, uid, now) })
	}
	if lim.RequestsPerMinute > 0 {
		wg.Go(func() {
			a.window, a.rateOK, a.rateErr = s.st.Admit(ctx, rateScope, uid, lim.RequestsPerMinute, time.Minute, now)
		})
	}
	wg.Wait()
	return a
}

// pass answers the connection when the message may stream, holding a
// stream slot from then on, else why not.
func (a *admission) pass(ctx context.Context, model string, lim config.ChatLimits, lease time.Duration) (store.Connection, error) {
	if err := a.refusal(model, lim); err != nil {
		return store.Connection{}, err
	}
	if lim.MaxConcurrentStreams > 0 {
		err := a.st.AcquireStreamSlot(ctx, a.uid, lim.MaxConcurrentStreams, lease, a.now)
		if errors.Is(err, store.ErrTooManyStreams) {
			return store.Connection{}, &httpx.Error{Code: httpx.CodeRateLimited,
				Detail:            fmt.Sprintf("You already have %d replies streaming; wait for one to finish.", lim.MaxConcurrentStreams),
				RetryAfterSeconds: streamsRetryAfter}
		}
		if err != nil {
			return store.Connection{}, err
		}
		a.slot = true
	}
	return a.conn, nil
}

// refusal says why the concurrent checks refuse the message, most
// fundamental first: the connection, its model, the budget, the rate.
func (a *admission) refusal(model string, lim config.ChatLimits) error {
	now := a.now
	switch {
	case errors.Is(a.connErr, store.ErrNotFound) || (a.connErr == nil && a.conn.Kind != "llm"):
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
// on a fresh context (both at the same time), whatever ended the stream.
func (a *admission) end(ctx context.Context, usage *domain.ModelUsage) {
	if a.ended {
		return
	}
	a.ended = true
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
