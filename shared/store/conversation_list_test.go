package store_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"golang.org/x/sync/errgroup"

	"aiwork/shared/domain"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// seedConversations makes n conversations of uid, conv-0000 the oldest,
// one minute apart; text(i) is conversation i's first user message ("":
// none).
func seedConversations(t *testing.T, st *store.Store, uid string, n int, text func(int) string) []string {
	t.Helper()
	ids := make([]string, n)
	g := errgroup.Group{}
	g.SetLimit(8)
	for i := range n {
		ids[i] = fmt.Sprintf("conv-%04d", i)
		g.Go(func() error {
			at := convAt.Add(time.Duration(i) * time.Minute)
			c := domain.Conversation{ID: ids[i], Title: "Chat number " + fmt.Sprint(i), Provider: "openai", Model: "gpt-4o-mini", CreatedAt: at, UpdatedAt: at}
			var msgs []domain.ConversationMessage
			if text != nil && text(i) != "" {
				m := message(ids[i], ids[i]+"-u", domain.RoleUser, text(i))
				m.CreatedAt, m.UpdatedAt = at, at
				msgs = append(msgs, m)
			}
			return st.CreateConversation(ctx, uid, c, msgs...)
		})
	}
	storetest.Must(t, g.Wait(), "seed conversations")
	return ids
}

// newestFirst is ids as the list orders them (seeded oldest first).
func newestFirst(ids []string) []string {
	out := slices.Clone(ids)
	slices.Reverse(out)
	return out
}

// listAll reads every page of q and answers the ids in order and how many
// pages it took; fails on a conversation listed twice.
func listAll(t *testing.T, st *store.Store, uid string, q store.ConversationListQuery) (ids []string, pages []int) {
	t.Helper()
	seen := map[string]bool{}
	for range 1000 {
		page, err := st.ListConversationPage(ctx, uid, q)
		storetest.Must(t, err, "list page")
		pages = append(pages, len(page.Conversations))
		for _, c := range page.Conversations {
			if seen[c.ID] {
				t.Fatalf("%s listed twice", c.ID)
			}
			seen[c.ID] = true
			ids = append(ids, c.ID)
		}
		if page.Next == nil {
			return ids, pages
		}
		q.After = page.Next
	}
	t.Fatal("the list never ended")
	return nil, nil
}

// Pages of 50 at the boundaries: every conversation once, newest first,
// no cursor after the last (none after a full last page either).
func TestConversationListPageBoundaries(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	ids := seedConversations(t, st, "ann", 101, nil)
	for _, n := range []int{0, 50, 51, 100, 101} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			uid := fmt.Sprintf("u%d", n)
			mine := seedConversations(t, st, uid, n, nil)
			got, pages := listAll(t, st, uid, store.ConversationListQuery{Limit: 50})
			if !slices.Equal(got, newestFirst(mine)) {
				t.Errorf("listed %d, want %d newest first: %v", len(got), n, got)
			}
			want := map[int][]int{0: {0}, 50: {50}, 51: {50, 1}, 100: {50, 50}, 101: {50, 50, 1}}[n]
			if !slices.Equal(pages, want) {
				t.Errorf("pages %v, want %v", pages, want)
			}
		})
	}
	// The first page reads as the old list did: the newest, with their fields.
	page, err := st.ListConversationPage(ctx, "ann", store.ConversationListQuery{Limit: 2})
	storetest.Must(t, err, "page")
	c := page.Conversations[0]
	if c.ID != ids[100] || c.Title != "Chat number 100" || c.Provider != "openai" || c.Model != "gpt-4o-mini" ||
		!c.UpdatedAt.Equal(convAt.Add(100*time.Minute)) || !c.CreatedAt.Equal(c.UpdatedAt) || page.Next == nil || page.Next.ID != ids[99] {
		t.Errorf("first page %+v next %+v", page.Conversations, page.Next)
	}
}

