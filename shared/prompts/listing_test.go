package prompts_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/prompts"
)

func ids(ps []domain.Prompt) string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.ID
	}
	return strings.Join(out, " ")
}

func at(day int) time.Time { return time.Date(2026, 1, day, 0, 0, 0, 0, time.UTC) }

var listed = []domain.Prompt{
	{ID: "a", Title: "Alpha PLAN", Description: "for launches", CategoryID: "business", Price: 3, CreatedAt: at(1)},
	{ID: "b", Title: "Beta", Description: "a plan for posts", CategoryID: "writing", Price: 4, CreatedAt: at(3)},
	{ID: "c", Title: "Gamma memo", Description: "short notes", CategoryID: "writing", Price: 2, CreatedAt: at(2), Unpublished: true},
	{ID: "d", Title: "Delta", Description: "numbers", CategoryID: "business", Price: 2, CreatedAt: at(2)},
}

func TestFilter(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		filter prompts.Filter
		want   string
	}{
		{"zero keeps every prompt", prompts.Filter{}, "a b c d"},
		{"search ignores case and space, in title or description", prompts.Filter{Search: "  Plan "}, "a b"},
		{"search leaves the category's name out without names", prompts.Filter{Search: "business"}, ""},
		{"search takes in the category's name with names", prompts.Filter{Search: "BUSI", CategoryNames: categories}, "a d"},
		{"a search does not span title and description", prompts.Filter{Search: "plan for"}, "b"},
		{"category", prompts.Filter{CategoryID: "writing"}, "b c"},
		{"published", prompts.Filter{State: prompts.Published}, "a b d"},
		{"unpublished", prompts.Filter{State: prompts.Unpublished}, "c"},
		{"any state", prompts.Filter{State: prompts.AnyState}, "a b c d"},
		{"all at once", prompts.Filter{Search: "m", CategoryID: "writing", State: prompts.Unpublished}, "c"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := slices.DeleteFunc(slices.Clone(listed), func(p domain.Prompt) bool { return !tc.filter.Matches(p) })
			if ids(got) != tc.want {
				t.Errorf("kept %q, want %q", ids(got), tc.want)
			}
		})
	}
}

// Every order ends newest first, then by id, so the order is total; the
// prices are set so that no order by price is the newest first.
func TestSort(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		order prompts.Order
		want  string
	}{
		{prompts.Newest, "b d c a"},
		{prompts.PriceLow, "d c a b"},
		{prompts.PriceHigh, "b a d c"},
		{"", "b d c a"},
	} {
		t.Run(string(tc.order), func(t *testing.T) {
			got := slices.Clone(listed)
			prompts.Sort(got, tc.order)
			if ids(got) != tc.want {
				t.Errorf("Sort(%q) = %q, want %q", tc.order, ids(got), tc.want)
			}
		})
	}
}

func TestSortFeatured(t *testing.T) {
	t.Parallel()
	ps := []domain.Prompt{
		{ID: "old-unrated", CreatedAt: at(1)},
		{ID: "rated-4-once", RatingSum: 4, RatingCount: 1, CreatedAt: at(1)},
		{ID: "rated-4-twice", RatingSum: 8, RatingCount: 2, CreatedAt: at(1)},
		{ID: "featured-unrated", Featured: true, CreatedAt: at(1)},
		{ID: "rated-5", RatingSum: 5, RatingCount: 1, CreatedAt: at(1)},
		{ID: "new-unrated", CreatedAt: at(9)},
	}
	prompts.SortFeatured(ps)
	if got, want := ids(ps), "featured-unrated rated-5 rated-4-twice rated-4-once new-unrated old-unrated"; got != want {
		t.Errorf("SortFeatured = %q\nwant %q", got, want)
	}
}
