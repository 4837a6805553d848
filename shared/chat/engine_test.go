package chat_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"

	"aiwork/shared/chat"
	"aiwork/shared/chat/chattest"
	"aiwork/shared/domain"
	"aiwork/shared/llm"
	"aiwork/shared/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

// sink records what the engine writes, as calls.
type sink struct{ got []string }

func (s *sink) Content(text string) error { s.got = append(s.got, "content "+text); return nil }
func (s *sink) Data(v any) error          { s.got = append(s.got, fmt.Sprintf("data %T", v)); return nil }
func (s *sink) Event(name string, _ any) error {
	s.got = append(s.got, "event "+name)
	return nil
}
func (s *sink) Error(detail string) error { s.got = append(s.got, "error "+detail); return nil }
func (s *sink) Done() error               { s.got = append(s.got, "done"); return nil }
func (s *sink) Comment(string) error      { return nil }

// The engine answers a message into any Sink, without HTTP: its deltas,
// then its usage and the end; a refusal before the first frame is the
// error Run answers, typed for the caller to map, and nothing is written.
func TestRunWritesToItsSink(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	reg := llm.NewRegistry(0)
	reg.Use("openai", chattest.Replies(llm.Usage{InputTokens: 3, OutputTokens: 2}, "Hel", "lo"))
	e := chat.New(st, reg, chat.Options{StallTimeout: chattest.Patience})
	ctx := context.Background()
	if err := st.PutChatConnection(ctx, "u1", domain.ChatConnection{ID: "c1", Provider: "openai", Model: "gpt-4o-mini"}); err != nil {
		t.Fatal(err)
	}
	hi := []llm.Message{{Role: "user", Content: "hi"}}

	var out sink
	if err := e.Run(ctx, chat.Request{UserID: "u1", ConnectionID: "c1", Messages: hi}, &out); err != nil {
		t.Fatal(err)
	}
	want := []string{"content Hel", "content lo", "data chat.usageFrame", "done"}
	if fmt.Sprint(out.got) != fmt.Sprint(want) {
		t.Errorf("wrote %q, want %q", out.got, want)
	}

	var refused sink
	err := e.Run(ctx, chat.Request{UserID: "u2", ConnectionID: "c1", Messages: hi}, &refused)
	var ce *chat.Error
	if !errors.As(err, &ce) || ce.Kind != chat.NotFound || len(refused.got) != 0 {
		t.Errorf("another user's connection: %v, wrote %q; want a NotFound refusal and nothing written", err, refused.got)
	}
}
