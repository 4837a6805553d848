package prompts_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"aiwork/shared/domain"
	"aiwork/shared/prompts"
)

var categories = map[string]string{"business": "Business", "writing": "Writing"}

func valid() domain.Prompt {
	return domain.Prompt{ID: "p1", Title: "T", Description: "D", Content: "C", Price: 1.5, CategoryID: "business"}
}

// Each rule, its boundary, and the words a writer is shown (the web app's
// editor and its tests match them as they are).
func TestCheck(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		change func(*domain.Prompt)
		field  string
		want   string // "" for a valid prompt
	}{
		{"valid", func(*domain.Prompt) {}, "", ""},
		{"title missing", func(p *domain.Prompt) { p.Title = "" }, "title", "title is required"},
		{"title at its limit", func(p *domain.Prompt) { p.Title = strings.Repeat("é", 200) }, "", ""},
		{"title too long", func(p *domain.Prompt) { p.Title = strings.Repeat("t", 201) }, "title", "title must be at most 200 characters"},
		{"title with a tab", func(p *domain.Prompt) { p.Title = "a\tb" }, "title", "title must not contain control characters"},
		{"title with a newline", func(p *domain.Prompt) { p.Title = "a\nb" }, "title", "title must not contain control characters"},
		{"description empty", func(p *domain.Prompt) { p.Description = "" }, "", ""},
		{"description at its limit", func(p *domain.Prompt) { p.Description = strings.Repeat("d", 2000) }, "", ""},
		{"description too long", func(p *domain.Prompt) { p.Description = strings.Repeat("d", 2001) }, "description", "description must be at most 2000 characters"},
		{"content empty", func(p *domain.Prompt) { p.Content = "" }, "content", "content is required"},
		{"content blank", func(p *domain.Prompt) { p.Content = " \n\t" }, "content", "content is required"},
		{"content at its limit", func(p *domain.Prompt) { p.Content = strings.Repeat("😀", 50_000) }, "", ""},
		{"content too long", func(p *domain.Prompt) { p.Content = strings.Repeat("x", 100_000) }, "content", "content must be at most 50000 characters (it has 100000)"},
		{"price zero", func(p *domain.Prompt) { p.Price = 0 }, "price", "price must be more than 0 and at most 999.99"},
		{"price negative", func(p *domain.Prompt) { p.Price = -3 }, "price", "price must be more than 0 and at most 999.99"},
		{"price not a number", func(p *domain.Prompt) { p.Price = math.NaN() }, "price", "price must be more than 0 and at most 999.99"},
		{"price at its limit", func(p *domain.Prompt) { p.Price = 999.99 }, "", ""},
		{"price too high", func(p *domain.Prompt) { p.Price = 1000 }, "price", "price must be more than 0 and at most 999.99"},
		{"price of a cent", func(p *domain.Prompt) { p.Price = 0.01 }, "", ""},
		{"price in tenths of cents", func(p *domain.Prompt) { p.Price = 1.234 }, "price", "price must have at most two decimals"},
		{"price below a cent", func(p *domain.Prompt) { p.Price = 1e-9 }, "price", "price must have at most two decimals"},
		{"price far below a cent", func(p *domain.Prompt) { p.Price = 1e-200 }, "price", "price must have at most two decimals"},
		{"category missing", func(p *domain.Prompt) { p.CategoryID = "" }, "category_id", "category_id is required"},
		{"category unknown", func(p *domain.Prompt) { p.CategoryID = "nope" }, "category_id", `category "nope" does not exist`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := valid()
			tc.change(&p)
			err := prompts.Check(p, categories)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Check = %v, want nil", err)
				}
				return
			}
			got, ok := errors.AsType[*prompts.InvalidError](err)
			if !ok {
				t.Fatalf("Check = %v, want an *InvalidError", err)
			}
			if got.Message != tc.want || got.Field != tc.field {
				t.Errorf("Check = %q on %q, want %q on %q", got.Message, got.Field, tc.want, tc.field)
			}
		})
	}
}

// The first rule broken is the one answered, in the order of the fields.
func TestCheckAnswersTheFirstRuleBroken(t *testing.T) {
	t.Parallel()
	err := prompts.Check(domain.Prompt{Content: "", Price: 0}, categories)
	if got, want := err.Error(), "title is required"; got != want {
		t.Errorf("Check = %q, want %q", got, want)
	}
}
