package conversationsapi_test

import (
	"aiwork/shared/api/apitest"
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	"aiwork/shared/api/conversationsapi"
	"aiwork/shared/chat/chattest"
	"aiwork/shared/llm"
	"aiwork/shared/store"
)

// An old tab uploaded with its messages: they come back in order with
// their errors and usage, q= finds their words, and a message sent into
// the conversation afterwards comes after them.
func TestConversationUploadedWithItsMessages(t *testing.T) {
	t.Parallel()
	up := chattest.NewUpstream(func(_ context.Context, _ llm.Request, emit func(string) error) (llm.Usage, error) {
		return llm.Usage{InputTokens: 1, OutputTokens: 1}, emit("Later.")
	})
	s := newStack(t, nil, map[string]llm.Provider{"openai": up})
	_, token := s.user()
	long := strings.Repeat("é", store.MaxMessageText) // 2 MB: cut at 1 MB
	body := chattest.MustJSON(map[string]any{"title": "Old tab", "provider": "openai", "model": "gpt-4o-mini", "upload_key": "tab-1", "messages": []any{
		map[string]any{"role": "user", "content": "Where do herons nest?", "created_at": "2026-11-01T10:00:00Z"},
		map[string]any{"role": "assistant", "content": "In colonies.", "usage": map[string]any{"input_tokens": 7, "output_tokens": 3, "cost_usd": 0.001}},
		map[string]any{"role": "user", "content": "And egrets?", "created_at": "not a time"},
		map[string]any{"role": "assistant", "content": "", "error": "Rate limited by the provider."},
		map[string]any{"role": "user", "content": long},
	}})
	conv := apitest.Decode[chattest.Conversation](t, s.do("POST", convPath, token, body), http.StatusCreated)
	if conv.Title != "Old tab" || conv.MessageCount != 5 {
		t.Fatalf("uploaded %+v", conv)
	}
	msgs := s.messages(token, conv.ID)
	if len(msgs) != 5 || msgs[0].Content != "Where do herons nest?" || msgs[1].Content != "In colonies." || msgs[1].Usage == nil ||
		msgs[1].Usage.InputTokens != 7 || msgs[3].Error != "Rate limited by the provider." || !msgs[3].Complete || msgs[2].Role != "user" {
		t.Fatalf("messages %+v", msgs[:4])
	}
	if n := len(msgs[4].Content); n > store.MaxMessageText || n < store.MaxMessageText-1 {
		t.Errorf("a 2 MB message kept %d bytes, want it cut at %d", n, store.MaxMessageText)
	}
	if l := apitest.Decode[chattest.ConversationList](t, s.do("GET", convPath+"?q=egrets", token, ""), http.StatusOK); len(l.Conversations) != 1 || l.Conversations[0].ID != conv.ID {
		t.Errorf("q=egrets found %+v", l.Conversations)
	}

	conn := s.connect(token, "openai", "gpt-4o-mini")
	s.sendWithin(token, map[string]any{"connection_id": conn, "message": "Thanks", "context": []any{}, "conversation_id": conv.ID})
	msgs = s.messages(token, conv.ID)
	if len(msgs) != 7 || msgs[5].Content != "Thanks" || msgs[6].Content != "Later." {
		t.Fatalf("after a new message: %d messages, last two %+v", len(msgs), msgs[len(msgs)-2:])
	}
}

// The same upload again (a retry after a lost answer, or two at once)
// makes one conversation; another user's same key makes theirs.
func TestConversationUploadIsMadeOnce(t *testing.T) {
	t.Parallel()
	s := newStack(t, nil, nil)
	_, token := s.user()
	_, other := s.user()
	body := `{"provider":"openai","model":"gpt-4o-mini","upload_key":"tab-7","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}`
	first := apitest.Decode[chattest.Conversation](t, s.do("POST", convPath, token, body), http.StatusCreated)
	again := apitest.Decode[chattest.Conversation](t, s.do("POST", convPath, token, body), http.StatusOK)
	if again.ID != first.ID {
		t.Fatalf("the same upload made a second conversation: %s, %s", first.ID, again.ID)
	}
	var wg sync.WaitGroup
	codes := make(chan int, 6)
	for range 6 {
		wg.Go(func() { codes <- s.do("POST", convPath, other, body).Code })
	}
	wg.Wait()
	close(codes)
	created := 0
	for c := range codes {
		if c == http.StatusCreated {
			created++
		} else if c != http.StatusOK {
			t.Errorf("a concurrent upload answered %d", c)
		}
	}
	theirs := apitest.Decode[chattest.ConversationList](t, s.do("GET", convPath, other, ""), http.StatusOK)
	if created != 1 || theirs.Total != 1 || theirs.Conversations[0].ID == first.ID {
		t.Fatalf("6 concurrent uploads: %d created, the user has %+v", created, theirs)
	}
	if n := len(s.messages(other, theirs.Conversations[0].ID)); n != 2 {
		t.Errorf("6 concurrent uploads left %d messages, want 2", n)
	}
	if n := len(s.messages(token, first.ID)); n != 2 {
		t.Errorf("the first user's upload has %d messages after the other's, want 2", n)
	}
}

// Bad uploads are refused with a clear detail and store nothing.
func TestBadConversationUploads(t *testing.T) {
	t.Parallel()
	s := newStack(t, nil, nil)
	_, token := s.user()
	many := make([]any, conversationsapi.MaxUploadedMessages+1)
	for i := range many {
		many[i] = map[string]any{"role": "user", "content": "x"}
	}
	for _, tc := range []struct {
		body, detail string
		status       int
	}{
		{chattest.MustJSON(map[string]any{"provider": "openai", "model": "gpt-4o-mini", "messages": many}), "at most 500", http.StatusBadRequest},
		{`{"provider":"openai","model":"gpt-4o-mini","messages":[{"role":"system","content":"obey"}]}`, `messages[0].role must be "user" or "assistant"`, http.StatusBadRequest},
		{`{"provider":"openai","model":"gpt-4o-mini","messages":[{"role":"user","content":"a"},{"role":"user"}]}`, "messages[1].content is required", http.StatusBadRequest},
		{`{"provider":"openai","model":"gpt-4o-mini","messages":[{"role":"user","content":5}]}`, "must be a string", http.StatusBadRequest},
		{`{"provider":"openai","model":"gpt-4o-mini","messages":{"role":"user"}}`, "'messages' must be", http.StatusBadRequest},
		{`{"provider":"openai","model":"gpt-4o-mini","messages":[{"role":"assistant","content":"a","usage":{"input_tokens":-1}}]}`, "messages[0].usage", http.StatusBadRequest},
		{`{"provider":"openai","model":"gpt-4o-mini","upload_key":"` + strings.Repeat("k", 101) + `"}`, "upload_key", http.StatusBadRequest},
		{`{"provider":"openai","model":"gpt-4o-mini","messages":[{"role":"user","content":"` + strings.Repeat("x", 5<<20) + `"}]}`, "larger than", http.StatusRequestEntityTooLarge},
	} {
		got := chattest.WantError(t, s.do("POST", convPath, token, tc.body), tc.status)
		if !strings.Contains(got.Detail, tc.detail) {
			t.Errorf("detail %q, want it to say %q", got.Detail, tc.detail)
		}
	}
	if l := apitest.Decode[chattest.ConversationList](t, s.do("GET", convPath, token, ""), http.StatusOK); l.Total != 0 {
		t.Errorf("bad uploads stored %d conversations", l.Total)
	}
}
