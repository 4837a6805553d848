package authapi

import (
	"context"
	"fmt"
	"time"

	"aiwork/shared/httpx"
)

// What a refused attempt is told; a time to retry is added.
const (
	msgLoginThrottled    = "Too many login attempts."
	msgRegisterThrottled = "Too many accounts were created from your network."
	msgResendThrottled   = "Too many confirmation emails were requested."
	msgForgotThrottled   = "Too many password reset requests."
)

// admit counts one attempt of scope/key (store.Admit: the count and the
// check are one conditional write) and refuses it with 429 and Retry-After
// once limit attempts are in the window.
func (s *Service) admit(ctx context.Context, scope, key string, limit int, window time.Duration, msg string) error {
	now := s.now()
	win, ok, err := s.st.Admit(ctx, scope, key, limit, window, now)
	if err != nil {
		return fmt.Errorf("%s throttle: %w", scope, err)
	}
	if ok {
		return nil
	}
	ends := win.Ends(window)
	// A concurrent request may have opened the window a moment after this
	// one read the clock: the wait never exceeds the window.
	wait := min(max(ends.Sub(now), time.Second), window)
	minutes := int(wait.Minutes() + 0.999)
	unit := "minutes"
	if minutes == 1 {
		unit = "minute"
	}
	return &httpx.Error{
		Code:              httpx.CodeRateLimited,
		Detail:            fmt.Sprintf("%s Try again in %d %s (after %s UTC).", msg, minutes, unit, ends.UTC().Format("15:04")),
		RetryAfterSeconds: int(wait.Seconds() + 0.999),
	}
}
