package auth

import "time"

// The sign-in throttle (DESIGN §8): the auth group counts every password
// sign-in attempt per email in a fixed window (store.Admit, scope
// LoginThrottleScope, keyed by the email) before it checks the password,
// and refuses the attempts past LoginLimitPerEmail until the window ends; a
// sign-in that succeeds clears the count, and so does an admin's Unlock.
const (
	LoginThrottleScope = "login-email"
	LoginWindow        = 15 * time.Minute
	LoginLimitPerEmail = 5
)
