package store_test

import (
	"errors"
	"math"
	"net/http"
	"strings"
	"testing"

	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// A number the table cannot hold never reaches it: the write is refused
// before it is sent, as the client's mistake (400 naming the attribute),
// not as an internal error, and nothing of it is kept.
func TestNumberTheTableCannotHold(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	for i, cost := range []float64{1e126, math.MaxFloat64, 1e-200, -1e-131} {
		cid := "c" + string(rune('a'+i))
		m := message(cid, "m1", domain.RoleAssistant, "hello")
		m.Usage = &domain.MessageUsage{CostUSD: cost}
		err := st.CreateConversation(ctx, "ann", domain.Conversation{ID: cid, Title: "T", CreatedAt: convAt, UpdatedAt: convAt}, m)
		var nr *store.NumberRangeError
		if !errors.As(err, &nr) || nr.Attribute != "usage.CostUSD" {
			t.Fatalf("cost %g: err = %v, want a NumberRangeError on usage.CostUSD", cost, err)
		}
		e, ok := httpx.AsClientError(err)
		if !ok || e.Status() != http.StatusBadRequest || !strings.HasPrefix(e.Detail, "usage.CostUSD is out of range") {
			t.Errorf("cost %g: answered as %+v (client error %v)", cost, e, ok)
		}
	}
	convs, err := st.ListConversations(ctx, "ann")
	storetest.Must(t, err, "list")
	if len(convs) != 0 {
		t.Errorf("refused writes left %d conversations", len(convs))
	}
	// Numbers in range are written as ever.
	m := message("ok", "m1", domain.RoleAssistant, "hello")
	m.Usage = &domain.MessageUsage{CostUSD: 1e125, InputTokens: math.MaxInt64}
	storetest.Must(t, st.CreateConversation(ctx, "ann", domain.Conversation{ID: "ok", CreatedAt: convAt, UpdatedAt: convAt}, m), "create in range")
}
