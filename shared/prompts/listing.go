package prompts

import (
	"cmp"
	"slices"
	"strings"

	"aiwork/shared/domain"
)

// State is which prompts a listing keeps by their place in the catalogue.
type State string

const (
	AnyState    State = "all"
	Published   State = "published"
	Unpublished State = "unpublished"
)

// States are the states a listing may ask for.
var States = []State{AnyState, Published, Unpublished}

// Filter picks prompts for a listing; its zero value keeps every prompt.
type Filter struct {
	// Search keeps the prompts whose title or description contains it,
	// ignoring case and the space around it. With CategoryNames (names by
	// id) the category's name is searched too: the marketplace searches
	// "by title, description or category", an admin's list "title or
	// description".
	Search        string
	CategoryNames map[string]string
	// CategoryID keeps the prompts of that category ("": any).
	CategoryID string
	// State keeps the prompts in that state ("": AnyState).
	State State
}

// Matches reports whether the filter keeps p.
func (f Filter) Matches(p domain.Prompt) bool {
	if f.CategoryID != "" && p.CategoryID != f.CategoryID {
		return false
	}
	if (f.State == Published && p.Unpublished) || (f.State == Unpublished && !p.Unpublished) {
		return false
	}
	search := strings.ToLower(strings.TrimSpace(f.Search))
	if search == "" {
		return true
	}
	contains := func(s string) bool { return strings.Contains(strings.ToLower(s), search) }
	return contains(p.Title) || contains(p.Description) || (f.CategoryNames != nil && contains(f.CategoryNames[p.CategoryID]))
}

// Order is how a listing is sorted.
type Order string

const (
	Newest    Order = "newest"
	PriceLow  Order = "price-low"
	PriceHigh Order = "price-high"
)

// Orders are the orders a listing may ask for, Newest the default.
var Orders = []Order{Newest, PriceLow, PriceHigh}

// NewestFirst compares by created_at, newest first, then by id (SPEC §9):
// every order ends with it, so a listing's order is total.
func NewestFirst(a, b domain.Prompt) int {
	if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
		return c
	}
	return cmp.Compare(b.ID, a.ID)
}

// Sort orders ps by o (an order not in Orders is Newest).
func Sort(ps []domain.Prompt, o Order) {
	slices.SortStableFunc(ps, func(a, b domain.Prompt) int {
		switch o {
		case PriceLow:
			if c := cmp.Compare(a.Price, b.Price); c != 0 {
				return c
			}
		case PriceHigh:
			if c := cmp.Compare(b.Price, a.Price); c != 0 {
				return c
			}
		}
		return NewestFirst(a, b)
	})
}

// SortFeatured orders ps for the featured list: the prompts flagged
// featured first, then the best rated (average, then number of ratings),
// then the newest.
func SortFeatured(ps []domain.Prompt) {
	slices.SortStableFunc(ps, func(a, b domain.Prompt) int {
		if a.Featured != b.Featured {
			if a.Featured {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(b.RatingAvg(), a.RatingAvg()); c != 0 {
			return c
		}
		if c := cmp.Compare(b.RatingCount, a.RatingCount); c != 0 {
			return c
		}
		return NewestFirst(a, b)
	})
}
