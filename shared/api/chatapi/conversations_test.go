package chatapi_test

import (
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
	"aiwork/shared/chat"
	"aiwork/shared/llm"
	"aiwork/shared/routes"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

const convPath = conversationsapi.ConversationsPath

type convJSON struct {
	ID           string `json:"id"`
	Title        string `json:"title"`
	Provider     string `json:"provider"`
	Model        string `json:"model"`
	CreatedAt    string `json:"created_at"`
	UpdatedAt    string `json:"updated_at"`
	Archived     bool   `json:"archived"`
	MessageCount int    `json:"message_count"`
}

type convListJSON struct {
	Conversations []convJSON `json:"conversations"`
	NextCursor    string     `json:"next_cursor"`
	Total         int        `json:"total"`
}

type convMessageJSON struct {
	ID       string `json:"id"`
	Role     string `json:"role"`
	Content  string `json:"content"`
	Complete bool   `json:"complete"`
	Error    string `json:"error"`
	Stopped  bool   `json:"stopped"`
	Usage    *struct {
		InputTokens  int `json:"input_tokens"`
		OutputTokens int `json:"output_tokens"`
	} `json:"usage"`
	Blocks []struct {
		At    int             `json:"at"`
		Frame json.RawMessage `json:"frame"`
	} `json:"blocks"`
}

func decodeAs[T any](t *testing.T, w *httptest.ResponseRecorder, status int) T {
	t.Helper()
	if w.Code != status {
		t.Fatalf("status = %d, want %d; body %s", w.Code, status, w.Body)
	}
	var v T
	if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil {
		t.Fatalf("body %s: %v", w.Body, err)
	}
	return v
}

func (s *stack) newConversation(token, title string) convJSON {
	s.t.Helper()
	body := `{"provider":"openai","model":"gpt-4o-mini"}`
	if title != "" {
		body = `{"provider":"openai","model":"gpt-4o-mini","title":` + mustJSON(title) + `}`
	}
	return decodeAs[convJSON](s.t, s.do("POST", convPath, token, body), http.StatusCreated)
}

func (s *stack) messages(token, cid string) []convMessageJSON {
	s.t.Helper()
	return decodeAs[struct {
		Messages []convMessageJSON `json:"messages"`
	}](s.t, s.do("GET", convPath+"/"+cid+"/messages", token, ""), http.StatusOK).Messages
}

// Creating, listing (newest first, archived apart, q=, paged), renaming,
// archiving and deleting; bad input refused with a clear detail; another
// user's conversation is 404 on every route.
func TestConversationRoutes(t *testing.T) {
	t.Parallel()
	clock := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	now := func() time.Time { clock = clock.Add(time.Second); return clock }
	s := newStackWith(t, chatapi.Options{StallTimeout: patience, Now: now}, nil)
	_, token := s.user()
	_, other := s.user()

	a := s.newConversation(token, "Tides")
	b := s.newConversation(token, "")
	c := s.newConversation(token, "Recipes for "+strings.Repeat("x", 10_000)+"\x00\x07 end")
	if b.Title != "New chat" || a.Provider != "openai" || a.Model != "gpt-4o-mini" || a.MessageCount != 0 || a.Archived {
		t.Errorf("created %+v / %+v", a, b)
	}
	if n := len([]rune(c.Title)); n != conversationsapi.MaxTitleRunes || strings.ContainsAny(c.Title, "\x00\x07") {
		t.Errorf("a 10,000-character title with control characters came back %d runes: %q…", n, c.Title[:20])
	}
	for _, body := range []string{`{"provider":"nope","model":"x"}`, `{"provider":"openai","model":"gpt-9"}`, `{"provider":"openai"}`, `{"provider":1}`, `{`} {
		wantError(t, s.do("POST", convPath, token, body), http.StatusBadRequest)
	}
	wantError(t, s.do("POST", convPath, "", `{"provider":"openai","model":"gpt-4o-mini"}`), http.StatusUnauthorized)

	list := decodeAs[convListJSON](t, s.do("GET", convPath, token, ""), http.StatusOK)
	if len(list.Conversations) != 3 || list.Conversations[0].ID != c.ID || list.Conversations[2].ID != a.ID || list.NextCursor != "" {
		t.Fatalf("list %+v", list)
	}
	page := decodeAs[convListJSON](t, s.do("GET", convPath+"?limit=2", token, ""), http.StatusOK)
	rest := decodeAs[convListJSON](t, s.do("GET", convPath+"?limit=2&cursor="+page.NextCursor, token, ""), http.StatusOK)
	if len(page.Conversations) != 2 || page.NextCursor == "" || len(rest.Conversations) != 1 || rest.Conversations[0].ID != a.ID || rest.NextCursor != "" {
		t.Errorf("pages %+v then %+v", page, rest)
	}
	wantError(t, s.do("GET", convPath+"?cursor=zzz", token, ""), http.StatusBadRequest)
	wantError(t, s.do("GET", convPath+"?limit=0", token, ""), http.StatusBadRequest)
	if q := decodeAs[convListJSON](t, s.do("GET", convPath+"?q=TIDES", token, ""), http.StatusOK); len(q.Conversations) != 1 || q.Conversations[0].ID != a.ID {
		t.Errorf("q=TIDES: %+v", q)
	}
	if theirs := decodeAs[convListJSON](t, s.do("GET", convPath, other, ""), http.StatusOK); len(theirs.Conversations) != 0 {
		t.Errorf("another user lists %+v", theirs)
	}

	p := decodeAs[convJSON](t, s.do("PATCH", convPath+"/"+a.ID, token, `{"title":"  Tides\tand moons ","archived":true,"model":"gpt-4o"}`), http.StatusOK)
	if p.Title != "Tides and moons" || !p.Archived || p.Model != "gpt-4o" || p.Provider != "openai" {
		t.Errorf("patched %+v", p)
	}
	wantError(t, s.do("PATCH", convPath+"/"+a.ID, token, `{"model":"nope"}`), http.StatusBadRequest)
	if open := decodeAs[convListJSON](t, s.do("GET", convPath+"?archived=false", token, ""), http.StatusOK); len(open.Conversations) != 2 {
		t.Errorf("open after archiving one: %d", len(open.Conversations))
	}
	if arch := decodeAs[convListJSON](t, s.do("GET", convPath+"?archived=true", token, ""), http.StatusOK); len(arch.Conversations) != 1 || arch.Conversations[0].ID != a.ID || arch.Total != 3 {
		t.Errorf("archived: %+v", arch)
	}

	for _, r := range []struct{ method, path, body string }{
		{"PATCH", convPath + "/" + a.ID, `{"title":"mine now"}`},
		{"DELETE", convPath + "/" + a.ID, ""},
		{"GET", convPath + "/" + a.ID + "/messages", ""},
		{"GET", convPath + "/" + a.ID + "/messages/m1/stream", ""},
		{"POST", convPath + "/" + a.ID + "/messages/m1/stop", ""},
		{"GET", convPath + "/" + strings.Repeat("c", 5000) + "/messages", ""},
	} {
		wantError(t, s.do(r.method, r.path, other, r.body), http.StatusNotFound)
	}
	if w := s.do("DELETE", convPath+"/"+a.ID, token, ""); w.Code != http.StatusNoContent {
		t.Fatalf("delete = %d %s", w.Code, w.Body)
	}
	wantError(t, s.do("DELETE", convPath+"/"+a.ID, token, ""), http.StatusNotFound)
	wantError(t, s.do("GET", convPath+"/"+a.ID+"/messages", token, ""), http.StatusNotFound)
}

// A message kept with its conversation: the stream opens with the message
// ids, the reply streams as before, and afterwards the conversation holds
// both messages, the reply complete with its usage; another user's
// conversation id is refused before anything reaches the model.
func TestMessageKeptWithConversation(t *testing.T) {
	t.Parallel()
	up := newUpstream(func(_ context.Context, _ llm.Request, emit func(string) error) (llm.Usage, error) {
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
	if !strings.HasPrefix(body, `data: {"message_ids":{"user":"m`) || !strings.HasSuffix(body, doneFrame) || !strings.Contains(body, contentFrame("the sea.")) {
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
	if l := decodeAs[convListJSON](t, s.do("GET", convPath, token, ""), http.StatusOK); l.Conversations[0].MessageCount != 2 {
		t.Errorf("message_count %d, want 2", l.Conversations[0].MessageCount)
	}

	// Another user's conversation: 404, nothing stored in it (the model
	// call, started beside the check as a sure message's is, is cut off
	// before its first frame).
	wantError(t, s.send(other, map[string]any{"connection_id": s.connect(other, "openai", "gpt-4o-mini"), "message": "hi", "context": []any{}, "conversation_id": conv.ID}), http.StatusNotFound)
	if msgs := s.messages(token, conv.ID); len(msgs) != 2 {
		t.Errorf("another user's message was stored: %d messages", len(msgs))
	}
	wantError(t, s.send(token, map[string]any{"connection_id": conn, "message": "hi", "context": []any{}, "conversation_id": strings.Repeat("c", 200)}), http.StatusNotFound)
}

// The client leaves after the first chunk: the reply goes on, is saved
// whole, and a re-attach answers it; a re-attach while it is still being
// generated gets the text so far, then the rest as it arrives.
func TestReplyOutlivesItsClient(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	up := holds(release, "Bon", "jour", " à vous")
	s := newStack(t, patience, map[string]llm.Provider{"openai": up})
	_, token := s.user()
	conv := s.newConversation(token, "")
	conn := s.connect(token, "openai", "gpt-4o-mini")
	srv := httptest.NewServer(s.h)
	defer srv.Close()

	ctx, cancel := context.WithCancel(context.Background())
	res := post(t, ctx, srv.URL, token, map[string]any{"connection_id": conn, "message": "hi", "context": []any{}, "conversation_id": conv.ID})
	r := bufio.NewReader(res.Body)
	ids := readFrame(t, r, patience)
	if got := readFrame(t, r, patience); got != contentFrame("Bon") {
		t.Fatalf("first content frame %q", got)
	}
	cancel()
	res.Body.Close()
	var opened struct {
		MessageIDs struct{ Assistant string } `json:"message_ids"`
	}
	_ = json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimPrefix(ids, "data: "), "\n\n")), &opened)
	mid := opened.MessageIDs.Assistant

	// Still generating: re-attach from another "device".
	attach, err := http.NewRequest("GET", srv.URL+convPath+"/"+conv.ID+"/messages/"+mid+"/stream", nil)
	storetest.Must(t, err, "request")
	attach.Header.Set("Authorization", "Bearer "+token)
	ares, err := http.DefaultClient.Do(attach)
	storetest.Must(t, err, "re-attach")
	defer ares.Body.Close()
	ar := bufio.NewReader(ares.Body)
	if got := readData(t, ar); got != contentFrame("Bon") {
		t.Fatalf("re-attached first frame %q", got)
	}
	select {
	case <-up.ended:
		t.Fatal("the upstream call ended when the client left")
	default:
	}
	close(release)
	rest := readToEnd(t, ar)
	if !strings.Contains(rest, "jour") || !strings.Contains(rest, "à vous") || !strings.Contains(rest, `"usage"`) || !strings.HasSuffix(rest, doneFrame) {
		t.Errorf("re-attached rest %q", rest)
	}
	msgs := s.messages(token, conv.ID)
	if len(msgs) != 2 || msgs[1].Content != "Bonjour à vous" || !msgs[1].Complete {
		t.Fatalf("saved reply %+v", msgs)
	}
	// Finished: a re-attach answers it at once.
	done := s.do("GET", convPath+"/"+conv.ID+"/messages/"+mid+"/stream", token, "").Body.String()
	if done != contentFrame("Bonjour à vous")+strings.TrimPrefix(done, contentFrame("Bonjour à vous")) || !strings.HasSuffix(done, doneFrame) {
		t.Errorf("re-attach to a finished reply: %q", done)
	}
	// The user message is no reply to re-attach to.
	wantError(t, s.do("GET", convPath+"/"+conv.ID+"/messages/"+msgs[0].ID+"/stream", token, ""), http.StatusNotFound)
}

// Stop ends the generation on the server (the model call is cancelled) and
// keeps what the reply had; deleting the conversation mid-reply ends it too.
func TestStopAndDeleteEndGeneration(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"stop", "delete"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			up := holds(make(chan struct{}), "Once upon", "never")
			s := newStack(t, patience, map[string]llm.Provider{"openai": up})
			_, token := s.user()
			conv := s.newConversation(token, "")
			conn := s.connect(token, "openai", "gpt-4o-mini")
			srv := httptest.NewServer(s.h)
			defer srv.Close()
			res := post(t, context.Background(), srv.URL, token, map[string]any{"connection_id": conn, "message": "a story", "context": []any{}, "conversation_id": conv.ID})
			defer res.Body.Close()
			r := bufio.NewReader(res.Body)
			var opened struct {
				MessageIDs struct{ Assistant string } `json:"message_ids"`
			}
			_ = json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimPrefix(readFrame(t, r, patience), "data: "), "\n\n")), &opened)
			readFrame(t, r, patience) // "Once upon"
			if how == "stop" {
				if w := s.do("POST", convPath+"/"+conv.ID+"/messages/"+opened.MessageIDs.Assistant+"/stop", token, ""); w.Code != http.StatusNoContent {
					t.Fatalf("stop = %d %s", w.Code, w.Body)
				}
			} else if w := s.do("DELETE", convPath+"/"+conv.ID, token, ""); w.Code != http.StatusNoContent {
				t.Fatalf("delete = %d %s", w.Code, w.Body)
			}
			select {
			case <-up.ended:
			case <-time.After(chat.SaveEvery + patience):
				t.Fatal("the model call went on after " + how)
			}
			tail := readToEnd(t, r)
			if how == "stop" {
				msgs := s.messages(token, conv.ID)
				if len(msgs) != 2 || msgs[1].Content != "Once upon" || !msgs[1].Complete || !msgs[1].Stopped {
					t.Errorf("stopped reply %+v", msgs)
				}
				if !strings.HasSuffix(tail, doneFrame) {
					t.Errorf("stopped stream ends %q", tail)
				}
			}
		})
	}
}

