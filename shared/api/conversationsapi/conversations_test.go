package conversationsapi_test

import (
	"aiwork/shared/api/apitest"
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"aiwork/shared/api/conversationsapi"
	"aiwork/shared/chat"
	"aiwork/shared/chat/chattest"
	"aiwork/shared/llm"
	"aiwork/shared/store/storetest"
)

const convPath = conversationsapi.ConversationsPath

// Creating, listing (newest first, archived apart, q=, paged), renaming,
// archiving and deleting; bad input refused with a clear detail; another
// user's conversation is 404 on every route.
func TestConversationRoutes(t *testing.T) {
	t.Parallel()
	clock := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	now := func() time.Time { clock = clock.Add(time.Second); return clock }
	s := newStack(t, now, nil)
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
		chattest.WantError(t, s.do("POST", convPath, token, body), http.StatusBadRequest)
	}
	chattest.WantError(t, s.do("POST", convPath, "", `{"provider":"openai","model":"gpt-4o-mini"}`), http.StatusUnauthorized)

	list := apitest.Decode[chattest.ConversationList](t, s.do("GET", convPath, token, ""), http.StatusOK)
	if len(list.Conversations) != 3 || list.Conversations[0].ID != c.ID || list.Conversations[2].ID != a.ID || list.NextCursor != "" {
		t.Fatalf("list %+v", list)
	}
	page := apitest.Decode[chattest.ConversationList](t, s.do("GET", convPath+"?limit=2", token, ""), http.StatusOK)
	rest := apitest.Decode[chattest.ConversationList](t, s.do("GET", convPath+"?limit=2&cursor="+page.NextCursor, token, ""), http.StatusOK)
	if len(page.Conversations) != 2 || page.NextCursor == "" || len(rest.Conversations) != 1 || rest.Conversations[0].ID != a.ID || rest.NextCursor != "" {
		t.Errorf("pages %+v then %+v", page, rest)
	}
	chattest.WantError(t, s.do("GET", convPath+"?cursor=zzz", token, ""), http.StatusBadRequest)
	chattest.WantError(t, s.do("GET", convPath+"?limit=0", token, ""), http.StatusBadRequest)
	if q := apitest.Decode[chattest.ConversationList](t, s.do("GET", convPath+"?q=TIDES", token, ""), http.StatusOK); len(q.Conversations) != 1 || q.Conversations[0].ID != a.ID {
		t.Errorf("q=TIDES: %+v", q)
	}
	if theirs := apitest.Decode[chattest.ConversationList](t, s.do("GET", convPath, other, ""), http.StatusOK); len(theirs.Conversations) != 0 {
		t.Errorf("another user lists %+v", theirs)
	}

	p := apitest.Decode[chattest.Conversation](t, s.do("PATCH", convPath+"/"+a.ID, token, `{"title":"  Tides\tand moons ","archived":true,"model":"gpt-4o"}`), http.StatusOK)
	if p.Title != "Tides and moons" || !p.Archived || p.Model != "gpt-4o" || p.Provider != "openai" {
		t.Errorf("patched %+v", p)
	}
	chattest.WantError(t, s.do("PATCH", convPath+"/"+a.ID, token, `{"model":"nope"}`), http.StatusBadRequest)
	if open := apitest.Decode[chattest.ConversationList](t, s.do("GET", convPath+"?archived=false", token, ""), http.StatusOK); len(open.Conversations) != 2 {
		t.Errorf("open after archiving one: %d", len(open.Conversations))
	}
	if arch := apitest.Decode[chattest.ConversationList](t, s.do("GET", convPath+"?archived=true", token, ""), http.StatusOK); len(arch.Conversations) != 1 || arch.Conversations[0].ID != a.ID || arch.Total != 3 {
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
		chattest.WantError(t, s.do(r.method, r.path, other, r.body), http.StatusNotFound)
	}
	if w := s.do("DELETE", convPath+"/"+a.ID, token, ""); w.Code != http.StatusNoContent {
		t.Fatalf("delete = %d %s", w.Code, w.Body)
	}
	chattest.WantError(t, s.do("DELETE", convPath+"/"+a.ID, token, ""), http.StatusNotFound)
	chattest.WantError(t, s.do("GET", convPath+"/"+a.ID+"/messages", token, ""), http.StatusNotFound)
}

