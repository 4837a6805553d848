package store_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
	"aiwork/shared/prompts"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// wantFeatured is the featured list as the whole catalogue says it.
func wantFeatured(t *testing.T, st *store.Store, n int) []string {
	t.Helper()
	all, err := st.Prompts(ctx)
	storetest.Must(t, err, "catalogue")
	all = slices.DeleteFunc(all, func(p domain.Prompt) bool { return p.Unpublished })
	prompts.SortFeatured(all)
	var ids []string
	for _, p := range all[:min(n, len(all))] {
		ids = append(ids, p.ID)
	}
	return ids
}

func promptIDs(ps []domain.Prompt) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.ID
	}
	return out
}

// The featured list follows every write that moves a prompt in its order:
// an admin's flag, ratings (a first one, a better one, a worse one), an
// unpublish; and when fewer than six are flagged or rated, the newest
// fill it.
func TestFeaturedFollowsEveryWrite(t *testing.T) {
	t.Parallel()
	ps := catalogue(40)
	ps[3].Featured, ps[30].Featured = true, true
	st := loaded(t, ps)
	check := func(step string) {
		t.Helper()
		got, err := st.FeaturedPrompts(ctx, 6)
		storetest.Must(t, err, step)
		if want := wantFeatured(t, st, 6); !slices.Equal(promptIDs(got), want) {
			t.Errorf("%s: featured %v, want %v", step, promptIDs(got), want)
		}
	}
	check("loaded: two flagged, then the newest")
	for i, pid := range []string{ps[10].ID, ps[11].ID, ps[11].ID, ps[12].ID} {
		_, err := st.Rate(ctx, fmt.Sprintf("u%d", i), pid, []int{3, 5, 4, 1}[i])
		storetest.Must(t, err, "rate")
		check(fmt.Sprintf("rating %d", i))
	}
	_, err := st.Rate(ctx, "u0", ps[10].ID, 5) // a better rating by the same rater
	storetest.Must(t, err, "rate again")
	check("rated again")

	p, err := st.GetPrompt(ctx, ps[20].ID)
	storetest.Must(t, err, "read")
	p.Featured = true
	p.Version++
	storetest.Must(t, st.UpdatePrompt(ctx, p, p.Version-1), "flag")
	check("flagged")
	p.Unpublished = true
	p.Version++
	storetest.Must(t, st.UpdatePrompt(ctx, p, p.Version-1), "unpublish")
	check("unpublished")
	p, err = st.GetPrompt(ctx, ps[3].ID)
	storetest.Must(t, err, "read")
	p.Featured = false
	p.Version++
	storetest.Must(t, st.UpdatePrompt(ctx, p, p.Version-1), "unflag")
	check("unflagged")
	if n, err := st.BackfillPromptListings(ctx); err != nil || n != 0 {
		t.Errorf("backfill after the writes: %d, %v", n, err)
	}
}

// wantAdmin is the admins' list as the whole catalogue says it: every
// prompt f keeps, newest first.
func wantAdmin(t *testing.T, st *store.Store, f prompts.Filter) []string {
	t.Helper()
	all, err := st.Prompts(ctx)
	storetest.Must(t, err, "catalogue")
	var ids []string
	for _, p := range all {
		if f.Matches(p) {
			ids = append(ids, p.ID)
		}
	}
	return ids
}

func readAllAdmin(t *testing.T, st *store.Store, q store.AdminPromptQuery) (ids []string, first store.AdminPromptPage) {
	t.Helper()
	for i := 0; ; i++ {
		page, err := st.AdminPrompts(ctx, q)
		if err != nil {
			t.Fatalf("page %d of %+v: %v", i, q, err)
		}
		if i == 0 {
			first = page
		}
		ids = append(ids, promptIDs(page.Prompts)...)
		if page.NextCursor == "" {
			return ids, first
		}
		if i > 1000 {
			t.Fatal("no end")
		}
		q.Cursor = page.NextCursor
	}
}

