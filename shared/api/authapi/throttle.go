package authapi

import (
	"context"
	"fmt"
	"net/netip"
	"time"

	"aiwork/shared/httpx"
	"aiwork/shared/store"
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
	_, err := s.admitCounted(ctx, scope, key, limit, window, msg)
	return err
}

// admitCounted is admit answering the window its attempt was counted in,
// for a caller that may take the count back (store.Release).
func (s *Service) admitCounted(ctx context.Context, scope, key string, limit int, window time.Duration, msg string) (store.Window, error) {
	now := s.now()
	win, ok, err := s.st.Admit(ctx, scope, key, limit, window, now)
	if err != nil {
		return win, fmt.Errorf("%s throttle: %w", scope, err)
	}
	if ok {
		return win, nil
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
	return win, &httpx.Error{
		Code:              httpx.CodeRateLimited,
		Detail:            fmt.Sprintf("%s Try again in %d %s (after %s UTC).", msg, minutes, unit, ends.UTC().Format("15:04")),
		RetryAfterSeconds: int(wait.Seconds() + 0.999),
	}
}

// signInSource is the client address as the sign-in throttles count it:
// an IPv6 address by its /64, the block one subscriber is given, so that
// the addresses of one network count as one source.
func signInSource(addr string) string {
	a, err := netip.ParseAddr(addr)
	if err != nil || !a.Is6() || a.Is4In6() {
		return addr
	}
	return netip.PrefixFrom(a, 64).Masked().String()
}

// sourceKey names one source's attempts on one email: the source first,
// since an address never holds "|" and an email may.
func sourceKey(source, email string) string { return source + "|" + email }