// Archived and open are two lists; archiving moves a conversation from one
// to the other, reopening back; another user's are never in either.
func TestConversationListArchivedApart(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	ids := seedConversations(t, st, "ann", 6, nil)
	seedConversations(t, st, "bob", 3, nil)
	yes, no := true, false
	for _, i := range []int{1, 4} {
		_, err := st.UpdateConversation(ctx, "ann", ids[i], store.ConversationPatch{Archived: &yes}, convAt.Add(time.Duration(i)*time.Minute+time.Second))
		storetest.Must(t, err, "archive")
	}
	open, _ := listAll(t, st, "ann", store.ConversationListQuery{Limit: 2})
	archived, _ := listAll(t, st, "ann", store.ConversationListQuery{Archived: true, Limit: 2})
	if want := []string{ids[5], ids[3], ids[2], ids[0]}; !slices.Equal(open, want) {
		t.Errorf("open %v, want %v", open, want)
	}
	if want := []string{ids[4], ids[1]}; !slices.Equal(archived, want) {
		t.Errorf("archived %v, want %v", archived, want)
	}
	_, err := st.UpdateConversation(ctx, "ann", ids[1], store.ConversationPatch{Archived: &no}, convAt.Add(time.Hour))
	storetest.Must(t, err, "reopen")
	if open, _ := listAll(t, st, "ann", store.ConversationListQuery{Limit: 50}); len(open) != 5 || open[0] != ids[1] {
		t.Errorf("open after reopening %v", open)
	}
	if archived, _ := listAll(t, st, "ann", store.ConversationListQuery{Archived: true, Limit: 50}); !slices.Equal(archived, []string{ids[4]}) {
		t.Errorf("archived after reopening %v", archived)
	}
	for _, uid := range []string{"carl", "ann#open", "an"} {
		if got, _ := listAll(t, st, uid, store.ConversationListQuery{Limit: 50}); len(got) != 0 {
			t.Errorf("%s lists %v", uid, got)
		}
	}
	if bob, _ := listAll(t, st, "bob", store.ConversationListQuery{Limit: 50}); len(bob) != 3 {
		t.Errorf("bob lists %v", bob)
	}
}

// Between two pages: a conversation of the first page gets a message (it
// is not listed again, and tops a fresh first page), one of the second is
// deleted (it is not listed), one of the second is renamed (listed once,
// at its new place: the first page).
func TestConversationListChangesBetweenPages(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	ids := seedConversations(t, st, "ann", 10, nil)
	first, err := st.ListConversationPage(ctx, "ann", store.ConversationListQuery{Limit: 4})
	storetest.Must(t, err, "first page")
	// ids 9..6 on the first page.
	later := convAt.Add(time.Hour)
	storetest.Must(t, addMessages(st, "ann", ids[8], "", later, message(ids[8], "m1", domain.RoleUser, "hi")), "message")
	storetest.Must(t, st.DeleteConversation(ctx, "ann", ids[4]), "delete")
	title := "Renamed"
	_, err = st.UpdateConversation(ctx, "ann", ids[3], store.ConversationPatch{Title: &title}, later.Add(time.Second))
	storetest.Must(t, err, "rename")
	rest, _ := listAll(t, st, "ann", store.ConversationListQuery{Limit: 4, After: first.Next})
	if want := []string{ids[5], ids[2], ids[1], ids[0]}; !slices.Equal(rest, want) {
		t.Errorf("after the first page %v, want %v", rest, want)
	}
	fresh, err := st.ListConversationPage(ctx, "ann", store.ConversationListQuery{Limit: 3})
	storetest.Must(t, err, "fresh first page")
	if got := []string{fresh.Conversations[0].ID, fresh.Conversations[1].ID, fresh.Conversations[2].ID}; !slices.Equal(got, []string{ids[3], ids[8], ids[9]}) {
		t.Errorf("fresh first page %v", got)
	}
	if c := fresh.Conversations[1]; c.MessageCount != 1 || !c.UpdatedAt.Equal(later) {
		t.Errorf("moved conversation listed as %+v", c)
	}
	if c := fresh.Conversations[0]; c.Title != "Renamed" {
		t.Errorf("renamed conversation listed as %+v", c)
	}
}