// The admins' list: every state and category, with and without a search,
// a page at a time, as the whole catalogue would answer it, published or
// not; the total is exact without a search.
func TestAdminPromptList(t *testing.T) {
	t.Parallel()
	ps := catalogue(30)
	for i := range ps {
		ps[i].Unpublished = i%4 == 1
	}
	ps[7].Description = strings.Repeat("x", 400) + " Hidden Needle"
	st := loaded(t, ps)
	// A draft made by the admin's write, another taken off the catalogue.
	draft := written("draft-1", 1)
	draft.Unpublished, draft.Title = true, "Launch draft"
	storetest.Must(t, st.CreatePrompt(ctx, draft), "draft")
	off, err := st.GetPrompt(ctx, ps[2].ID)
	storetest.Must(t, err, "read")
	off.Unpublished = true
	off.Version++
	storetest.Must(t, st.UpdatePrompt(ctx, off, off.Version-1), "unpublish")

	for _, state := range prompts.States {
		for _, cat := range []string{"", "writing", "none"} {
			for _, search := range []string{"", "LAUNCH", "needle", "nothing"} {
				f := prompts.Filter{Search: search, CategoryID: cat, State: state}
				got, first := readAllAdmin(t, st, store.AdminPromptQuery{Filter: f, Limit: 3})
				want := wantAdmin(t, st, f)
				if !slices.Equal(got, want) {
					t.Errorf("%+v: %v, want %v", f, got, want)
				}
				switch {
				case search == "" && (!first.TotalKnown || first.Total != len(want)):
					t.Errorf("%+v: total %d (known %v), want %d", f, first.Total, first.TotalKnown, len(want))
				case search != "" && len(want) <= 3 && first.NextCursor == "" && (!first.TotalKnown || first.Total != len(want)):
					t.Errorf("%+v: a search on one page: total %d (known %v), want %d", f, first.Total, first.TotalKnown, len(want))
				case first.NextCursor != "" && search != "" && first.TotalKnown:
					t.Errorf("%+v: a search spanning pages says its total %d", f, first.Total)
				}
			}
		}
	}
	page, err := st.AdminPrompts(ctx, store.AdminPromptQuery{Limit: 3})
	storetest.Must(t, err, "page")
	for _, q := range []store.AdminPromptQuery{
		{Limit: 3, Cursor: "%%%"},
		{Limit: 3, Cursor: "e30"},
		{Limit: 3, Filter: prompts.Filter{Search: "kit"}, Cursor: page.NextCursor},
	} {
		if _, err := st.AdminPrompts(ctx, q); !errors.Is(err, store.ErrBadCursor) {
			t.Errorf("%+v: %v, want ErrBadCursor", q, err)
		}
	}
}

// A category's count is its prompts, published or not, after every write
// that moves one: a draft, an unpublish, a move to another category, a
// delete.
func TestCategoryPromptCounts(t *testing.T) {
	t.Parallel()
	ps := catalogue(12)
	ps[0].Unpublished = true
	st := loaded(t, ps)
	cats := []string{"business", "writing", "productivity", "content-creation", "empty"}
	check := func(step string) {
		t.Helper()
		all, err := st.Prompts(ctx)
		storetest.Must(t, err, "catalogue")
		want := map[string]int{}
		for _, p := range all {
			want[p.CategoryID]++
		}
		got, err := st.CategoryPromptCounts(ctx, cats)
		storetest.Must(t, err, step)
		for _, c := range cats {
			if got[c] != want[c] {
				t.Errorf("%s: %s holds %d, want %d", step, c, got[c], want[c])
			}
		}
	}
	check("loaded")
	draft := written("draft-1", 1)
	draft.Unpublished = true
	storetest.Must(t, st.CreatePrompt(ctx, draft), "draft")
	check("a draft")
	p, err := st.GetPrompt(ctx, ps[1].ID)
	storetest.Must(t, err, "read")
	p.Unpublished = true
	p.Version++
	storetest.Must(t, st.UpdatePrompt(ctx, p, p.Version-1), "unpublish")
	check("unpublished")
	p.CategoryID = "business"
	p.Version++
	storetest.Must(t, st.UpdatePrompt(ctx, p, p.Version-1), "move")
	check("moved")
	storetest.Must(t, st.DeletePrompt(ctx, "draft-1", 1), "delete")
	check("deleted")
}

