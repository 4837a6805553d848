package promptsapi_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"aiwork/shared/domain"
	"aiwork/shared/store/storetest"
)

func TestVisitorListsPreviewsOnly(t *testing.T) {
	t.Parallel()
	s := newStack(t, 5, fixture("a", "business", 9.99, 0), fixture("b", "writing", 2.99, 1))
	w := s.Do("GET", "/api/v1/prompts/", "", "")
	got := listed(t, w)
	if len(got) != 2 {
		t.Fatalf("got %d prompts, want 2", len(got))
	}
	if strings.Contains(w.Body.String(), "SECRET-TAIL") || strings.Contains(w.Body.String(), `"content"`) {
		t.Errorf("visitor list carries content: %s", w.Body.String())
	}
	for _, p := range got {
		// The fixture's 220-character word does not fit: the preview stops before it.
		if p.Preview != "Preview part of "+p.ID || !p.PreviewTruncated {
			t.Errorf("%s preview = %q (truncated %v), want the words before the long one, truncated", p.ID, p.Preview, p.PreviewTruncated)
		}
		if p.UserRating != nil || p.IsPurchased {
			t.Errorf("%s: visitor fields user_rating=%v is_purchased=%v", p.ID, p.UserRating, p.IsPurchased)
		}
		if p.Category.Name == "" || p.CreatedAt.IsZero() {
			t.Errorf("%s: category %+v created_at %v", p.ID, p.Category, p.CreatedAt)
		}
	}
	if got[0].Category.Name != "Writing" || got[1].Category.Name != "Business" {
		t.Errorf("category names %q, %q", got[0].Category.Name, got[1].Category.Name)
	}
}

func TestPreviewCountsCharactersNotBytes(t *testing.T) {
	t.Parallel()
	p := fixture("u", "writing", 3.99, 0)
	p.Content = strings.Repeat("é", 250)
	s := newStack(t, 5, p)
	got := listed(t, s.Do("GET", "/api/v1/prompts/", "", ""))
	if got[0].Preview != strings.Repeat("é", 200) || !got[0].PreviewTruncated {
		t.Errorf("preview of multi-byte text is %d characters", utf8.RuneCountInString(got[0].Preview))
	}
}

// A preview is never cut mid-word ("IN...", "system...."): it ends at the
// last word boundary within 200 characters; the API says whether the
// content goes on.
func TestPreviewCutsAtAWordBoundary(t *testing.T) {
	t.Parallel()
	words := func(n int) string { return strings.TrimSpace(strings.Repeat("word ", n)) } // 5n-1 characters
	cases := []struct {
		name, content, want string
		truncated           bool
	}{
		{"a word across the cut is left out", words(40) + " INDUSTRY and more", words(40), true},
		{"a sentence ending before the cut keeps its full stop", words(38) + " system. Then the rest of the prompt", words(38) + " system.", true},
		{"the 200th character ends a word", strings.Repeat("a", 95) + " " + strings.Repeat("b", 104) + " tail", strings.Repeat("a", 95) + " " + strings.Repeat("b", 104), true},
		{"a line break is a boundary", words(39) + "\nINDUSTRY\nmore", words(39), true},
		{"exactly 200 characters are all shown", strings.Repeat("c", 200), strings.Repeat("c", 200), false},
		{"short text is all shown", "Write about [TOPIC].", "Write about [TOPIC].", false},
		{"one word longer than the preview is cut inside", strings.Repeat("d", 250), strings.Repeat("d", 200), true},
		{"characters, not bytes", strings.Repeat("é", 150) + " " + strings.Repeat("ü", 80), strings.Repeat("é", 150), true},
	}
	prompts := make([]domain.Prompt, len(cases))
	for i, c := range cases {
		prompts[i] = fixture(fmt.Sprintf("p%02d", i), "writing", 1, -i) // newest first = case order
		prompts[i].Content = c.content
	}
	s := newStack(t, 5, prompts...)
	got := listed(t, s.Do("GET", "/api/v1/prompts/", "", ""))
	if len(got) != len(cases) {
		t.Fatalf("got %d prompts, want %d", len(got), len(cases))
	}
	for i, c := range cases {
		p := got[i]
		if p.Preview != c.want || p.PreviewTruncated != c.truncated {
			t.Errorf("%s: preview = %q (%d chars), truncated %v; want %q, truncated %v", c.name, p.Preview, utf8.RuneCountInString(p.Preview), p.PreviewTruncated, c.want, c.truncated)
		}
		if utf8.RuneCountInString(p.Preview) > 200 || !strings.HasPrefix(c.content, p.Preview) {
			t.Errorf("%s: preview %q is not a start of the content within 200 characters", c.name, p.Preview)
		}
	}
}

