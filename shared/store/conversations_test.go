package store_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

var convAt = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

func newConversation(t *testing.T, st *store.Store, uid, cid string) {
	t.Helper()
	storetest.Must(t, st.CreateConversation(ctx, uid, domain.Conversation{ID: cid, Title: "Chat " + cid, Provider: "openai", Model: "gpt-4o-mini",
		CreatedAt: convAt, UpdatedAt: convAt}), "create conversation")
}

func message(cid, mid, role, text string) domain.ConversationMessage {
	return domain.ConversationMessage{ID: mid, ConversationID: cid, Role: role, Content: text, CreatedAt: convAt, UpdatedAt: convAt, Complete: role == domain.RoleUser}
}

// A conversation's life: created, listed, patched, messages added in order
// and counted, one reply saved as it grows and completed, the whole deleted
// with its messages; another user sees none of it.
func TestConversationLifecycle(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	newConversation(t, st, "ann", "c1")
	if err := st.CreateConversation(ctx, "ann", domain.Conversation{ID: "c1"}); err == nil {
		t.Error("a second conversation with the same id was created")
	}
	storetest.Must(t, addMessages(st, "ann", "c1", "Tides please", convAt.Add(time.Second),
		message("c1", "m1", domain.RoleUser, "Tides please"), message("c1", "m2", domain.RoleAssistant, "")), "add")

	reply := message("c1", "m2", domain.RoleAssistant, "Tides are")
	w := st.ReplyWriter("ann", message("c1", "m2", domain.RoleAssistant, ""))
	storetest.Must(t, w.Save(ctx, reply), "save partial")
	reply.Content += " the rise and fall of the sea."
	reply.Complete = true
	reply.Usage = &domain.MessageUsage{InputTokens: 3, OutputTokens: 9, Demo: true}
	reply.Blocks = []domain.MessageBlock{{At: 9, Frame: json.RawMessage(`{"notice":"x"}`)}}
	storetest.Must(t, w.Save(ctx, reply), "save final")

	msgs, err := st.ListMessages(ctx, "ann", "c1")
	storetest.Must(t, err, "list")
	if len(msgs) != 2 || msgs[0].Content != "Tides please" || msgs[1].Content != reply.Content || !msgs[1].Complete ||
		msgs[1].Usage == nil || msgs[1].Usage.OutputTokens != 9 || len(msgs[1].Blocks) != 1 || string(msgs[1].Blocks[0].Frame) != `{"notice":"x"}` {
		t.Fatalf("messages %+v", msgs)
	}
	c, err := st.GetConversation(ctx, "ann", "c1")
	storetest.Must(t, err, "get")
	if c.MessageCount != 2 || !c.UpdatedAt.Equal(convAt.Add(time.Second)) || !strings.Contains(c.Search, "tides please") {
		t.Errorf("conversation after messages: %+v", c)
	}
	archived, title := true, "Renamed"
	c, err = st.UpdateConversation(ctx, "ann", "c1", store.ConversationPatch{Title: &title, Archived: &archived}, convAt.Add(time.Minute))
	if err != nil || c.Title != "Renamed" || !c.Archived || c.Model != "gpt-4o-mini" {
		t.Errorf("patched: %+v %v", c, err)
	}

	// Another user: nothing of ann's.
	if _, err := st.GetConversation(ctx, "bob", "c1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("bob reads ann's conversation: %v", err)
	}
	if _, err := st.UpdateConversation(ctx, "bob", "c1", store.ConversationPatch{Title: &title}, convAt); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("bob patches ann's conversation: %v", err)
	}
	if err := addMessages(st, "bob", "c1", "", convAt, message("c1", "m9", domain.RoleUser, "hi")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("bob adds to ann's conversation: %v", err)
	}
	if _, err := st.GetMessage(ctx, "bob", "c1", "m2"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("bob reads ann's message: %v", err)
	}
	if err := st.DeleteConversation(ctx, "bob", "c1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("bob deletes ann's conversation: %v", err)
	}

	n, err := st.CountConversations(ctx, "ann")
	if err != nil || n != 1 {
		t.Errorf("count = %d %v", n, err)
	}
	storetest.Must(t, st.DeleteConversation(ctx, "ann", "c1"), "delete")
	for _, item := range storetest.ScanAll(t, st) {
		if sk := fmt.Sprint(item["SK"]); strings.Contains(sk, "c1") {
			t.Errorf("item %s left after the delete", sk)
		}
	}
	// The reply's generator finds it gone.
	if err := w.Save(ctx, reply); !errors.Is(err, store.ErrStopRequested) {
		t.Errorf("save after delete: %v, want ErrStopRequested", err)
	}
}