// The client leaves after the first chunk: the reply goes on, is saved
// whole, and a re-attach answers it; a re-attach while it is still being
// generated gets the text so far, then the rest as it arrives.
func TestReplyOutlivesItsClient(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	up := chattest.Holds(release, "Bon", "jour", " à vous")
	s := newStack(t, nil, map[string]llm.Provider{"openai": up})
	_, token := s.user()
	conv := s.newConversation(token, "")
	conn := s.connect(token, "openai", "gpt-4o-mini")
	srv := httptest.NewServer(s.h)
	defer srv.Close()

	ctx, cancel := context.WithCancel(context.Background())
	res := chattest.Post(t, ctx, srv.URL, token, map[string]any{"connection_id": conn, "message": "hi", "context": []any{}, "conversation_id": conv.ID})
	r := bufio.NewReader(res.Body)
	ids := chattest.ReadFrame(t, r, patience)
	if got := chattest.ReadFrame(t, r, patience); got != chattest.ContentFrame("Bon") {
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
	if got := chattest.ReadData(t, ar); got != chattest.ContentFrame("Bon") {
		t.Fatalf("re-attached first frame %q", got)
	}
	select {
	case <-up.Ended:
		t.Fatal("the upstream call ended when the client left")
	default:
	}
	close(release)
	rest := chattest.ReadToEnd(t, ar)
	if !strings.Contains(rest, "jour") || !strings.Contains(rest, "à vous") || !strings.Contains(rest, `"usage"`) || !strings.HasSuffix(rest, chattest.DoneFrame) {
		t.Errorf("re-attached rest %q", rest)
	}
	msgs := s.messages(token, conv.ID)
	if len(msgs) != 2 || msgs[1].Content != "Bonjour à vous" || !msgs[1].Complete {
		t.Fatalf("saved reply %+v", msgs)
	}
	// Finished: a re-attach answers it at once.
	done := s.do("GET", convPath+"/"+conv.ID+"/messages/"+mid+"/stream", token, "").Body.String()
	if done != chattest.ContentFrame("Bonjour à vous")+strings.TrimPrefix(done, chattest.ContentFrame("Bonjour à vous")) || !strings.HasSuffix(done, chattest.DoneFrame) {
		t.Errorf("re-attach to a finished reply: %q", done)
	}
	// The user message is no reply to re-attach to.
	chattest.WantError(t, s.do("GET", convPath+"/"+conv.ID+"/messages/"+msgs[0].ID+"/stream", token, ""), http.StatusNotFound)
}

// Stop ends the generation on the server (the model call is cancelled) and
// keeps what the reply had; deleting the conversation mid-reply ends it too.
func TestStopAndDeleteEndGeneration(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"stop", "delete"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			up := chattest.Holds(make(chan struct{}), "Once upon", "never")
			s := newStack(t, nil, map[string]llm.Provider{"openai": up})
			_, token := s.user()
			conv := s.newConversation(token, "")
			conn := s.connect(token, "openai", "gpt-4o-mini")
			srv := httptest.NewServer(s.h)
			defer srv.Close()
			res := chattest.Post(t, context.Background(), srv.URL, token, map[string]any{"connection_id": conn, "message": "a story", "context": []any{}, "conversation_id": conv.ID})
			defer res.Body.Close()
			r := bufio.NewReader(res.Body)
			var opened struct {
				MessageIDs struct{ Assistant string } `json:"message_ids"`
			}
			_ = json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimPrefix(chattest.ReadFrame(t, r, patience), "data: "), "\n\n")), &opened)
			chattest.ReadFrame(t, r, patience) // "Once upon"
			if how == "stop" {
				if w := s.do("POST", convPath+"/"+conv.ID+"/messages/"+opened.MessageIDs.Assistant+"/stop", token, ""); w.Code != http.StatusNoContent {
					t.Fatalf("stop = %d %s", w.Code, w.Body)
				}
			} else if w := s.do("DELETE", convPath+"/"+conv.ID, token, ""); w.Code != http.StatusNoContent {
				t.Fatalf("delete = %d %s", w.Code, w.Body)
			}
			select {
			case <-up.Ended:
			case <-time.After(chat.SaveEvery + patience):
				t.Fatal("the model call went on after " + how)
			}
			tail := chattest.ReadToEnd(t, r)
			if how == "stop" {
				msgs := s.messages(token, conv.ID)
				if len(msgs) != 2 || msgs[1].Content != "Once upon" || !msgs[1].Complete || !msgs[1].Stopped {
					t.Errorf("stopped reply %+v", msgs)
				}
				if !strings.HasSuffix(tail, chattest.DoneFrame) {
					t.Errorf("stopped stream ends %q", tail)
				}
			}
		})
	}
}