// The featured list, a page of the admins' list and the categories' counts
// read what they show: the same few units at 2,000 prompts as at 800.
func TestFeaturedAndAdminListCapacity(t *testing.T) {
	t.Parallel()
	measure := func(n int) map[string]float64 {
		ps := catalogue(n)
		for i := range ps {
			ps[i].Featured = i%500 == 7
			ps[i].Unpublished = i%10 == 3
			if i%9 == 0 {
				ps[i].RatingSum, ps[i].RatingCount = 4*(1+i%3), 1+i%3
			}
		}
		st := loaded(t, ps)
		out := map[string]float64{}
		for name, read := range map[string]func(context.Context) error{
			"featured": func(c context.Context) error {
				got, err := st.FeaturedPrompts(c, 6)
				if err == nil && len(got) != 6 {
					err = fmt.Errorf("%d featured", len(got))
				}
				return err
			},
			"admin page": func(c context.Context) error {
				page, err := st.AdminPrompts(c, store.AdminPromptQuery{Limit: 25})
				if err == nil && len(page.Prompts) != 25 {
					err = fmt.Errorf("%d on the page", len(page.Prompts))
				}
				return err
			},
			"admin unpublished in a category": func(c context.Context) error {
				_, err := st.AdminPrompts(c, store.AdminPromptQuery{Limit: 25, Filter: prompts.Filter{CategoryID: "writing", State: prompts.Unpublished}})
				return err
			},
			"category counts": func(c context.Context) error {
				_, err := st.CategoryPromptCounts(c, []string{"business", "writing", "productivity", "content-creation"})
				return err
			},
		} {
			mctx, used := store.MeterCapacity(ctx)
			storetest.Must(t, read(mctx), name)
			if used.Scans() > 0 {
				t.Errorf("%s at %d prompts: %d scans", name, n, used.Scans())
			}
			out[name] = used.Read()
		}
		return out
	}
	small, large := measure(800), measure(2000)
	for name, l := range large {
		t.Logf("%s: %.1f RCU at 800 prompts, %.1f at 2,000", name, small[name], l)
		if l > small[name]+1 || l > 20 {
			t.Errorf("%s reads %.1f RCU at 2,000 prompts, %.1f at 800: it grows with the catalogue", name, l, small[name])
		}
	}
}

// Prompts stored in the listing's first format (no featured-order or
// unpublished copies) get them from the backfill.
func TestBackfillGivesFeaturedAndUnpublishedCopies(t *testing.T) {
	t.Parallel()
	ps := catalogue(8)
	ps[1].Unpublished, ps[2].Featured = true, true
	st := loaded(t, ps)
	for _, it := range storetest.ScanAll(t, st) {
		pk := it["PK"].(*types.AttributeValueMemberS).Value
		switch {
		case pk == "PLIST#FEAT" || strings.HasPrefix(pk, "PLIST#OFF#"):
			_, err := st.DB().DeleteItem(ctx, &dynamodb.DeleteItemInput{
				TableName: aws.String(st.Table()), Key: map[string]types.AttributeValue{"PK": it["PK"], "SK": it["SK"]}})
			storetest.Must(t, err, "delete copy")
		case strings.HasPrefix(pk, "PROMPT#") && it["SK"].(*types.AttributeValueMemberS).Value == "META":
			_, err := st.DB().UpdateItem(ctx, &dynamodb.UpdateItemInput{
				TableName: aws.String(st.Table()), Key: map[string]types.AttributeValue{"PK": it["PK"], "SK": it["SK"]},
				UpdateExpression:          aws.String("SET lfmt = :one"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}},
			})
			storetest.Must(t, err, "first format")
		}
	}
	if n, err := st.BackfillPromptListings(ctx); err != nil || n != 8 {
		t.Fatalf("backfill: %d, %v", n, err)
	}
	if got, err := st.FeaturedPrompts(ctx, 1); err != nil || len(got) != 1 || got[0].ID != ps[2].ID {
		t.Errorf("featured after the backfill: %v, %v", promptIDs(got), err)
	}
	f := prompts.Filter{State: prompts.Unpublished}
	if got, first := readAllAdmin(t, st, store.AdminPromptQuery{Filter: f, Limit: 5}); !slices.Equal(got, []string{ps[1].ID}) || first.Total != 1 {
		t.Errorf("unpublished after the backfill: %v (total %d)", got, first.Total)
	}
}