// A search reads at most MaxConversationSearchRead conversations a
// request: with no match it answers none with a cursor until the list
// ends, then none without; matches spread over the list come in order,
// each once, over several bounded reads, found by title or by message.
func TestConversationSearchBoundedReads(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	const n = 2*store.MaxConversationSearchRead + 100
	ids := seedConversations(t, st, "ann", n, func(i int) string {
		if i%97 == 5 {
			return fmt.Sprintf("Tell me about TIDES, please (%d)", i)
		}
		return "Something else entirely"
	})
	title := "Tides and moons"
	_, err := st.UpdateConversation(ctx, "ann", ids[3], store.ConversationPatch{Title: &title}, convAt.Add(3*time.Minute))
	storetest.Must(t, err, "rename")

	got, pages := listAll(t, st, "ann", store.ConversationListQuery{Search: "nothing like this", Limit: 50})
	if len(got) != 0 || !slices.Equal(pages, []int{0, 0, 0}) {
		t.Errorf("a search with no match: %v in pages %v, want 3 empty pages (%d conversations, %d a read)", got, pages, n, store.MaxConversationSearchRead)
	}

	var want []string
	for i := n - 1; i >= 0; i-- {
		if i%97 == 5 || i == 3 {
			want = append(want, ids[i])
		}
	}
	got, pages = listAll(t, st, "ann", store.ConversationListQuery{Search: "tides", Limit: 3})
	if !slices.Equal(got, want) {
		t.Errorf("search found %v, want %v", got, want)
	}
	if len(pages) < 3 {
		t.Errorf("pages %v: the matches should take several reads", pages)
	}
	// A page fills before the read bound: it ends at its last match.
	page, err := st.ListConversationPage(ctx, "ann", store.ConversationListQuery{Search: "tides", Limit: 1})
	storetest.Must(t, err, "one match")
	if len(page.Conversations) != 1 || page.Next == nil || page.Next.ID != want[0] {
		t.Errorf("a page of one: %+v next %+v", page.Conversations, page.Next)
	}
	// Another user finds nothing of ann's.
	if got, _ := listAll(t, st, "bob", store.ConversationListQuery{Search: "tides", Limit: 50}); len(got) != 0 {
		t.Errorf("bob finds %v", got)
	}
}

// A place that names no conversation this store could hold is refused.
func TestConversationListBadPlace(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	_, err := st.ListConversationPage(ctx, "ann", store.ConversationListQuery{Limit: 5, After: &store.ConversationPlace{UpdatedAt: convAt, ID: strings.Repeat("c", 2000)}})
	if !errors.Is(err, store.ErrBadCursor) {
		t.Errorf("an over-long id: %v, want ErrBadCursor", err)
	}
}

// The count follows creates and deletes (a delete of nothing moves
// nothing, it never goes below zero), concurrent creates all count, and
// conversations kept before the counter are counted once.
func TestConversationCount(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	count := func(uid string) int {
		t.Helper()
		n, err := st.CountConversations(ctx, uid)
		storetest.Must(t, err, "count")
		return n
	}
	if n := count("ann"); n != 0 {
		t.Errorf("no conversations: %d", n)
	}
	ids := seedConversations(t, st, "ann", 5, nil)
	storetest.Must(t, st.DeleteConversation(ctx, "ann", ids[0]), "delete")
	if err := st.DeleteConversation(ctx, "ann", ids[0]); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("second delete: %v", err)
	}
	if n := count("ann"); n != 4 {
		t.Errorf("5 made, 1 deleted: %d", n)
	}
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() { newConversation(t, st, "ann", fmt.Sprintf("par-%02d", i)) })
	}
	wg.Wait()
	if n := count("ann"); n != 24 {
		t.Errorf("after 20 concurrent creates: %d, want 24", n)
	}
	for _, id := range ids[1:] {
		storetest.Must(t, st.DeleteConversation(ctx, "ann", id), "delete")
	}
	if n := count("ann"); n != 20 {
		t.Errorf("after deleting 4 more: %d, want 20", n)
	}

	// Kept before the counter: items without it, counted once on first read.
	for i := range 3 {
		putLegacyConversation(t, st, "old", fmt.Sprintf("old-%d", i), convAt.Add(time.Duration(i)*time.Minute))
	}
	newConversation(t, st, "old", "new-1")
	if n := count("old"); n != 4 {
		t.Errorf("3 kept before the counter and 1 after: %d", n)
	}
	mctx, used := store.MeterCapacity(ctx)
	if n, err := st.CountConversations(mctx, "old"); err != nil || n != 4 || used.Read() > 1 {
		t.Errorf("counted again: %d %v, %.1f RCU (want one read of the counter)", n, err, used.Read())
	}
}

