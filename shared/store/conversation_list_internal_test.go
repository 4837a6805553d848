package store

import (
	"errors"
	"testing"
	"time"

	"aiwork/shared/domain"
)

func listedIDs(t *testing.T, s *Store, uid string) []string {
	t.Helper()
	page, err := s.ListConversationPage(t.Context(), uid, ConversationListQuery{Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range page.Conversations {
		ids = append(ids, c.ID)
	}
	return ids
}

func convItem(t *testing.T, s *Store, uid, cid string) conversationItem {
	t.Helper()
	var it conversationItem
	if err := s.getItem(t.Context(), userPK(uid), conversationSK(cid), &it); err != nil {
		t.Fatal(err)
	}
	return it
}

// A write that moved a conversation before its delete, whose copy lands
// after it, does not list it again; nor does a write of a conversation
// deleted and made again under its id (an upload's) move the new one's
// copy.
func TestLateCopyAfterDelete(t *testing.T) {
	t.Parallel()
	s := newInternalStore(t)
	ctx := t.Context()
	at := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	c := domain.Conversation{ID: "c1", Title: "First", Provider: "openai", Model: "gpt-4o-mini", CreatedAt: at, UpdatedAt: at}
	if err := s.CreateConversation(ctx, "ann", c); err != nil {
		t.Fatal(err)
	}
	// A claim's write, as its item answered it, then the delete.
	late := convItem(t, s, "ann", "c1")
	late.LRev++
	late.MessageCount += 2
	late.UpdatedAt = formatTime(at.Add(time.Minute))
	if err := s.DeleteConversation(ctx, "ann", "c1"); err != nil {
		t.Fatal(err)
	}
	s.syncListCopy(ctx, "ann", late, false)
	if ids := listedIDs(t, s, "ann"); len(ids) != 0 {
		t.Errorf("a late write listed the deleted conversation again: %v", ids)
	}
	var cp convListItem
	if err := s.getItem(ctx, userPK("ann"), convListSK("c1"), &cp); !errors.Is(err, ErrNotFound) {
		t.Errorf("copy left: %+v %v", cp, err)
	}

	// Made again under the id: an old write landing late leaves its copy.
	c.CreatedAt, c.UpdatedAt, c.Title = at.Add(time.Hour), at.Add(time.Hour), "Second"
	if err := s.CreateConversation(ctx, "ann", c); err != nil {
		t.Fatal(err)
	}
	late.LRev += 5
	s.syncListCopy(ctx, "ann", late, false)
	page, err := s.ListConversationPage(ctx, "ann", ConversationListQuery{Limit: 5})
	if err != nil || len(page.Conversations) != 1 || page.Conversations[0].Title != "Second" || !page.Conversations[0].UpdatedAt.Equal(c.UpdatedAt) {
		t.Errorf("made again: %+v %v", page.Conversations, err)
	}
}

// A delete stopped between the conversation and its copy leaves the copy
// listed: a Delete of it answers not found and takes it off; a
// conversation made under its id replaces it.
func TestOrphanCopy(t *testing.T) {
	t.Parallel()
	s := newInternalStore(t)
	ctx := t.Context()
	at := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	orphan := func(cid string) {
		t.Helper()
		if err := s.CreateConversation(ctx, "ann", domain.Conversation{ID: cid, Title: "Orphan", CreatedAt: at, UpdatedAt: at}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.deleteAll(ctx, userPK("ann"), conversationSK(cid)); err != nil {
			t.Fatal(err)
		}
	}
	orphan("c1")
	orphan("c2")
	if ids := listedIDs(t, s, "ann"); len(ids) != 2 {
		t.Fatalf("orphans listed: %v", ids)
	}
	if err := s.DeleteConversation(ctx, "ann", "c1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("delete of an orphan: %v", err)
	}
	if err := s.CreateConversation(ctx, "ann", domain.Conversation{ID: "c2", Title: "Made again", CreatedAt: at.Add(time.Hour), UpdatedAt: at.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	page, err := s.ListConversationPage(ctx, "ann", ConversationListQuery{Limit: 5})
	if err != nil || len(page.Conversations) != 1 || page.Conversations[0].Title != "Made again" {
		t.Errorf("after the delete and the make: %+v %v", page.Conversations, err)
	}
}
