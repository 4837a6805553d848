package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
	"aiwork/shared/testbed/faultproxy"
)

// A chat connection never changes, so one read serves every later message:
// it is still found while the table cannot be reached, for the user who
// owns it only, and an unknown id still asks the table.
func TestChatConnectionReadOnceServesLaterReads(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, proxy, _ := storetest.ViaFaultProxy(t, time.Second)
	c := domain.ChatConnection{ID: "c1", Provider: "openai", Model: "gpt-4o-mini", Name: "OpenAI GPT", CreatedAt: time.Now().UTC().Format(time.RFC3339Nano)}
	storetest.Must(t, st.PutChatConnection(ctx, "u1", c), "put")
	if got, err := st.GetChatConnection(ctx, "u1", "c1"); err != nil || got != c {
		t.Fatalf("first read = %+v, %v; want %+v", got, err, c)
	}

	proxy.Set(faultproxy.Refuse)
	if got, err := st.GetChatConnection(ctx, "u1", "c1"); err != nil || got != c {
		t.Errorf("read with the table down = %+v, %v; want %+v from memory", got, err, c)
	}
	var unavailable *store.UnavailableError
	if _, err := st.GetChatConnection(ctx, "u2", "c1"); !errors.As(err, &unavailable) {
		t.Errorf("another user's read with the table down: err = %v, want the table's UnavailableError (never the cached item)", err)
	}
	if _, err := st.GetChatConnection(ctx, "u1", "c2"); !errors.As(err, &unavailable) {
		t.Errorf("an unknown id with the table down: err = %v, want the table's UnavailableError", err)
	}
}

// A connection past its term is not found, though DynamoDB may not have
// deleted it yet.
func TestExpiredChatConnectionIsNotFound(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := storetest.New(t)
	old := domain.ChatConnection{ID: "c-old", Provider: "openai", Model: "gpt-4o-mini", Name: "OpenAI GPT",
		CreatedAt: time.Now().Add(-31 * 24 * time.Hour).UTC().Format(time.RFC3339Nano)}
	storetest.Must(t, st.PutChatConnection(ctx, "u1", old), "put")
	if _, err := st.GetChatConnection(ctx, "u1", "c-old"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("expired connection: err = %v, want ErrNotFound", err)
	}
}