func TestSearchFilterSortPage(t *testing.T) {
	t.Parallel()
	a := fixture("a", "business", 9.99, 0)
	a.Title = "Cold Email Sequence"
	b := fixture("b", "writing", 2.99, 2)
	b.Description = "Turns a messy draft into an EMAIL people read"
	c := fixture("c", "productivity", 19.99, 1)
	d := fixture("d", "content-creation", 9.99, 2) // same time as b: id decides
	s := newStack(t, 5, a, b, c, d)
	tests := []struct {
		query string
		want  []string
	}{
		{"", []string{"d", "b", "c", "a"}},
		{"?sort=newest", []string{"d", "b", "c", "a"}},
		{"?sort=price-low", []string{"b", "d", "a", "c"}},
		{"?sort=price-high", []string{"c", "d", "a", "b"}},
		{"?search=email", []string{"b", "a"}},
		{"?search=%20EMAIL%20", []string{"b", "a"}},
		{"?search=content%20creation", []string{"d"}},
		{"?search=PRODUCTIVITY", []string{"c"}},
		{"?category_id=business", []string{"a"}},
		{"?category_id=business&search=nothing-like-this", []string{}},
		{"?category_id=no-such-category", []string{}},
		{"?category=business", []string{"a"}},
		{"?q=email&category=writing", []string{"b"}},
		{"?q=email%20cold", []string{"a"}},
		{"?q=zzzz-no-such-prompt", []string{}},
		{"?limit=2", []string{"d", "b"}},
	}
	for _, tt := range tests {
		got := ids(listed(t, s.Do("GET", "/api/v1/prompts/"+tt.query, "", "")))
		if !slices.Equal(got, tt.want) {
			t.Errorf("GET %s = %v, want %v", tt.query, got, tt.want)
		}
	}
	// Page by page: each next_cursor leads on, the last page has none, the
	// count is the whole list's.
	var got []string
	path := "/api/v1/prompts/?sort=price-low&limit=3"
	for {
		page := decode[listJSON](t, s.Do("GET", path, "", ""), http.StatusOK)
		if page.Count != 4 || !page.CountExact {
			t.Errorf("%s: count %d (exact %v), want 4", path, page.Count, page.CountExact)
		}
		got = append(got, ids(page.Items)...)
		if page.NextCursor == nil {
			break
		}
		path = "/api/v1/prompts/?sort=price-low&limit=3&cursor=" + *page.NextCursor
	}
	if want := []string{"b", "d", "a", "c"}; !slices.Equal(got, want) {
		t.Errorf("paged by price = %v, want %v", got, want)
	}
	first := decode[listJSON](t, s.Do("GET", "/api/v1/prompts/?limit=2", "", ""), http.StatusOK)
	for _, bad := range []string{"?sort=cheapest", "?limit=0", "?limit=61", "?limit=x", "?filter=everyone",
		"?cursor=not-a-cursor", "?cursor=" + *first.NextCursor + "&sort=price-high", "?q=" + strings.Repeat("a", 1000),
		"?q=one%20two%20three%20four%20five%20six%20seven%20eight%20nine%20ten%20eleven"} {
		wantError(t, s.Do("GET", "/api/v1/prompts/"+bad, "", ""), http.StatusBadRequest, "")
	}
}

func TestCategoriesAndFeatured(t *testing.T) {
	t.Parallel()
	a, b, c := fixture("a", "business", 9.99, 0), fixture("b", "writing", 2.99, 1), fixture("c", "writing", 4.99, 2)
	b.Featured = true
	s := newStack(t, 5, a, b, c)
	cats := decode[[]struct{ ID, Name string }](t, s.Do("GET", "/api/v1/prompts/categories", "", ""), http.StatusOK)
	var names []string
	for _, c := range cats {
		names = append(names, c.ID+"="+c.Name)
	}
	if want := []string{"business=Business", "content-creation=Content Creation", "productivity=Productivity", "writing=Writing"}; !slices.Equal(names, want) {
		t.Errorf("categories = %v, want %v", names, want)
	}
	// a is rated best, b is flagged: flagged first, then by rating, then newest.
	uid, _ := s.User("rater")
	s.buy(uid, "a")
	if _, err := s.St.Rate(t.Context(), uid, "a", 5); err != nil {
		t.Fatal(err)
	}
	w := s.Do("GET", "/api/v1/prompts/featured", "", "")
	if got := ids(decode[[]promptJSON](t, w, http.StatusOK)); !slices.Equal(got, []string{"b", "a", "c"}) {
		t.Errorf("featured = %v, want [b a c]", got)
	}
	if strings.Contains(w.Body.String(), "SECRET-TAIL") {
		t.Error("featured leaks content to visitors")
	}
}