// readData reads the next frame that is not a comment (": …" keep-alives).
func readData(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	for {
		if f := readFrame(t, r, patience); !strings.HasPrefix(f, ":") {
			return f
		}
	}
}

// The table stops answering while a kept reply streams: the reply still
// reaches the client whole, and the stream ends with an error frame saying
// it was not saved (not [DONE]).
func TestReplyNotSavedStillReachesTheClient(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	up := holds(release, "Saved ", "or not")
	fs := newFlakyStack(t, up)
	s := fs.stack
	_, token := s.user()
	conv := s.newConversation(token, "")
	conn := s.connect(token, "openai", "gpt-4o-mini")
	srv := httptest.NewServer(s.h)
	defer srv.Close()
	res := post(t, context.Background(), srv.URL, token, map[string]any{"connection_id": conn, "message": "hi", "context": []any{}, "conversation_id": conv.ID})
	defer res.Body.Close()
	r := bufio.NewReader(res.Body)
	readData(t, r) // message ids
	if got := readData(t, r); got != contentFrame("Saved ") {
		t.Fatalf("first content %q", got)
	}
	fs.broken.Store(true)
	close(release)
	rest := readToEnd(t, r)
	if !strings.Contains(rest, contentFrame("or not")) || !strings.Contains(rest, "not saved") || strings.Contains(rest, doneFrame) {
		t.Errorf("stream after the table went away: %q", rest)
	}
}

