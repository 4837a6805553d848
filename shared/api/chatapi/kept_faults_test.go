package chatapi_test

import (
	"bufio"
	"context"
	"strings"
	"testing"
	"time"

	"aiwork/shared/api/chatapi"
	"aiwork/shared/api/mcpapi"
	"aiwork/shared/auth"
	"aiwork/shared/chat/chattest"
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
	up := chattest.NewUpstream(func(_ context.Context, req llm.Request, emit func(string) error) (llm.Usage, error) {
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
	if body := send("first question"); !strings.HasSuffix(body, chattest.DoneFrame) {
		t.Fatalf("first message: %q", body)
	}

	const question = "question-never-stored-7f3a"
	proxy.CutWhenSent([]byte(question))
	body := send(question)
	if !strings.HasSuffix(body, chattest.ErrorFrame("The reply was not saved with the conversation: the service is busy. Copy it before you leave this page.")) {
		t.Fatalf("a reply whose messages were not stored ended with %q", body)
	}
	if msgs := s.messages(token, conv.ID); len(msgs) != 2 {
		t.Fatalf("%d messages stored after the failed one, want the first pair only: %+v", len(msgs), msgs)
	}

	proxy.CutWhenSent(nil)
	if body := send(question); !strings.HasSuffix(body, chattest.DoneFrame) {
		t.Fatalf("the same message once the table is back: %q", body)
	}
	msgs := s.messages(token, conv.ID)
	if len(msgs) != 4 || msgs[2].Content != question || msgs[3].Content != "re: "+question || !msgs[3].Complete {
		t.Fatalf("messages after the retry: %+v", msgs)
	}
}

// The writes of a message into a conversation this process knows start
// after the reply's first frames, not before them (DESIGN §10: the save
// runs beside the stream, never before it; on two cores its table calls
// would otherwise compete with the first frame): while the model has sent
// one delta, nothing of the message has reached the table; once it sends
// the next, the message is written and kept.
func TestKnownConversationWritesStartAfterTheFirstFrames(t *testing.T) {
	t.Parallel()
	st, proxy, _ := storetest.ViaFaultProxy(t, 0)
	const question = "question-written-later-5c1d"
	release := make(chan struct{})
	up := chattest.NewUpstream(func(ctx context.Context, req llm.Request, emit func(string) error) (llm.Usage, error) {
		if req.Messages[len(req.Messages)-1].Content != question {
			return llm.Usage{InputTokens: 1, OutputTokens: 1}, emit("warm")
		}
		if err := emit("first "); err != nil {
			return llm.Usage{}, err
		}
		select {
		case <-release:
		case <-ctx.Done():
			return llm.Usage{}, ctx.Err()
		}
		return llm.Usage{InputTokens: 1, OutputTokens: 2}, emit("second")
	})
	// No timer starts the writes here: only the frames do.
	s := mountStack(t, st, chatapi.Options{StallTimeout: patience, SureChecksAfter: time.Hour}, map[string]llm.Provider{"openai": up},
		func(*store.Store) *auth.Tokens { return auth.NewTokens(secret, time.Hour) }, mcpapi.Options{})
	_, token := s.user()
	conv := s.newConversation(token, "")
	conn := s.connect(token, "openai", "gpt-4o-mini")
	warm := s.sendWithin(token, map[string]any{"connection_id": conn, "message": "warm-up", "context": []any{}, "conversation_id": conv.ID}, patience)
	if body := warm.Body.String(); !strings.HasSuffix(body, chattest.DoneFrame) {
		t.Fatalf("first message: %q", body)
	}

	written := proxy.SeenSent([]byte(question))
	res := s.openStream(token, msg{ConnectionID: conn, Message: question, Context: []llm.Message{}, ConversationID: conv.ID})
	r := bufio.NewReader(res.Body)
	if ids, first := chattest.ReadFrame(t, r, patience), chattest.ReadFrame(t, r, patience); !strings.Contains(ids, "message_ids") || first != chattest.ContentFrame("first ") {
		t.Fatalf("first frames %q, %q; want the message ids and the first delta", ids, first)
	}
	// A bound on something that must not happen: the old code wrote the
	// message before the model was even called.
	select {
	case <-written:
		t.Fatal("the message reached the table before the reply's second frame")
	case <-time.After(time.Second):
	}
	close(release)
	select {
	case <-written:
	case <-time.After(patience):
		t.Fatal("the message never reached the table after the second frame")
	}
	var rest strings.Builder
	for !strings.HasSuffix(rest.String(), chattest.DoneFrame) {
		f := chattest.ReadFrame(t, r, patience)
		if f == "" {
			t.Fatalf("the stream ended without [DONE]: %q", rest.String())
		}
		rest.WriteString(f)
	}
	msgs := s.messages(token, conv.ID)
	if len(msgs) != 4 || msgs[2].Content != question || msgs[3].Content != "first second" || !msgs[3].Complete {
		t.Fatalf("messages: %+v", msgs)
	}
}
