package store_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/prompts"
	"aiwork/shared/seeddata"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

var categoryNames = map[string]string{"business": "Business", "writing": "Writing", "productivity": "Productivity", "content-creation": "Content Creation"}

// numbered is the n-th of a generated catalogue: a few distinct words,
// prices and times repeating so that every order has ties to break.
func numbered(n int) domain.Prompt {
	cats := []string{"business", "writing", "productivity", "content-creation"}
	words := []string{"email", "launch", "review", "script", "outline"}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(n/3) * time.Hour)
	return domain.Prompt{
		ID: fmt.Sprintf("p%05d", n), Title: fmt.Sprintf("%s %s kit", words[n%5], words[(n/5)%5]),
		Description: "Ready to paste " + words[(n+2)%5] + " steps", Content: "Write it for [AUDIENCE].",
		Price: float64(1+n%7) + 0.99, CategoryID: cats[n%4], CreatedAt: at, UpdatedAt: at, Version: 1,
	}
}

func catalogue(n int) []domain.Prompt {
	out := make([]domain.Prompt, n)
	for i := range out {
		out[i] = numbered(i)
	}
	return out
}

func loaded(t *testing.T, ps []domain.Prompt) *store.Store {
	t.Helper()
	st := storetest.New(t)
	storetest.Must(t, st.BulkLoadPrompts(ctx, ps), "bulk load")
	return st
}

func cardIDs(cs []domain.PromptCard) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.ID
	}
	return out
}

// readAll pages through q to the end, answering the ids in order and the
// pages' sizes.
func readAll(t *testing.T, st *store.Store, q store.PromptListQuery) (ids []string, sizes []int, first store.PromptListPage) {
	t.Helper()
	for i := 0; ; i++ {
		page, err := st.ListPrompts(ctx, q)
		if err != nil {
			t.Fatalf("page %d: %v", i, err)
		}
		if i == 0 {
			first = page
		}
		ids = append(ids, cardIDs(page.Cards)...)
		sizes = append(sizes, len(page.Cards))
		if page.NextCursor == "" {
			return ids, sizes, first
		}
		if i > 1000 {
			t.Fatal("no end")
		}
		q.Cursor = page.NextCursor
	}
}

// expected is the list read from the whole catalogue: its published
// prompts of category (any: "") having every word of search in their
// title, description or category's name, sorted as the catalogue always
// was (prompts.Sort).
func expected(ps []domain.Prompt, category, search string, o prompts.Order) []string {
	words, _ := prompts.QueryTokens(search)
	var keep []domain.Prompt
	for _, p := range ps {
		if p.Unpublished || category != "" && p.CategoryID != category {
			continue
		}
		have := append(prompts.IndexTokens(p), prompts.Tokens(categoryNames[p.CategoryID])...)
		if !slices.ContainsFunc(words, func(w string) bool { return !slices.Contains(have, w) }) {
			keep = append(keep, p)
		}
	}
	prompts.Sort(keep, o)
	out := []string{}
	for _, p := range keep {
		out = append(out, p.ID)
	}
	return out
}

// Pages end exactly at the boundaries: 24 prompts are one page, 25 two
// (the second of one), 48 two full ones, none with an empty page after.
func TestListPagesAtTheirBoundaries(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n     int
		sizes []int
	}{{0, []int{0}}, {24, []int{24}}, {25, []int{24, 1}}, {48, []int{24, 24}}, {49, []int{24, 24, 1}}} {
		t.Run(fmt.Sprint(tc.n), func(t *testing.T) {
			t.Parallel()
			ps := catalogue(tc.n)
			st := loaded(t, ps)
			ids, sizes, first := readAll(t, st, store.PromptListQuery{Order: prompts.Newest, Limit: 24})
			if !slices.Equal(sizes, tc.sizes) {
				t.Errorf("page sizes %v, want %v", sizes, tc.sizes)
			}
			if want := expected(ps, "", "", prompts.Newest); !slices.Equal(ids, want) {
				t.Errorf("ids %v\nwant %v", ids, want)
			}
			if first.Count != tc.n || !first.CountExact {
				t.Errorf("count %d (exact %v), want %d", first.Count, first.CountExact, tc.n)
			}
		})
	}
}

