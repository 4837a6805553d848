package auth

import "time"

// The sign-in throttle (DESIGN §8): the auth group counts every password
// sign-in attempt in fixed windows (store.Admit) before it checks the
// password: per client address and email (LoginLimitPerSource; a sign-in
// that succeeds clears that source's count), and per email from every
// source (scope LoginThrottleScope, keyed by the email: LoginLimitPerEmail,
// the account's ceiling; a success takes its own attempt back, and an
// admin's Unlock clears it). Past a limit, attempts are refused until the
// window ends.
const (
	LoginThrottleScope  = "login-email"
	LoginWindow         = 15 * time.Minute
	LoginLimitPerSource = 5
	LoginLimitPerEmail  = 100
)
