package store

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
)

// checkListing holds the table to the listing's invariant: every listed
// prompt has exactly the copies its item says, each as its item says, no
// copy of anything else exists, every partition's COUNT is the number of
// prompts it lists, and every prompt is marked synced at its revision.
func checkListing(t *testing.T, s *Store) {
	t.Helper()
	var items []map[string]types.AttributeValue
	p := dynamodb.NewScanPaginator(s.db, &dynamodb.ScanInput{TableName: aws.String(s.table), ConsistentRead: aws.Bool(true)})
	for p.HasMorePages() {
		page, err := p.NextPage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, page.Items...)
	}
	want := map[string]listingItem{}
	wantCounts := map[string]int{}
	copies := map[string]listingItem{}
	counts := map[string]int{}
	for _, raw := range items {
		pk := raw[AttrPK].(*types.AttributeValueMemberS).Value
		sk := raw[AttrSK].(*types.AttributeValueMemberS).Value
		switch {
		case strings.HasPrefix(pk, PKPrompt) && sk == skPromptMeta:
			var it promptItem
			if err := attributevalue.UnmarshalMap(raw, &it); err != nil {
				t.Fatal(err)
			}
			if it.Srev != it.Irev || it.Lfmt != listingFormat {
				t.Errorf("prompt %s: copies at revision %d (format %d), prompt at %d", it.ID, it.Srev, it.Lfmt, it.Irev)
			}
			targets := listingTargets(it)
			if got := slices.Sorted(maps.Keys(targets)); !slices.Equal(got, slices.Sorted(slices.Values(it.Idx))) {
				t.Errorf("prompt %s records %d copies, has %d targets", it.ID, len(it.Idx), len(got))
			}
			for k, li := range targets {
				want[k] = li
				if isMembership(k) {
					pk, _ := splitListingKey(k)
					wantCounts[pk]++
				}
			}
		case (strings.HasPrefix(pk, PKPromptList) || strings.HasPrefix(pk, PKPromptToken)) && sk == skListCount:
			var c countItem
			if err := attributevalue.UnmarshalMap(raw, &c); err != nil {
				t.Fatal(err)
			}
			counts[pk] = c.N
		case strings.HasPrefix(pk, PKPromptList) || strings.HasPrefix(pk, PKPromptToken):
			var li listingItem
			if err := attributevalue.UnmarshalMap(raw, &li); err != nil {
				t.Fatal(err)
			}
			copies[listingKey(pk, sk)] = li
		}
	}
	for k, w := range want {
		got, ok := copies[k]
		if !ok {
			t.Errorf("missing copy %q of %s", k, w.ID)
			continue
		}
		slices.Sort(got.Words)
		slices.Sort(w.Words)
		if !reflect.DeepEqual(got, w) {
			t.Errorf("copy %q\n got %+v\nwant %+v", k, got, w)
		}
	}
	for k, got := range copies {
		if _, ok := want[k]; !ok {
			t.Errorf("stale copy %q of %s", k, got.ID)
		}
	}
	for pk := range counts {
		if counts[pk] != wantCounts[pk] {
			t.Errorf("%s counts %d, lists %d", pk, counts[pk], wantCounts[pk])
		}
	}
	for pk, n := range wantCounts {
		if _, ok := counts[pk]; !ok {
			t.Errorf("%s lists %d, has no count", pk, n)
		}
	}
}

func listedPrompt(id, cat, title string, price float64, day int) domain.Prompt {
	at := time.Date(2026, 3, day, 12, 0, 0, 0, time.UTC)
	return domain.Prompt{ID: id, Title: title, Description: "Plans and drafts for " + cat, Content: "Write the " + title + " for [TEAM].",
		Price: price, CategoryID: cat, CreatedAt: at, UpdatedAt: at, Version: 1}
}