func TestGetOne(t *testing.T) {
	t.Parallel()
	s := newStack(t, 5, fixture("a", "business", 9.99, 0))
	p := decode[promptJSON](t, s.Do("GET", "/api/v1/prompts/a", "", ""), http.StatusOK)
	if p.ID != "a" || p.Content != nil {
		t.Errorf("visitor GET one = %+v", p)
	}
	wantError(t, s.Do("GET", "/api/v1/prompts/nope", "", ""), http.StatusNotFound, "Prompt not found")
	wantError(t, s.Do("GET", "/api/v1/prompts/a", "not-a-token", ""), http.StatusUnauthorized, "")
}

// filter=purchased and filter=mine list the caller's own prompts (a prompt
// taken off the catalogue too, which the catalogue no longer lists), with
// their content; a visitor owns none.
func TestOwnViews(t *testing.T) {
	t.Parallel()
	a, b, c := fixture("a", "business", 9.99, 0), fixture("b", "writing", 2.99, 1), fixture("c", "writing", 4.99, 2)
	s := newStack(t, 5, a, b, c)
	uid, token := s.User("owner")
	s.buy(uid, "a")
	decode[useFreeJSON](t, s.Do("POST", "/api/v1/prompts/use-free-prompt/b", token, ""), http.StatusOK)
	// a leaves the catalogue; its owner keeps it.
	off := a
	off.Unpublished, off.Version = true, 1
	storetest.Must(t, s.St.UpdatePrompt(t.Context(), off, 0), "unpublish")

	if got := ids(listed(t, s.Do("GET", "/api/v1/prompts/", token, ""))); !slices.Equal(got, []string{"c", "b"}) {
		t.Errorf("catalogue = %v, want [c b]", got)
	}
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"?filter=purchased", []string{"a"}},
		{"?filter=mine", []string{"b", "a"}},
		{"?filter=mine&sort=price-high", []string{"a", "b"}},
		{"?filter=mine&category=writing", []string{"b"}},
		{"?filter=mine&q=business", []string{"a"}},
	} {
		page := decode[listJSON](t, s.Do("GET", "/api/v1/prompts/"+tc.query, token, ""), http.StatusOK)
		if got := ids(page.Items); !slices.Equal(got, tc.want) || page.Count != len(tc.want) || !page.CountExact {
			t.Errorf("%s = %v (count %d), want %v", tc.query, got, page.Count, tc.want)
		}
		for _, p := range page.Items {
			if p.Content == nil || !strings.Contains(*p.Content, "SECRET-TAIL-"+p.ID) {
				t.Errorf("%s: %s without its content", tc.query, p.ID)
			}
		}
	}
	if got := listed(t, s.Do("GET", "/api/v1/prompts/?filter=mine", "", "")); len(got) != 0 {
		t.Errorf("a visitor's own prompts: %v", ids(got))
	}
}

// A card carries the description's start; the prompt itself has all of it.
func TestCardCutsALongDescription(t *testing.T) {
	t.Parallel()
	p := fixture("long", "writing", 3, 0)
	p.Description = strings.Repeat("word ", 100) + "END"
	s := newStack(t, 5, p)
	card := listed(t, s.Do("GET", "/api/v1/prompts/", "", ""))[0]
	if !card.DescriptionTruncated || utf8.RuneCountInString(card.Description) > 300 || strings.Contains(card.Description, "END") {
		t.Errorf("card description %d characters, truncated %v", utf8.RuneCountInString(card.Description), card.DescriptionTruncated)
	}
	full := decode[promptJSON](t, s.Do("GET", "/api/v1/prompts/long", "", ""), http.StatusOK)
	if full.Description != p.Description || full.DescriptionTruncated {
		t.Errorf("the prompt's description is cut: %q", full.Description)
	}
}
