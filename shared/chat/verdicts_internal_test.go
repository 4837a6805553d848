package chat

import (
	"fmt"
	"testing"
	"time"

	"aiwork/shared/domain"
)

// The remembered verdicts stay bounded: once maxRemembered users are
// known, a new user's verdict first drops those too old to be used,
// keeping any with a stream still running.
func TestVerdictsForgetStaleUsers(t *testing.T) {
	v := newVerdicts()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	for i := range maxRemembered {
		v.byUser[fmt.Sprintf("old-%d", i)] = &verdict{at: now.Add(-time.Hour)}
	}
	v.byUser["streaming"] = &verdict{at: now.Add(-time.Hour), streams: 1}
	v.passed("new", "s1", &admission{now: now, conn: domain.ChatConnection{ID: "c1"}}, false)
	if _, ok := v.byUser["new"]; !ok {
		t.Fatal("the new user's verdict was not kept")
	}
	if _, ok := v.byUser["streaming"]; !ok {
		t.Error("a user with a stream running was forgotten")
	}
	if n := len(v.byUser); n != 2 {
		t.Errorf("%d verdicts remembered, want 2 (the stale ones dropped)", n)
	}
}
