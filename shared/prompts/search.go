package prompts

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"aiwork/shared/domain"
)

// Search in the marketplace is by whole words ("tokens"), the same rule
// for what a prompt is indexed under and for what a query asks: text is
// lower-cased and split on every character that is not a letter or a
// digit; one-character words, words longer than MaxTokenLength and a few
// English words too common to tell prompts apart are dropped. No stemming
// and no ranking: a prompt matches a query when it has every word of it
// (in its title or description, or in its category's name), and the
// listing keeps its chosen order.

const (
	// MinTokenLength: shorter words are not indexed ("a", "I", "3").
	MinTokenLength = 2
	// MaxTokenLength: longer words are not indexed (hashes, pasted
	// addresses); a query's are dropped the same way.
	MaxTokenLength = 40
	// MaxPromptTokens caps the distinct words a prompt is indexed under:
	// its title's first, then its description's, in order. Each indexed
	// word costs one index item per sort order, written with the prompt.
	MaxPromptTokens = 40
	// MaxQueryLength is the longest search text accepted, in characters.
	MaxQueryLength = 200
	// MaxQueryTokens is how many distinct words a search may have.
	MaxQueryTokens = 10
)

// stopWords are words nearly every prompt has: a search for one of them
// would read the whole catalogue and narrow nothing.
var stopWords = map[string]bool{
	"an": true, "and": true, "are": true, "as": true, "at": true, "be": true, "by": true, "for": true,
	"from": true, "in": true, "into": true, "is": true, "it": true, "its": true, "of": true, "on": true,
	"or": true, "that": true, "the": true, "this": true, "to": true, "with": true, "you": true, "your": true,
}

// Tokens are the distinct search words of text, in the order they first
// appear.
func Tokens(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		n := utf8.RuneCountInString(w)
		if n < MinTokenLength || n > MaxTokenLength || stopWords[w] || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// IndexTokens are the words p is found by: its title's, then its
// description's, at most MaxPromptTokens. (Its category's name is matched
// when a search runs, so renaming a category re-indexes nothing.)
func IndexTokens(p domain.Prompt) []string {
	out := Tokens(p.Title + "\n" + p.Description)
	if len(out) > MaxPromptTokens {
		out = out[:MaxPromptTokens]
	}
	return out
}

// QueryError is a search the marketplace refuses; its message says why.
type QueryError struct{ Message string }

func (e *QueryError) Error() string { return e.Message }

// QueryTokens are the words a search asks for. A search longer than
// MaxQueryLength or with more than MaxQueryTokens words is a *QueryError;
// one without a word to look for (blank, or only short or common words)
// answers none, and the listing is then not narrowed by it.
func QueryTokens(q string) ([]string, error) {
	if utf8.RuneCountInString(q) > MaxQueryLength {
		return nil, &QueryError{Message: "search must be at most 200 characters"}
	}
	toks := Tokens(q)
	if len(toks) > MaxQueryTokens {
		return nil, &QueryError{Message: "search must have at most 10 words"}
	}
	return toks, nil
}

// CategoryMatches maps each of toks to the categories whose name has it as
// a word (names by category id): a search finds a prompt by its
// category's name too.
func CategoryMatches(toks []string, names map[string]string) map[string][]string {
	out := make(map[string][]string, len(toks))
	for id, name := range names {
		for _, w := range Tokens(name) {
			for _, t := range toks {
				if t == w {
					out[t] = append(out[t], id)
				}
			}
		}
	}
	for _, ids := range out {
		slices.Sort(ids)
	}
	return out
}
