package store

import (
	"context"
	"errors"
	"testing"

	"aiwork/shared/domain"
)

// A chat connection round-trips, is stored with kind "llm" as before, and
// an item of the retired kind "mcp" under the same prefix is no chat
// connection (the chat answers "Connection not found").
func TestChatConnectionKind(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newInternalStore(t)
	c := domain.ChatConnection{ID: "c1", Provider: "openai", Model: "gpt-4o-mini", Name: "OpenAI GPT", CreatedAt: "2026-11-22T10:00:00Z"}
	if err := s.PutChatConnection(ctx, "u1", c); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetChatConnection(ctx, "u1", "c1")
	if err != nil || got != c {
		t.Fatalf("get = %+v, %v; want %+v", got, err, c)
	}
	var raw map[string]any
	if err := s.getItem(ctx, userPK("u1"), chatConnSK("c1"), &raw); err != nil {
		t.Fatal(err)
	}
	if raw["kind"] != "llm" || raw["server_name"] != "OpenAI GPT" {
		t.Errorf("stored item = %v, want kind llm and server_name", raw)
	}

	old := chatConnItem{PK: userPK("u1"), SK: chatConnSK("m1"), Kind: "mcp", chatConnAttrs: chatConnAttrs{ID: "m1"}}
	if err := s.put(ctx, old); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetChatConnection(ctx, "u1", "m1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("an mcp-kind item: err = %v, want ErrNotFound", err)
	}
}