// Every write path keeps the listing as its prompts are: create, edit
// (words, price, category), unpublish, publish, rate, seed, delete.
func TestWritesKeepTheListing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newInternalStore(t)
	a := listedPrompt("a", "writing", "Cold email opener", 4.99, 1)
	b := listedPrompt("b", "business", "Launch checklist", 9.99, 2)
	for _, p := range []domain.Prompt{a, b} {
		if err := s.CreatePrompt(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	checkListing(t, s)

	// An edit changes the words, the price and the category.
	a2 := a
	a2.Title, a2.Price, a2.CategoryID, a2.Version = "Warm intro message", 2.5, "business", 2
	if err := s.UpdatePrompt(ctx, a2, 1); err != nil {
		t.Fatal(err)
	}
	checkListing(t, s)

	// Off the catalogue, and back.
	a3 := a2
	a3.Unpublished, a3.Version = true, 3
	if err := s.UpdatePrompt(ctx, a3, 2); err != nil {
		t.Fatal(err)
	}
	checkListing(t, s)
	a4 := a3
	a4.Unpublished, a4.Version = false, 4
	if err := s.UpdatePrompt(ctx, a4, 3); err != nil {
		t.Fatal(err)
	}
	checkListing(t, s)

	// A rating reaches the cards.
	if _, err := s.Rate(ctx, "u1", "b", 4); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Rate(ctx, "u2", "b", 2); err != nil {
		t.Fatal(err)
	}
	checkListing(t, s)

	// Seeding writes a prompt once, again only when it changed.
	seed := listedPrompt("s", "productivity", "Weekly review", 5, 3)
	seed.Version = 0
	for range 2 {
		if err := s.PutPrompt(ctx, seed); err != nil {
			t.Fatal(err)
		}
	}
	seed.Description = "A new description with fresh words"
	if err := s.PutPrompt(ctx, seed); err != nil {
		t.Fatal(err)
	}
	checkListing(t, s)

	// Deleted: no card outlives it.
	if err := s.DeletePrompt(ctx, "a", 4); err != nil {
		t.Fatal(err)
	}
	checkListing(t, s)
}

// A prompt in use is not deleted and stays listed.
func TestRefusedDeleteStaysListed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newInternalStore(t)
	p := listedPrompt("used", "writing", "Used prompt", 3, 1)
	if err := s.CreatePrompt(ctx, p); err != nil {
		t.Fatal(err)
	}
	s.countPromptUse(ctx, "used", 1, 0, 0)
	if err := s.DeletePrompt(ctx, "used", 1); err == nil {
		t.Fatal("deleted a used prompt")
	}
	checkListing(t, s)
}