// readToEnd reads data frames up to the stream's end ([DONE] or an error
// frame) and answers them.
func readToEnd(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	var all strings.Builder
	for {
		f := readData(t, r)
		all.WriteString(f)
		if f == doneFrame || strings.HasPrefix(f, "event: error") {
			return all.String()
		}
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
	up      *upstream
}

// let releases the held writes (once; also when the test ends).
func (fs *flakyStack) let() { fs.once.Do(func() { close(fs.release) }) }

func newFlakyStack(t *testing.T, up *upstream) *flakyStack {
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
	up := newUpstream(func(ctx context.Context, _ llm.Request, emit func(string) error) (llm.Usage, error) {
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
	if !strings.HasSuffix(first.Body.String(), doneFrame) {
		t.Fatalf("first message %q", first.Body)
	}

	fs.hold.Store(true)                                                // the second message's writes wait
	ctx, cancel := context.WithTimeout(context.Background(), patience) // headers come with the first frame
	defer cancel()
	res := post(t, ctx, srv.URL, token, map[string]any{"connection_id": conn, "message": "two", "context": []any{}, "conversation_id": conv.ID})
	defer res.Body.Close()
	r := bufio.NewReader(res.Body)
	var opened struct {
		MessageIDs struct{ Assistant string } `json:"message_ids"`
	}
	_ = json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimPrefix(readData(t, r), "data: "), "\n\n")), &opened)
	if got := readData(t, r); got != contentFrame("Hello") {
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
	if tail := readToEnd(t, r); !strings.HasSuffix(tail, doneFrame) {
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
	up := newUpstream(func(_ context.Context, req llm.Request, emit func(string) error) (llm.Usage, error) {
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
			if !strings.HasSuffix(w.Body.String(), doneFrame) {
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
	if l := decodeAs[convListJSON](t, s.do("GET", convPath, token, ""), http.StatusOK); l.Conversations[0].MessageCount != 100 {
		t.Errorf("message_count %d, want 100", l.Conversations[0].MessageCount)
	}
	if w := s.do("DELETE", convPath+"/"+conv.ID, token, ""); w.Code != http.StatusNoContent {
		t.Fatalf("delete = %d", w.Code)
	}
	wantError(t, s.do("GET", convPath+"/"+conv.ID+"/messages/"+msgs[1].ID+"/stream", token, ""), http.StatusNotFound)
}
