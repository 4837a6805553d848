package store

import (
	"testing"
	"time"

	"aiwork/shared/config"
)

// A local engine shares the machine with everything else: a slow answer
// there is load, so its attempts are given longer than DynamoDB's; a bound
// set explicitly (a test of a silent table) always wins.
func TestAttemptTimeoutPerEngine(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  config.Store
		want time.Duration
	}{
		{"AWS", config.Store{}, DefaultAttemptTimeout},
		{"local engine", config.Store{Endpoint: "http://127.0.0.1:8000"}, LocalAttemptTimeout},
		{"set", config.Store{Endpoint: "http://127.0.0.1:8000", AttemptTimeout: time.Second}, time.Second},
	} {
		if got := attemptTimeout(c.cfg); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