// Concurrent raters and an admin's edits leave the cards as the prompt
// ends up: the last writer to finish brings every copy in line.
func TestConcurrentWritesConverge(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newInternalStore(t)
	p := listedPrompt("c", "writing", "Busy prompt", 3, 1)
	if err := s.CreatePrompt(ctx, p); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Go(func() {
			if _, err := s.Rate(ctx, fmt.Sprintf("u%d", i), "c", 1+i%5); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Go(func() {
		for v := 1; v < 5; v++ {
			next := p
			next.Version, next.Title, next.Price = v+1, fmt.Sprintf("Busy prompt %d edition%d", v, v), float64(v)
			if err := s.UpdatePrompt(ctx, next, v); err != nil {
				t.Error(err)
			}
		}
	})
	wg.Wait()
	checkListing(t, s)
}

// Prompts stored before the listing (no revision, no copies) get theirs
// from the backfill, once.
func TestBackfillPromptListings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newInternalStore(t)
	for i, id := range []string{"old1", "old2", "old3"} {
		p := listedPrompt(id, "writing", "Old prompt "+id, 2, i+1)
		it := promptItem{PK: promptPK(id), SK: skPromptMeta, GSI1PK: gsiCatalogKey, GSI1SK: promptGSI1SK(p.CreatedAt, id), ID: id,
			Title: p.Title, Description: p.Description, Content: p.Content, Price: p.Price, CategoryID: p.CategoryID,
			CreatedAt: formatTime(p.CreatedAt), Unpublished: id == "old3"}
		if err := s.put(ctx, it); err != nil {
			t.Fatal(err)
		}
	}
	n, err := s.BackfillPromptListings(ctx)
	if err != nil || n != 3 {
		t.Fatalf("backfill = %d, %v; want 3", n, err)
	}
	checkListing(t, s)
	if n, err := s.BackfillPromptListings(ctx); err != nil || n != 0 {
		t.Errorf("second backfill = %d, %v; want nothing to do", n, err)
	}
}

// The listing's keys as stored: a change makes the copies in the table
// unreadable, so each is pinned.
func TestListingKeysAsStored(t *testing.T) {
	at := time.Date(2026, 11, 22, 10, 30, 0, 5, time.UTC)
	for _, tt := range []struct{ got, want string }{
		{listAllPK, "PLIST#ALL"},
		{listCategoryPK("writing"), "PLIST#CAT#writing"},
		{listTokenPK("email"), "PTOK#email"},
		{skListCount, "COUNT"},
		{listNewestSK(at, "p1"), "N#2026-11-22T10:30:00.000000005Z#p1"},
		{listPriceLowSK(499, at, "p1"), "L#00000499#7973-88-77T89:69:99.999999994Z#.m\x7f"},
		{listPriceHighSK(499, at, "p1"), "H#99999500#7973-88-77T89:69:99.999999994Z#.m\x7f"},
	} {
		if tt.got != tt.want {
			t.Errorf("key %q, want %q", tt.got, tt.want)
		}
	}
	// Inverted ids sort in reverse, a shorter one after those it starts.
	ids := []string{"a", "ab", "abc", "b", "p-0f", "p-10"}
	inv := make([]string, len(ids))
	for i, id := range ids {
		inv[i] = invertID(id)
	}
	if !slices.IsSortedFunc(inv, func(a, b string) int { return strings.Compare(b, a) }) {
		t.Errorf("inverted ids %q do not sort in reverse", inv)
	}
}

// A bulk load (seeding an empty catalogue) leaves the listing as the
// writes one by one would, and the prompts as new ones.
func TestBulkLoadKeepsTheListing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newInternalStore(t)
	var ps []domain.Prompt
	for i := range 30 {
		p := listedPrompt(fmt.Sprintf("b%02d", i), []string{"writing", "business"}[i%2], fmt.Sprintf("Bulk prompt number%d", i%4), 1+float64(i%3), 1+i%9)
		p.Unpublished = i%7 == 0
		ps = append(ps, p)
	}
	if err := s.BulkLoadPrompts(ctx, ps); err != nil {
		t.Fatal(err)
	}
	checkListing(t, s)
	// And the writes one by one go on from there.
	next := ps[1]
	next.Version, next.Title = 2, "Renamed after the load"
	if err := s.UpdatePrompt(ctx, next, 1); err != nil {
		t.Fatal(err)
	}
	checkListing(t, s)
}

// A sync that stopped between a copy and its partition's count leaves the
// count off by one and the prompt behind: the backfill finishes the prompt
// and recounts its partitions, also those it has left.
func TestBackfillRecountsWhatAStoppedSyncLeft(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newInternalStore(t)
	a := listedPrompt("a", "writing", "Cold email opener", 4.99, 1)
	b := listedPrompt("b", "business", "Launch checklist", 9.99, 2)
	for _, p := range []domain.Prompt{a, b} {
		if err := s.CreatePrompt(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	// As if a's move to another category stopped after its copies, before
	// the counts: the old category still counts it, the new one does not,
	// and a is behind, its item still recording its old copies.
	old, _, err := s.readPromptItem(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	a2 := a
	a2.CategoryID, a2.Version = "business", 2
	if err := s.UpdatePrompt(ctx, a2, 1); err != nil {
		t.Fatal(err)
	}
	if err := s.addCounts(ctx, map[string]int{listCategoryPK("writing"): 1, listCategoryPK("business"): -1}); err != nil {
		t.Fatal(err)
	}
	if err := s.updatePromptIdx(ctx, "a", "ADD idx :keys", old.Idx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table), Key: key(promptPK("a"), skPromptMeta),
		UpdateExpression: aws.String("SET srev = :old"), ExpressionAttributeValues: map[string]types.AttributeValue{":old": &types.AttributeValueMemberN{Value: "1"}}}); err != nil {
		t.Fatal(err)
	}
	if n, err := s.BackfillPromptListings(ctx); err != nil || n != 1 {
		t.Fatalf("backfill = %d, %v; want 1", n, err)
	}
	checkListing(t, s)
}
