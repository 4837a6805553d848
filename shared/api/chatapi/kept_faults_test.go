package chatapi_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"aiwork/shared/api/chatapi"
	"aiwork/shared/api/mcpapi"
	"aiwork/shared/auth"
	"aiwork/shared/llm"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// A message into a conversation this process wrote to a moment ago is not
// held until its messages are stored. When storing them fails after all
// (here: every write carrying the question is cut on the way to the
// table), the reply must end with an error frame saying it was not kept,
// never with [DONE] as if it were; nothing of it stays stored, and the
// same message sent again once the table is back is kept.
func TestReplyWhoseMessagesWereNotStoredSaysSo(t *testing.T) {
	t.Parallel()
	st, proxy, _ := storetest.ViaFaultProxy(t, 0)
	up := newUpstream(func(_ context.Context, req llm.Request, emit func(string) error) (llm.Usage, error) {
		return llm.Usage{InputTokens: 1, OutputTokens: 1}, emit("re: " + req.Messages[len(req.Messages)-1].Content)
	})
	s := mountStack(t, st, chatapi.Options{StallTimeout: patience}, map[string]llm.Provider{"openai": up},
		func(*store.Store) *auth.Tokens { return auth.NewTokens(secret, time.Hour) }, mcpapi.Options{})
	_, token := s.user()
	conv := s.newConversation(token, "")
	conn := s.connect(token, "openai", "gpt-4o-mini")
	send := func(message string) string {
		w := s.sendWithin(token, map[string]any{"connection_id": conn, "message": message, "context": []any{}, "conversation_id": conv.ID}, patience)
		return w.Body.String()
	}
	if body := send("first question"); !strings.HasSuffix(body, doneFrame) {
		t.Fatalf("first message: %q", body)
	}

	const question = "question-never-stored-7f3a"
	proxy.CutWhenSent([]byte(question))
	body := send(question)
	if !strings.HasSuffix(body, errorFrame("The reply was not saved with the conversation: the service is busy. Copy it before you leave this page.")) {
		t.Fatalf("a reply whose messages were not stored ended with %q", body)
	}
	if msgs := s.messages(token, conv.ID); len(msgs) != 2 {
		t.Fatalf("%d messages stored after the failed one, want the first pair only: %+v", len(msgs), msgs)
	}

	proxy.CutWhenSent(nil)
	if body := send(question); !strings.HasSuffix(body, doneFrame) {
		t.Fatalf("the same message once the table is back: %q", body)
	}
	msgs := s.messages(token, conv.ID)
	if len(msgs) != 4 || msgs[2].Content != question || msgs[3].Content != "re: "+question || !msgs[3].Complete {
		t.Fatalf("messages after the retry: %+v", msgs)
	}
}