// 50 concurrent messages into one conversation: every one kept, counted,
// listed in id order.
func TestConversationConcurrentMessages(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	newConversation(t, st, "ann", "c1")
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() {
			mid := fmt.Sprintf("m%03d", i)
			storetest.Must(t, addMessages(st, "ann", "c1", mid, convAt, message("c1", mid, domain.RoleUser, mid)), "add "+mid)
		})
	}
	wg.Wait()
	msgs, err := st.ListMessages(ctx, "ann", "c1")
	storetest.Must(t, err, "list")
	if len(msgs) != 50 {
		t.Fatalf("%d messages, want 50", len(msgs))
	}
	for i, m := range msgs {
		if m.ID != fmt.Sprintf("m%03d", i) || m.Content != m.ID {
			t.Errorf("message %d is %s", i, m.ID)
		}
	}
	if c, _ := st.GetConversation(ctx, "ann", "c1"); c.MessageCount != 50 {
		t.Errorf("count %d, want 50", c.MessageCount)
	}
}

// addMessages stores messages as the chat does: the claim, the messages,
// the search words.
func addMessages(st *store.Store, uid, cid, snippet string, now time.Time, msgs ...domain.ConversationMessage) error {
	if err := st.ClaimMessages(ctx, uid, cid, len(msgs), now, ""); err != nil {
		return err
	}
	if err := st.PutMessages(ctx, uid, msgs...); err != nil {
		return err
	}
	return st.AddSearchSnippet(ctx, uid, cid, snippet)
}

// A conversation keeps its agent (in its list copy too), and a claim of
// messages holds only for that agent: another, or none, is refused without
// a count; an unknown conversation is not found.
func TestConversationBoundToAnAgent(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	storetest.Must(t, st.CreateConversation(ctx, "ann", domain.Conversation{ID: "c1", Title: "Pirate", Provider: "openai", Model: "gpt-4o-mini",
		CreatedAt: convAt, UpdatedAt: convAt, AgentID: "a-000000000001", AgentName: "Pirate"}), "create")
	newConversation(t, st, "ann", "c2")
	for _, tt := range []struct {
		cid, agent string
		want       error
	}{
		{"c1", "a-000000000001", nil}, {"c1", "", store.ErrOtherAgent}, {"c1", "a-000000000002", store.ErrOtherAgent},
		{"c2", "", nil}, {"c2", "a-000000000001", store.ErrOtherAgent}, {"c3", "", store.ErrNotFound},
	} {
		if err := st.ClaimMessages(ctx, "ann", tt.cid, 1, convAt, tt.agent); !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
			t.Errorf("claim %s as %q: %v, want %v", tt.cid, tt.agent, err, tt.want)
		}
	}
	c, err := st.GetConversation(ctx, "ann", "c1")
	if err != nil || c.AgentID != "a-000000000001" || c.AgentName != "Pirate" || c.MessageCount != 1 {
		t.Fatalf("c1 = %+v, %v", c, err)
	}
	page, err := st.ListConversationPage(ctx, "ann", store.ConversationListQuery{Limit: 10})
	if err != nil || len(page.Conversations) != 2 {
		t.Fatalf("list: %+v, %v", page, err)
	}
	for _, got := range page.Conversations {
		if want := map[string]string{"c1": "a-000000000001", "c2": ""}[got.ID]; got.AgentID != want {
			t.Errorf("listed %s with agent %q, want %q", got.ID, got.AgentID, want)
		}
	}
}
