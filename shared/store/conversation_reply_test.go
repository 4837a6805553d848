package store_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// newReply stores a user message and its empty reply in ann's conversation
// c1, and answers the reply as stored.
func newReply(t *testing.T, st *store.Store) domain.ConversationMessage {
	t.Helper()
	newConversation(t, st, "ann", "c1")
	reply := message("c1", "m2", domain.RoleAssistant, "")
	storetest.Must(t, addMessages(st, "ann", "c1", "", convAt, message("c1", "m1", domain.RoleUser, "Write at length"), reply), "add")
	return reply
}

// A reply's text up to 1 MB is kept whole across its saves, longer is cut
// on a character boundary and marked; a save on the way keeps back what
// would start a write unit of its own.
func TestReplyLongTextAcrossSaves(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	m := newReply(t, st)
	w := st.ReplyWriter("ann", m)
	for range 3 { // 3 × 200 KB: parts of at most 256 KB
		m.Content += strings.Repeat("é", 100_000)
		storetest.Must(t, w.Save(ctx, m), "save long")
	}
	// Saves on the way keep back less than a write unit for the next.
	got, err := st.GetMessage(ctx, "ann", "c1", "m2")
	if err != nil || !strings.HasPrefix(m.Content, got.Content) || len(got.Content) < len(m.Content)-1024 || got.Truncated {
		t.Fatalf("600 KB reply: %d bytes back of %d, truncated %v, %v", len(got.Content), len(m.Content), got.Truncated, err)
	}
	m.Content += strings.Repeat("ü", 300_000) // 1.2 MB: cut
	m.Complete = true
	storetest.Must(t, w.Save(ctx, m), "save too long")
	got, _ = st.GetMessage(ctx, "ann", "c1", "m2")
	if !got.Truncated || !got.Complete || len(got.Content) > store.MaxMessageText || len(got.Content) < store.MaxMessageText-1 ||
		!strings.HasSuffix(got.Content, "ü") || !strings.HasPrefix(got.Content, m.Content[:600_000]) {
		t.Errorf("1.2 MB reply: %d bytes kept, truncated %v, complete %v", len(got.Content), got.Truncated, got.Complete)
	}
}

// A save's cost is what it adds, not the reply so far: a 2,000-token reply
// saved every 2 s writes about its stored size once, plus a unit for its
// state at the end; when every save rewrote the whole reply, it wrote over
// 80 units here.
func TestReplySavesWriteOnlyWhatTheyAdd(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	m := newReply(t, st)
	w := st.ReplyWriter("ann", m)
	mctx, used := store.MeterCapacity(ctx)
	word := "token "
	for i := range 10 { // 10 saves of 200 tokens (1.2 KB), then the end
		m.Content += strings.Repeat(word, 200)
		m.UpdatedAt = convAt.Add(time.Duration(2*(i+1)) * time.Second)
		storetest.Must(t, w.Save(mctx, m), "save")
	}
	m.Complete, m.Usage = true, &domain.MessageUsage{InputTokens: 10, OutputTokens: 2000, Demo: true}
	storetest.Must(t, w.Save(mctx, m), "save the end")
	stored := 0
	for _, item := range storetest.ScanAll(t, st) {
		if strings.Contains(fmt.Sprint(item["SK"]), "CMSG#c1#m2") {
			stored += store.ItemSize(item)
		}
	}
	limit := 1.5*math.Ceil(float64(stored)/1024) + 1
	t.Logf("%.0f WCU, %.1f RCU for %d bytes stored", used.Write(), used.Read(), stored)
	if used.Write() > limit {
		t.Errorf("the reply's saves wrote %.0f WCU for %d bytes stored; want at most %.1f", used.Write(), stored, limit)
	}
	if used.Scans() != 0 {
		t.Errorf("%d scans", used.Scans())
	}
	got, err := st.GetMessage(ctx, "ann", "c1", "m2")
	if err != nil || got.Content != m.Content || !got.Complete || got.Usage == nil || got.Usage.OutputTokens != 2000 {
		t.Errorf("the reply read back: %d bytes of %d, complete %v, usage %+v, %v", len(got.Content), len(m.Content), got.Complete, got.Usage, err)
	}
}

// A re-attaching reader learns the reply is alive from its latest save's
// time, also when only a part was written.
func TestReplyTimeIsItsLatestSave(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	m := newReply(t, st)
	w := st.ReplyWriter("ann", m)
	m.Content, m.UpdatedAt = "first", convAt.Add(2*time.Second)
	storetest.Must(t, w.Save(ctx, m), "save")
	m.Content, m.UpdatedAt = "first and second", convAt.Add(4*time.Second)
	storetest.Must(t, w.Save(ctx, m), "save")
	got, _ := st.GetMessage(ctx, "ann", "c1", "m2")
	if !got.UpdatedAt.Equal(m.UpdatedAt) || got.Content != m.Content { // a short part is written whole
		t.Errorf("read back %q at %v; want %q at %v", got.Content, got.UpdatedAt, m.Content, m.UpdatedAt)
	}
	// Nothing new (a tool runs): the message's own time moves.
	m.UpdatedAt = convAt.Add(6 * time.Second)
	storetest.Must(t, w.Save(ctx, m), "save")
	if got, _ = st.GetMessage(ctx, "ann", "c1", "m2"); !got.UpdatedAt.Equal(m.UpdatedAt) {
		t.Errorf("after a save with nothing new: %v, want %v", got.UpdatedAt, m.UpdatedAt)
	}
}