// Each order, alone, by category and with searches (words of the title,
// the description and a category's name), is the order the whole-catalogue
// sort gave, across pages of every size.
func TestListOrdersFiltersAndSearches(t *testing.T) {
	t.Parallel()
	ps := catalogue(90)
	// A few prompts off the catalogue: never listed.
	for i := range ps {
		if i%17 == 0 {
			ps[i].Unpublished = true
		}
	}
	st := loaded(t, ps)
	for _, tc := range []struct {
		category, search string
	}{
		{"", ""}, {"writing", ""}, {"", "email"}, {"", "EMAIL kit"}, {"business", "launch"},
		{"", "email launch"}, {"", "steps review"}, {"", "writing"}, {"", "content creation"},
		{"", "writing email"}, {"productivity", "productivity outline"}, {"writing", "business"},
		{"", "zzzz-no-such-prompt"}, {"no-such-category", ""}, {"no-such-category", "email"},
	} {
		for _, o := range prompts.Orders {
			for _, limit := range []int{3, 24} {
				words, err := prompts.QueryTokens(tc.search)
				if err != nil {
					t.Fatal(err)
				}
				q := store.PromptListQuery{Order: o, CategoryID: tc.category, Words: words, CategoryNames: categoryNames, Limit: limit}
				got, _, first := readAll(t, st, q)
				want := expected(ps, tc.category, tc.search, o)
				if !slices.Equal(got, want) {
					t.Errorf("%q in %q by %s, %d a page:\n got %v\nwant %v", tc.search, tc.category, o, limit, got, want)
				}
				if first.CountExact && first.Count != len(want) || !first.CountExact && (first.Count != len(first.Cards) || first.Count > len(want)) {
					t.Errorf("%q in %q by %s, %d a page: count %d (exact %v), %d found", tc.search, tc.category, o, limit, first.Count, first.CountExact, len(want))
				}
			}
		}
	}
}

// A prompt added or removed between two pages shows no card twice and
// skips none of those that stayed.
func TestCatalogueChangesBetweenPages(t *testing.T) {
	t.Parallel()
	ps := catalogue(30)
	st := loaded(t, ps)
	q := store.PromptListQuery{Order: prompts.Newest, Limit: 10}
	first, err := st.ListPrompts(ctx, q)
	storetest.Must(t, err, "first page")
	shown := cardIDs(first.Cards)

	// A new prompt (newest of all, before the place the list is at), one
	// removed from the page shown, one removed from the pages to come.
	fresh := numbered(1000)
	fresh.ID, fresh.CreatedAt = "fresh", time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	storetest.Must(t, st.CreatePrompt(ctx, fresh), "create")
	gone := []string{shown[len(shown)-1], "p00003"}
	for _, id := range gone {
		storetest.Must(t, st.DeletePrompt(ctx, id, 1), "delete "+id)
	}
	q.Cursor = first.NextCursor
	rest, _, _ := readAll(t, st, q)
	all := append(slices.Clone(shown), rest...)
	seen := map[string]bool{}
	for _, id := range all {
		if seen[id] {
			t.Errorf("%s shown twice", id)
		}
		seen[id] = true
	}
	for _, p := range ps {
		if !seen[p.ID] && !slices.Contains(gone, p.ID) {
			t.Errorf("%s skipped", p.ID)
		}
	}
	if slices.Contains(rest, "p00003") {
		t.Error("a removed prompt is listed on a later page")
	}
}

func TestListRefusesCursorsItDidNotGive(t *testing.T) {
	t.Parallel()
	st := loaded(t, catalogue(30))
	q := store.PromptListQuery{Order: prompts.Newest, Limit: 5}
	page, err := st.ListPrompts(ctx, q)
	storetest.Must(t, err, "page")
	for _, tc := range []struct {
		name string
		q    store.PromptListQuery
	}{
		{"not base64", store.PromptListQuery{Order: prompts.Newest, Limit: 5, Cursor: "%%%"}},
		{"not JSON", store.PromptListQuery{Order: prompts.Newest, Limit: 5, Cursor: "bm90LWpzb24"}},
		{"another order's", store.PromptListQuery{Order: prompts.PriceLow, Limit: 5, Cursor: page.NextCursor}},
		{"another category's", store.PromptListQuery{Order: prompts.Newest, CategoryID: "writing", Limit: 5, Cursor: page.NextCursor}},
		{"another search's", store.PromptListQuery{Order: prompts.Newest, Words: []string{"email"}, Limit: 5, Cursor: page.NextCursor}},
	} {
		if _, err := st.ListPrompts(ctx, tc.q); !errors.Is(err, store.ErrBadCursor) {
			t.Errorf("%s: %v, want ErrBadCursor", tc.name, err)
		}
	}
}

