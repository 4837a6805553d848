package chatapi_test

import (
	"aiwork/shared/api/apitest"
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"aiwork/shared/api/chatapi"
	"aiwork/shared/api/conversationsapi"
	"aiwork/shared/api/mcpapi"
	"aiwork/shared/auth"
	"aiwork/shared/chat/chattest"
	"aiwork/shared/llm"
	"aiwork/shared/routes"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

const convPath = conversationsapi.ConversationsPath

// A message kept with its conversation: the stream opens with the message
// ids, the reply streams as before, and afterwards the conversation holds
// both messages, the reply complete with its usage; another user's
// conversation id is refused before anything reaches the model.
func TestMessageKeptWithConversation(t *testing.T) {
	t.Parallel()
	up := chattest.NewUpstream(func(_ context.Context, _ llm.Request, emit func(string) error) (llm.Usage, error) {
		for _, d := range []string{"Tides ", "are ", "the sea."} {
			if err := emit(d); err != nil {
				return llm.Usage{}, err
			}
		}
		return llm.Usage{InputTokens: 5, OutputTokens: 3}, nil
	})
	s := newStack(t, patience, map[string]llm.Provider{"openai": up})
	_, token := s.user()
	_, other := s.user()
	conv := s.newConversation(token, "Tides")
	conn := s.connect(token, "openai", "gpt-4o-mini")

	w := s.sendWithin(token, map[string]any{"connection_id": conn, "message": "What are tides?", "context": []any{}, "conversation_id": conv.ID}, patience)
	body := w.Body.String()
	if !strings.HasPrefix(body, `data: {"message_ids":{"user":"m`) || !strings.HasSuffix(body, chattest.DoneFrame) || !strings.Contains(body, chattest.ContentFrame("the sea.")) {
		t.Fatalf("stream %q", body)
	}
	var first struct {
		MessageIDs struct{ User, Assistant string } `json:"message_ids"`
	}
	_ = json.Unmarshal([]byte(strings.TrimPrefix(strings.SplitN(body, "\n", 2)[0], "data: ")), &first)
	msgs := s.messages(token, conv.ID)
	if len(msgs) != 2 || msgs[0].ID != first.MessageIDs.User || msgs[0].Content != "What are tides?" || msgs[0].Role != "user" ||
		msgs[1].ID != first.MessageIDs.Assistant || msgs[1].Content != "Tides are the sea." || !msgs[1].Complete || msgs[1].Usage == nil || msgs[1].Usage.OutputTokens != 3 {
		t.Fatalf("messages %+v", msgs)
	}
	if l := apitest.Decode[chattest.ConversationList](t, s.do("GET", convPath, token, ""), http.StatusOK); l.Conversations[0].MessageCount != 2 {
		t.Errorf("message_count %d, want 2", l.Conversations[0].MessageCount)
	}
	// The message's words find the conversation once the stream has ended:
	// the stream waits for their write rather than leave it running.
	if l := apitest.Decode[chattest.ConversationList](t, s.do("GET", convPath+"?q=what", token, ""), http.StatusOK); len(l.Conversations) != 1 || l.Conversations[0].ID != conv.ID {
		t.Errorf("q=what found %+v", l.Conversations)
	}

	// Another user's conversation: 404, nothing stored in it (the model
	// call, started beside the check as a sure message's is, is cut off
	// before its first frame).
	chattest.WantError(t, s.send(other, map[string]any{"connection_id": s.connect(other, "openai", "gpt-4o-mini"), "message": "hi", "context": []any{}, "conversation_id": conv.ID}), http.StatusNotFound)
	if msgs := s.messages(token, conv.ID); len(msgs) != 2 {
		t.Errorf("another user's message was stored: %d messages", len(msgs))
	}
	chattest.WantError(t, s.send(token, map[string]any{"connection_id": conn, "message": "hi", "context": []any{}, "conversation_id": strings.Repeat("c", 200)}), http.StatusNotFound)
}

// The table stops answering while a kept reply streams: the reply still
// reaches the client whole, and the stream ends with an error frame saying
// it was not saved (not [DONE]).
func TestReplyNotSavedStillReachesTheClient(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	up := chattest.Holds(release, "Saved ", "or not")
	fs := newFlakyStack(t, up)
	s := fs.stack
	_, token := s.user()
	conv := s.newConversation(token, "")
	conn := s.connect(token, "openai", "gpt-4o-mini")
	srv := httptest.NewServer(s.h)
	defer srv.Close()
	res := chattest.Post(t, context.Background(), srv.URL, token, map[string]any{"connection_id": conn, "message": "hi", "context": []any{}, "conversation_id": conv.ID})
	defer res.Body.Close()
	r := bufio.NewReader(res.Body)
	chattest.ReadData(t, r) // message ids
	if got := chattest.ReadData(t, r); got != chattest.ContentFrame("Saved ") {
		t.Fatalf("first content %q", got)
	}
	fs.broken.Store(true)
	close(release)
	rest := chattest.ReadToEnd(t, r)
	if !strings.Contains(rest, chattest.ContentFrame("or not")) || !strings.Contains(rest, "not saved") || strings.Contains(rest, chattest.DoneFrame) {
		t.Errorf("stream after the table went away: %q", rest)
	}
}

// flakyStack is a stack whose chat group reaches the table through a
// proxy the test controls: hold keeps the writes of messages waiting until
// release is closed; broken answers every call as if the table were gone.
type flakyStack struct {
	*stack
	broken  atomic.Bool
	hold    atomic.Bool
	release chan struct{}
	once    sync.Once
	up      *chattest.Upstream
}

// let releases the held writes (once; also when the test ends).
func (fs *flakyStack) let() { fs.once.Do(func() { close(fs.release) }) }

func newFlakyStack(t *testing.T, up *chattest.Upstream) *flakyStack {
	t.Helper()
	st, cfg := storetest.NewWithConfig(t)
	target, err := url.Parse(cfg.Endpoint)
	storetest.Must(t, err, "endpoint")
	fs := &flakyStack{release: make(chan struct{}), up: up}
	proxy := httputil.NewSingleHostReverseProxy(target)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if fs.broken.Load() {
			w.Header().Set("Content-Type", "application/x-amz-json-1.0")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException","message":"table unavailable"}`))
			return
		}
		if fs.hold.Load() && strings.HasSuffix(r.Header.Get("X-Amz-Target"), ".PutItem") {
			body, _ := io.ReadAll(r.Body)
			if strings.Contains(string(body), `"CMSG#`) {
				<-fs.release
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	t.Cleanup(fs.let) // before front.Close (cleanups run last first): no request stays held
	flakyCfg := cfg
	flakyCfg.Endpoint = front.URL
	flaky, err := store.New(context.Background(), flakyCfg)
	storetest.Must(t, err, "flaky store")
	tokens := auth.NewTokens(secret, time.Hour)
	reg := llm.NewRegistry(0)
	reg.Use("openai", up)
	h, err := routes.Mount(map[string]http.Handler{
		"mcp":  mcpapi.New(st, tokens, map[string]bool{"openai": true}, mcpapi.Options{}).Handler(),
		"chat": chatFunction(t, chatapi.New(flaky, tokens, reg, chatapi.Options{StallTimeout: patience}), conversationsapi.New(flaky, tokens, conversationsapi.Options{})),
	}, nil)
	storetest.Must(t, err, "mount")
	fs.stack = &stack{t: t, h: h, st: st, tokens: tokens}
	return fs
}

// A next message in a conversation this process already stored one in
// opens its stream without waiting for its writes; Stop with the ids just
// handed out waits for the message to be written, then stops it.
func TestKnownConversationStreamsBeforeItsWrites(t *testing.T) {
	t.Parallel()
	gate := make(chan struct{})
	calls := 0
	var mu sync.Mutex
	up := chattest.NewUpstream(func(ctx context.Context, _ llm.Request, emit func(string) error) (llm.Usage, error) {
		mu.Lock()
		calls++
		n := calls
		mu.Unlock()
		if err := emit("Hello"); err != nil {
			return llm.Usage{}, err
		}
		if n == 1 {
			return llm.Usage{InputTokens: 1, OutputTokens: 1}, nil
		}
		select {
		case <-gate:
		case <-ctx.Done():
			return llm.Usage{}, ctx.Err()
		}
		return llm.Usage{InputTokens: 1, OutputTokens: 1}, emit(" again")
	})
	fs := newFlakyStack(t, up)
	_, token := fs.user()
	conv := fs.newConversation(token, "")
	conn := fs.connect(token, "openai", "gpt-4o-mini")
	srv := httptest.NewServer(fs.h)
	defer srv.Close()
	defer close(gate) // the upstream's hold ends with the test
	defer fs.let()    // and no write stays held (defers run last first)
	first := fs.sendWithin(token, map[string]any{"connection_id": conn, "message": "one", "context": []any{}, "conversation_id": conv.ID}, patience)
	if !strings.HasSuffix(first.Body.String(), chattest.DoneFrame) {
		t.Fatalf("first message %q", first.Body)
	}

	fs.hold.Store(true)                                                // the second message's writes wait
	ctx, cancel := context.WithTimeout(context.Background(), patience) // headers come with the first frame
	defer cancel()
	res := chattest.Post(t, ctx, srv.URL, token, map[string]any{"connection_id": conn, "message": "two", "context": []any{}, "conversation_id": conv.ID})
	defer res.Body.Close()
	r := bufio.NewReader(res.Body)
	var opened struct {
		MessageIDs struct{ Assistant string } `json:"message_ids"`
	}
	_ = json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimPrefix(chattest.ReadData(t, r), "data: "), "\n\n")), &opened)
	if got := chattest.ReadData(t, r); got != chattest.ContentFrame("Hello") {
		t.Fatalf("first content while the writes wait: %q", got)
	}
	stopped := make(chan int, 1)
	go func() {
		stopped <- fs.do("POST", convPath+"/"+conv.ID+"/messages/"+opened.MessageIDs.Assistant+"/stop", token, "").Code
	}()
	fs.hold.Store(false)
	fs.let()
	if code := <-stopped; code != http.StatusNoContent {
		t.Fatalf("stop of a message still being written = %d", code)
	}
	if tail := chattest.ReadToEnd(t, r); !strings.HasSuffix(tail, chattest.DoneFrame) {
		t.Errorf("stopped stream ends %q", tail)
	}
	msgs := fs.messages(token, conv.ID)
	if len(msgs) != 4 || msgs[3].Content != "Hello" || !msgs[3].Stopped {
		t.Errorf("messages after the stop: %+v", msgs)
	}
}