// A reply paused on a question is read back whole, and a writer made from
// what was read goes on after it: text and tool frames in order.
func TestReplyGoesOnAfterAPause(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	m := newReply(t, st)
	w := st.ReplyWriter("ann", m)
	m.Content = "Let me check."
	storetest.Must(t, w.Save(ctx, m), "save")
	m.Blocks = []domain.MessageBlock{{At: len(m.Content), Frame: json.RawMessage(`{"tool_approval":{"id":"a1"}}`)}}
	m.Complete = true
	storetest.Must(t, w.Save(ctx, m), "save the pause")

	paused, err := st.GetMessage(ctx, "ann", "c1", "m2")
	storetest.Must(t, err, "read the paused reply")
	if !paused.Complete || paused.Content != "Let me check." || len(paused.Blocks) != 1 || paused.Parts == 0 {
		t.Fatalf("paused reply %+v", paused)
	}
	resumed := paused
	resumed.Complete = false
	w = st.ReplyWriter("ann", paused)
	storetest.Must(t, w.Save(ctx, resumed), "going on again")
	if got, _ := st.GetMessage(ctx, "ann", "c1", "m2"); got.Complete {
		t.Errorf("a resumed reply reads as complete")
	}
	resumed.Blocks = append(resumed.Blocks, domain.MessageBlock{At: len(resumed.Content), Frame: json.RawMessage(`{"tool_result":{"id":"a1"}}`)})
	resumed.Content += " The answer is 5."
	resumed.Complete = true
	storetest.Must(t, w.Save(ctx, resumed), "the end")
	got, _ := st.GetMessage(ctx, "ann", "c1", "m2")
	if got.Content != "Let me check. The answer is 5." || !got.Complete || len(got.Blocks) != 2 ||
		string(got.Blocks[1].Frame) != `{"tool_result":{"id":"a1"}}` || got.Blocks[1].At != len("Let me check.") {
		t.Errorf("resumed reply %+v", got)
	}
}

// Stop: the next save says so; the reply ends stopped with what it had.
func TestReplyStop(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	m := newReply(t, st)
	w := st.ReplyWriter("ann", m)
	m.Content = "so far"
	storetest.Must(t, w.Save(ctx, m), "save")
	storetest.Must(t, st.RequestStop(ctx, "ann", "c1", "m2"), "stop")
	m.Content = "so far and more"
	if err := w.Save(ctx, m); !errors.Is(err, store.ErrStopRequested) {
		t.Errorf("save after stop: %v", err)
	}
	m.Content, m.Complete = "so far and more, and the end", true
	storetest.Must(t, w.FinishStopped(ctx, m), "finish stopped")
	got, _ := st.GetMessage(ctx, "ann", "c1", "m2")
	if got.Content != m.Content || !got.StopRequested || !got.Complete {
		t.Errorf("stopped reply: %+v", got)
	}
	if err := st.RequestStop(ctx, "bob", "c1", "m2"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("bob stops ann's reply: %v", err)
	}
}

// A conversation deleted while its reply is generated: the next save says
// so and leaves nothing behind.
func TestReplyOfADeletedConversation(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	m := newReply(t, st)
	w := st.ReplyWriter("ann", m)
	m.Content = "so far"
	storetest.Must(t, w.Save(ctx, m), "save")
	storetest.Must(t, st.DeleteConversation(ctx, "ann", "c1"), "delete")
	m.Content = "so far and more"
	if err := w.Save(ctx, m); !errors.Is(err, store.ErrStopRequested) {
		t.Errorf("save after delete: %v", err)
	}
	m.Complete = true
	if err := w.FinishStopped(ctx, m); !errors.Is(err, store.ErrStopRequested) {
		t.Errorf("finish after delete: %v", err)
	}
	for _, item := range storetest.ScanAll(t, st) {
		if sk := fmt.Sprint(item["SK"]); strings.Contains(sk, "c1") {
			t.Errorf("item %s left after the delete", sk)
		}
	}
}

// A save whose tool frame alone takes more than a write unit (a server's
// question, a result) keeps the text with it: the frame's units are paid
// anyway. (Cutting the text to a unit's end once went below zero there.)
func TestReplySaveWithALargeFrame(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	m := newReply(t, st)
	w := st.ReplyWriter("ann", m)
	frame := `{"elicitation":{"id":"q1","message":"` + strings.Repeat("x", 1900) + `"}}`
	for _, text := range []string{"Let me ask.", "Let me ask." + strings.Repeat(" more", 30)} {
		m.Content = text
		m.Blocks = []domain.MessageBlock{{At: len("Let me ask."), Frame: json.RawMessage(frame)}}
		storetest.Must(t, w.Save(ctx, m), "save beside a large frame")
	}
	got, err := st.GetMessage(ctx, "ann", "c1", "m2")
	storetest.Must(t, err, "read")
	if !strings.HasPrefix(m.Content, got.Content) || !strings.HasPrefix(got.Content, "Let me ask.") || len(got.Blocks) != 1 {
		t.Errorf("read back %q with %d blocks", got.Content, len(got.Blocks))
	}
	m.Complete = true
	storetest.Must(t, w.Save(ctx, m), "the end")
	if got, _ = st.GetMessage(ctx, "ann", "c1", "m2"); got.Content != m.Content {
		t.Errorf("the end read back %q, want %q", got.Content, m.Content)
	}
}
