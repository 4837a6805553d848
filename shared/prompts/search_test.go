package prompts_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"aiwork/shared/domain"
	"aiwork/shared/prompts"
)

func TestTokens(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"Cold Email Sequence (5 Touches)", []string{"cold", "email", "sequence", "touches"}},
		{"  EMAIL, email; e-mail!", []string{"email", "mail"}},
		{"Write for the B2B team: AI and UX", []string{"write", "b2b", "team", "ai", "ux"}},
		{"Écrire un résumé — naïve café", []string{"écrire", "un", "résumé", "naïve", "café"}},
		{"a I 3 " + strings.Repeat("x", 41), nil},
		{"", nil},
	} {
		if got := prompts.Tokens(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("Tokens(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// A prompt is found by its title's words first, then its description's,
// at most MaxPromptTokens of them.
func TestIndexTokens(t *testing.T) {
	t.Parallel()
	var words []string
	for i := range 60 {
		words = append(words, fmt.Sprintf("word%02d", i))
	}
	p := domain.Prompt{Title: "Launch plan", Description: strings.Join(words, " ") + " launch"}
	got := prompts.IndexTokens(p)
	if len(got) != prompts.MaxPromptTokens || got[0] != "launch" || got[1] != "plan" || got[2] != "word00" {
		t.Errorf("IndexTokens = %d words %q…", len(got), got[:3])
	}
}

func TestQueryTokens(t *testing.T) {
	t.Parallel()
	if got, err := prompts.QueryTokens("  Cold EMAIL "); err != nil || !slices.Equal(got, []string{"cold", "email"}) {
		t.Errorf("QueryTokens = %q, %v", got, err)
	}
	if got, err := prompts.QueryTokens("the a"); err != nil || len(got) != 0 {
		t.Errorf("a search of common words = %q, %v; want none", got, err)
	}
	for _, bad := range []string{strings.Repeat("a", 201), "one two three four five six seven eight nine ten eleven"} {
		var qe *prompts.QueryError
		if _, err := prompts.QueryTokens(bad); !errors.As(err, &qe) {
			t.Errorf("QueryTokens(%.20q…) = %v, want a QueryError", bad, err)
		}
	}
}

func TestCategoryMatches(t *testing.T) {
	t.Parallel()
	names := map[string]string{"cc": "Content Creation", "w": "Writing", "cw": "Creative Writing"}
	got := prompts.CategoryMatches([]string{"writing", "content", "email"}, names)
	if !slices.Equal(got["writing"], []string{"cw", "w"}) || !slices.Equal(got["content"], []string{"cc"}) || len(got["email"]) != 0 {
		t.Errorf("CategoryMatches = %v", got)
	}
}

func TestCard(t *testing.T) {
	t.Parallel()
	p := domain.Prompt{ID: "p", Title: "T", Description: strings.Repeat("word ", 70), Content: strings.Repeat("c ", 150), Price: 3, CategoryID: "w", RatingSum: 9, RatingCount: 2}
	c := prompts.Card(p)
	if !c.DescriptionTruncated || len([]rune(c.Description)) > prompts.CardDescriptionLength || !strings.HasSuffix(c.Description, "word") {
		t.Errorf("description %q (cut %v)", c.Description, c.DescriptionTruncated)
	}
	if !c.PreviewTruncated || len([]rune(c.Preview)) > prompts.PreviewLength || c.RatingAvg() != 4.5 {
		t.Errorf("card %+v", c)
	}
	short := prompts.Card(domain.Prompt{Description: "Short.", Content: "Short."})
	if short.DescriptionTruncated || short.PreviewTruncated || short.Description != "Short." {
		t.Errorf("short card %+v", short)
	}
}