// 50 messages sent at once into one conversation: every one is stored with
// its reply, in order of arrival, and counted; re-attaching to a reply of a
// conversation deleted afterwards is a 404.
func TestConcurrentMessagesIntoOneConversation(t *testing.T) {
	t.Parallel()
	up := chattest.NewUpstream(func(_ context.Context, req llm.Request, emit func(string) error) (llm.Usage, error) {
		return llm.Usage{InputTokens: 1, OutputTokens: 1}, emit("re: " + req.Messages[len(req.Messages)-1].Content)
	})
	s := newStack(t, patience, map[string]llm.Provider{"openai": up})
	_, token := s.user()
	conv := s.newConversation(token, "")
	conn := s.connect(token, "openai", "gpt-4o-mini")
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() {
			w := s.sendWithin(token, map[string]any{"connection_id": conn, "message": fmt.Sprintf("q%02d", i), "context": []any{}, "conversation_id": conv.ID}, patience)
			if !strings.HasSuffix(w.Body.String(), chattest.DoneFrame) {
				t.Errorf("message %d: %d %q", i, w.Code, w.Body)
			}
		})
	}
	wg.Wait()
	msgs := s.messages(token, conv.ID)
	if len(msgs) != 100 {
		t.Fatalf("%d messages stored, want 100", len(msgs))
	}
	// Each question is kept once, and its complete reply after it (two
	// messages sent in the same microsecond may interleave their pairs).
	asked := map[string]int{}
	for i, m := range msgs {
		if m.Role == "user" {
			asked[m.Content] = i
		}
	}
	if len(asked) != 50 {
		t.Errorf("%d distinct questions kept, want 50", len(asked))
	}
	for i, m := range msgs {
		if m.Role != "assistant" {
			continue
		}
		q, ok := asked[strings.TrimPrefix(m.Content, "re: ")]
		if !ok || q >= i || !m.Complete {
			t.Errorf("reply %d %q: its question at %d (found %v), complete %v", i, m.Content, q, ok, m.Complete)
		}
	}
	if l := apitest.Decode[chattest.ConversationList](t, s.do("GET", convPath, token, ""), http.StatusOK); l.Conversations[0].MessageCount != 100 {
		t.Errorf("message_count %d, want 100", l.Conversations[0].MessageCount)
	}
	if w := s.do("DELETE", convPath+"/"+conv.ID, token, ""); w.Code != http.StatusNoContent {
		t.Fatalf("delete = %d", w.Code)
	}
	chattest.WantError(t, s.do("GET", convPath+"/"+conv.ID+"/messages/"+msgs[1].ID+"/stream", token, ""), http.StatusNotFound)
}
