package conversationsapi_test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"aiwork/shared/api/apitest"
	"aiwork/shared/chat/chattest"
	"aiwork/shared/domain"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// A search reads a bounded part of the list a request: with the only match
// at the far end of 350 conversations, the first answer is a page with no
// conversation and a cursor, the next brings the match and no cursor.
// total counts every conversation without reading them, before and after
// creates and deletes; another user lists and counts none of them.
func TestConversationListSearchAndTotal(t *testing.T) {
	t.Parallel()
	s := newStack(t, nil, nil)
	uid, token := s.user()
	_, other := s.user()
	const n = store.MaxConversationSearchRead + 50
	at := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	var g errgroup.Group
	g.SetLimit(8)
	for i := range n {
		g.Go(func() error {
			cid := fmt.Sprintf("c%04d", i)
			when := at.Add(time.Duration(i) * time.Minute)
			text := "Something else"
			if i == 0 {
				text = "Tell me about the tides"
			}
			return s.st.CreateConversation(t.Context(), uid, domain.Conversation{ID: cid, Title: "Chat", Provider: "openai", Model: "gpt-4o-mini", CreatedAt: when, UpdatedAt: when},
				domain.ConversationMessage{ID: cid + "-u", ConversationID: cid, Role: domain.RoleUser, Content: text, CreatedAt: when, UpdatedAt: when, Complete: true})
		})
	}
	storetest.Must(t, g.Wait(), "seed")

	list := func(token, query string) chattest.ConversationList {
		t.Helper()
		return apitest.Decode[chattest.ConversationList](t, s.do("GET", convPath+query, token, ""), http.StatusOK)
	}
	first := list(token, "?q=TIDES")
	if len(first.Conversations) != 0 || first.NextCursor == "" || first.Total != n {
		t.Fatalf("first search page: %d conversations, cursor %q, total %d", len(first.Conversations), first.NextCursor, first.Total)
	}
	second := list(token, "?q=TIDES&cursor="+url.QueryEscape(first.NextCursor))
	if len(second.Conversations) != 1 || second.Conversations[0].ID != "c0000" || second.NextCursor != "" {
		t.Errorf("second search page: %+v, cursor %q", second.Conversations, second.NextCursor)
	}

	page := list(token, "?limit=100")
	if len(page.Conversations) != 100 || page.Conversations[0].ID != fmt.Sprintf("c%04d", n-1) || page.NextCursor == "" || page.Total != n {
		t.Errorf("first page: %d conversations from %s, cursor %q, total %d", len(page.Conversations), page.Conversations[0].ID, page.NextCursor, page.Total)
	}
	created := s.newConversation(token, "Fresh")
	if w := s.do("DELETE", convPath+"/c0001", token, ""); w.Code != http.StatusNoContent {
		t.Fatalf("delete = %d %s", w.Code, w.Body)
	}
	if w := s.do("DELETE", convPath+"/c0002", token, ""); w.Code != http.StatusNoContent {
		t.Fatalf("delete = %d %s", w.Code, w.Body)
	}
	after := list(token, "?limit=1")
	if after.Total != n-1 || len(after.Conversations) != 1 || after.Conversations[0].ID != created.ID {
		t.Errorf("after a create and two deletes: total %d, first %+v", after.Total, after.Conversations)
	}
	if theirs := list(other, "?q=tides"); len(theirs.Conversations) != 0 || theirs.Total != 0 {
		t.Errorf("another user: %+v", theirs)
	}
	if theirs := list(other, "?cursor="+url.QueryEscape(page.NextCursor)); len(theirs.Conversations) != 0 {
		t.Errorf("another user with ann's cursor: %+v", theirs)
	}
}

// A cursor the API did not give is a 400 with a clear detail.
func TestConversationListBadCursors(t *testing.T) {
	t.Parallel()
	s := newStack(t, nil, nil)
	_, token := s.user()
	b64 := base64.RawURLEncoding.EncodeToString
	for _, c := range []string{"zzz", "!!!", b64([]byte("yesterday|c1")), b64([]byte("2026-11-25T12:00:00Z|")), b64([]byte("2026-11-25T12:00:00Z")),
		b64([]byte("2026-11-25T12:00:00Z|" + strings.Repeat("c", 2000)))} {
		e := chattest.WantError(t, s.do("GET", convPath+"?cursor="+url.QueryEscape(c), token, ""), http.StatusBadRequest)
		if e.Detail != "cursor is not one this API gave" {
			t.Errorf("cursor %.40q: detail %q", c, e.Detail)
		}
	}
}
