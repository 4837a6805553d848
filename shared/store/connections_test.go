package store_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"aiwork/shared/store/storetest"
)

// Many calls at once (one process serving many users: a chat message alone
// makes several) keep their connections to the table for the next burst
// instead of closing most and dialling again.
func TestConcurrentCallsKeepTheirConnections(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, proxy, _ := storetest.ViaFaultProxy(t, 0)
	const atOnce = 32
	burst := func() {
		var wg sync.WaitGroup
		for range atOnce {
			wg.Go(func() {
				if _, err := st.ChatTokensOn(ctx, "u1", time.Now()); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
	}
	for range 3 {
		burst()
	}
	// Never more than atOnce calls are under way, so connections that are
	// kept number at most atOnce, whatever the machine's pace.
	if dialled := proxy.Accepted(); dialled > atOnce {
		t.Errorf("three bursts of %d calls dialled %d connections: they were not kept", atOnce, dialled)
	}
}