// A user's own prompts (published or not) are listed with the same
// orders, filters and cursors.
func TestListOnlyOwnPrompts(t *testing.T) {
	t.Parallel()
	ps := catalogue(40)
	ps[5].Unpublished = true
	st := loaded(t, ps)
	own := []string{"p00001", "p00005", "p00009", "p00013", "p00020", "p00021", "nope"}
	var mine []domain.Prompt
	for _, p := range ps {
		if slices.Contains(own, p.ID) {
			p.Unpublished = false // listed to its owner
			mine = append(mine, p)
		}
	}
	for _, o := range prompts.Orders {
		got, _, first := readAll(t, st, store.PromptListQuery{Order: o, Only: own, Limit: 2, CategoryNames: categoryNames})
		if want := expected(mine, "", "", o); !slices.Equal(got, want) || first.Count != len(want) || !first.CountExact {
			t.Errorf("own by %s: %v (count %d), want %v", o, got, first.Count, want)
		}
	}
	got, _, _ := readAll(t, st, store.PromptListQuery{Order: prompts.Newest, Only: own, Limit: 24, CategoryID: "business", CategoryNames: categoryNames})
	if want := expected(mine, "business", "", prompts.Newest); !slices.Equal(got, want) {
		t.Errorf("own in business: %v, want %v", got, want)
	}
	if page, err := st.ListPrompts(ctx, store.PromptListQuery{Order: prompts.Newest, Only: []string{}, Limit: 24}); err != nil || len(page.Cards) != 0 || page.Count != 0 {
		t.Errorf("nothing owned: %+v, %v", page, err)
	}
}

// DESIGN §10: a page of 24 cards costs at most 4 RCU whatever the
// catalogue's size (measured: DynamoDB's own consumed capacity, which the
// local engine reports the same way). The catalogue is the real seed's
// cards (their sizes are what a page reads), 2,000 of them. A search's
// first page also reads the counts of its words' partitions (half a unit
// each, once a minute per process): the multi-word search is measured on
// its later pages.
func TestListPageCapacity(t *testing.T) {
	t.Parallel()
	seed, err := seeddata.Prompts()
	storetest.Must(t, err, "seed")
	const n = 2000
	ps := make([]domain.Prompt, n)
	for i := range ps {
		p := seed[i%len(seed)]
		p.ID = fmt.Sprintf("%s-%04d", p.ID, i)
		p.CreatedAt = p.CreatedAt.Add(time.Duration(i) * time.Minute)
		// The title's words only, so that 2,000 load in seconds; the card
		// keeps the sizes of the seed's title, description and preview.
		p.Description = strings.Repeat(p.Title+" ", len(p.Description)/(len(p.Title)+1)+1)
		ps[i] = p
	}
	st := loaded(t, ps)
	words, _ := prompts.QueryTokens(seed[0].Title)
	for _, tc := range []struct {
		name  string
		q     store.PromptListQuery
		pages int
		// countsFirst: the first page reads the words' counts too.
		countsFirst bool
	}{
		{"newest", store.PromptListQuery{Order: prompts.Newest}, 3, false},
		{"price-low", store.PromptListQuery{Order: prompts.PriceLow}, 3, false},
		{"price-high", store.PromptListQuery{Order: prompts.PriceHigh}, 3, false},
		{"a category", store.PromptListQuery{Order: prompts.Newest, CategoryID: seed[0].CategoryID}, 3, false},
		{"a one-word search", store.PromptListQuery{Order: prompts.Newest, Words: words[:1]}, 3, false},
		{"the title of a prompt", store.PromptListQuery{Order: prompts.PriceLow, Words: words}, 3, true},
		{"the title of a prompt, again", store.PromptListQuery{Order: prompts.PriceHigh, Words: words}, 2, false},
	} {
		q := tc.q
		q.Limit, q.CategoryNames = 24, categoryNames
		for i := range tc.pages {
			mctx, used := store.MeterCapacity(ctx)
			page, err := st.ListPrompts(mctx, q)
			storetest.Must(t, err, tc.name)
			if len(page.Cards) != 24 {
				t.Fatalf("%s page %d: %d cards", tc.name, i, len(page.Cards))
			}
			t.Logf("%s page %d at %d prompts: %.1f RCU in %d calls", tc.name, i, n, used.Read(), used.Calls())
			if budget := 4 + 0.5*float64(len(words)); tc.countsFirst && i == 0 && used.Read() > budget {
				t.Errorf("%s page %d: %.1f RCU, budget %.1f with the counts of its words", tc.name, i, used.Read(), budget)
			} else if (!tc.countsFirst || i > 0) && used.Read() > 4 {
				t.Errorf("%s page %d: %.1f RCU, budget 4", tc.name, i, used.Read())
			}
			q.Cursor = page.NextCursor
		}
	}
}