// putLegacyConversation writes a conversation as it was kept before the
// list: its item alone.
func putLegacyConversation(t *testing.T, st *store.Store, uid, cid string, at time.Time) {
	t.Helper()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	_, err := st.DB().PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(st.Table()), Item: map[string]types.AttributeValue{
		"PK": s("USER#" + uid), "SK": s("CONV#" + cid), "id": s(cid), "title": s("Old " + cid), "provider": s("openai"), "model": s("gpt-4o-mini"),
		"created_at": s(at.Format(time.RFC3339Nano)), "updated_at": s(at.Format(time.RFC3339Nano)), "archived": &types.AttributeValueMemberBOOL{Value: false},
		"message_count": &types.AttributeValueMemberN{Value: "2"}, "snippets": &types.AttributeValueMemberL{Value: []types.AttributeValue{s("about the harbour")}},
	}})
	storetest.Must(t, err, "legacy conversation")
}

// Conversations kept before the list are listed by the backfill (once: a
// second run finds none), or by their next write before it; a search finds
// them by their messages.
func TestConversationListBackfill(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	for i := range 3 {
		putLegacyConversation(t, st, "old", fmt.Sprintf("old-%d", i), convAt.Add(time.Duration(i)*time.Minute))
	}
	if got, _ := listAll(t, st, "old", store.ConversationListQuery{Limit: 50}); len(got) != 0 {
		t.Fatalf("listed before the backfill: %v", got)
	}
	// A message in one lists it.
	storetest.Must(t, addMessages(st, "old", "old-0", "", convAt.Add(time.Hour), message("old-0", "m1", domain.RoleUser, "hi")), "message")
	if got, _ := listAll(t, st, "old", store.ConversationListQuery{Limit: 50}); !slices.Equal(got, []string{"old-0"}) {
		t.Errorf("after a message: %v", got)
	}
	n, err := st.BackfillConversationLists(ctx)
	storetest.Must(t, err, "backfill")
	if n < 2 {
		t.Errorf("backfill listed %d, want the other 2", n)
	}
	if got, _ := listAll(t, st, "old", store.ConversationListQuery{Limit: 50}); !slices.Equal(got, []string{"old-0", "old-2", "old-1"}) {
		t.Errorf("after the backfill: %v", got)
	}
	if got, _ := listAll(t, st, "old", store.ConversationListQuery{Limit: 50, Search: "harbour"}); len(got) != 3 {
		t.Errorf("search after the backfill: %v", got)
	}
	page, err := st.ListConversationPage(ctx, "old", store.ConversationListQuery{Limit: 1})
	storetest.Must(t, err, "page")
	if c := page.Conversations[0]; c.MessageCount != 3 || c.Title != "Old old-0" {
		t.Errorf("listed as %+v", c)
	}
	if n, err := st.BackfillConversationLists(ctx); err != nil || n != 0 {
		t.Errorf("second backfill: %d %v", n, err)
	}
	// Deleted: gone from the list, nothing of it left.
	storetest.Must(t, st.DeleteConversation(ctx, "old", "old-1"), "delete")
	if got, _ := listAll(t, st, "old", store.ConversationListQuery{Limit: 50}); !slices.Equal(got, []string{"old-0", "old-2"}) {
		t.Errorf("after a delete: %v", got)
	}
}

// Concurrent messages and renames of one conversation: its copy ends as
// the conversation is.
func TestConversationListConcurrentWrites(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	newConversation(t, st, "ann", "c1")
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			at := convAt.Add(time.Duration(i+1) * time.Second)
			if i%4 == 0 {
				title := fmt.Sprint("Title ", i)
				_, err := st.UpdateConversation(ctx, "ann", "c1", store.ConversationPatch{Title: &title}, at)
				storetest.Must(t, err, "rename")
				return
			}
			storetest.Must(t, st.ClaimMessages(ctx, "ann", "c1", 1, at, ""), "claim")
		})
	}
	wg.Wait()
	c, err := st.GetConversation(ctx, "ann", "c1")
	storetest.Must(t, err, "get")
	page, err := st.ListConversationPage(ctx, "ann", store.ConversationListQuery{Limit: 5})
	storetest.Must(t, err, "page")
	if len(page.Conversations) != 1 {
		t.Fatalf("listed %+v", page.Conversations)
	}
	l := page.Conversations[0]
	if l.Title != c.Title || l.MessageCount != c.MessageCount || !l.UpdatedAt.Equal(c.UpdatedAt) || c.MessageCount != 15 {
		t.Errorf("listed %+v, conversation %+v", l, c)
	}
}

// A page of 50 at 2,000 conversations reads one Query of small copies and
// the counter: within 4 RCU (the marketplace page's budget) with short
// titles, 5 with every title at its longest; a search's bounded read (150
// copies and, for those whose title does not match, their items) is about
// half a unit a conversation.
func TestConversationListPageCapacity(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	const n = 2000
	seedConversations(t, st, "ann", n, func(i int) string {
		return fmt.Sprintf("Help me write a short note about item %d for our team, in plain words, with a title and three points to discuss.", i)
	})
	_, err := st.CountConversations(ctx, "ann") // the counter, once
	storetest.Must(t, err, "count")
	q := store.ConversationListQuery{Limit: 50}
	for i := range 3 {
		mctx, used := store.MeterCapacity(ctx)
		page, err := st.ListConversationPage(mctx, "ann", q)
		storetest.Must(t, err, "page")
		_, err = st.CountConversations(mctx, "ann")
		storetest.Must(t, err, "count")
		t.Logf("page %d at %d conversations: %.1f RCU in %d calls", i, n, used.Read(), used.Calls())
		if len(page.Conversations) != 50 || used.Read() > 4 || used.Scans() > 0 {
			t.Errorf("page %d: %d conversations, %.1f RCU (budget 4), %d scans", i, len(page.Conversations), used.Read(), used.Scans())
		}
		q.After = page.Next
	}
	// Every title at its longest (200 characters): within 5 RCU.
	long := strings.Repeat("A long title ", 16)[:200]
	for i := range 60 {
		at := convAt.Add(time.Duration(i) * time.Minute)
		storetest.Must(t, st.CreateConversation(ctx, "long", domain.Conversation{ID: fmt.Sprintf("c%032d", i), Title: long, Provider: "anthropic",
			Model: "claude-3-5-haiku-latest", CreatedAt: at, UpdatedAt: at}), "long")
	}
	_, err = st.CountConversations(ctx, "long")
	storetest.Must(t, err, "count")
	mctx, used := store.MeterCapacity(ctx)
	page, err := st.ListConversationPage(mctx, "long", store.ConversationListQuery{Limit: 50})
	storetest.Must(t, err, "long titles")
	_, err = st.CountConversations(mctx, "long")
	storetest.Must(t, err, "count")
	t.Logf("a page of 50 with 200-character titles: %.1f RCU", used.Read())
	if len(page.Conversations) != 50 || used.Read() > 5 {
		t.Errorf("a page of 50 with 200-character titles: %d conversations, %.1f RCU (budget 5)", len(page.Conversations), used.Read())
	}

	mctx, used = store.MeterCapacity(ctx)
	page, err = st.ListConversationPage(mctx, "ann", store.ConversationListQuery{Limit: 50, Search: "nothing like this"})
	storetest.Must(t, err, "search")
	t.Logf("a search's read of %d conversations: %.1f RCU in %d calls", store.MaxConversationSearchRead, used.Read(), used.Calls())
	if page.Next == nil || used.Read() > 0.5*store.MaxConversationSearchRead+20 {
		t.Errorf("a search at %d conversations: next %v, %.1f RCU", n, page.Next, used.Read())
	}
}

// The first count of a user's conversations, taken while conversations are
// being made (a browser uploading its earlier chats as History first
// opens), counts each once.
func TestConversationFirstCountBesideCreates(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	for round := range 5 {
		uid := fmt.Sprintf("first-count-%d", round)
		var wg sync.WaitGroup
		for i := range 6 {
			wg.Go(func() {
				cid := fmt.Sprintf("c%d", i)
				storetest.Must(t, st.CreateConversation(ctx, uid, domain.Conversation{ID: cid, Title: cid, CreatedAt: convAt, UpdatedAt: convAt}), "create")
			})
			wg.Go(func() {
				if _, err := st.CountConversations(ctx, uid); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if n, err := st.CountConversations(ctx, uid); err != nil || n != 6 {
			t.Errorf("round %d: count %d, %v; want 6", round, n, err)
		}
	}
}
