package prompts

import (
	"strings"
	"unicode"

	"aiwork/shared/domain"
)

// A card is what the marketplace's list shows of a prompt. The listing
// keeps a copy of each card beside its sort keys, so that a page of the
// list is one read of small items whatever the catalogue's size: a card
// carries the preview instead of the content and at most
// CardDescriptionLength characters of the description (the card shows
// three lines; the prompt itself, GET /prompts/{id}, has all of it).

// PreviewLength is how much of a prompt's content everyone may read
// (SPEC §9).
const PreviewLength = 200

// CardDescriptionLength is how much of the description a card carries, in
// characters.
const CardDescriptionLength = 300

// Preview is what everyone may read of content: at most PreviewLength
// characters (not bytes), cut at the last word boundary (whitespace)
// within them so that no word shows half ("IN..."), trailing spaces
// dropped; a first word longer than PreviewLength is cut at PreviewLength.
// truncated reports whether content goes on. The ellipsis is the web
// app's (prompt-text.ts cutPreview cuts content the same way).
func Preview(content string) (text string, truncated bool) {
	return cutAtWord(content, PreviewLength)
}

func cutAtWord(s string, limit int) (string, bool) {
	runes := []rune(s)
	if len(runes) <= limit {
		return s, false
	}
	cut := limit
	if !unicode.IsSpace(runes[cut]) {
		for cut > 0 && !unicode.IsSpace(runes[cut-1]) {
			cut--
		}
		if cut == 0 {
			cut = limit
		}
	}
	return strings.TrimRightFunc(string(runes[:cut]), unicode.IsSpace), true
}

// Card is p as the marketplace's list shows it.
func Card(p domain.Prompt) domain.PromptCard {
	preview, previewCut := Preview(p.Content)
	desc, descCut := cutAtWord(p.Description, CardDescriptionLength)
	return domain.PromptCard{
		ID: p.ID, Title: p.Title, Description: desc, DescriptionTruncated: descCut,
		Preview: preview, PreviewTruncated: previewCut, Price: p.Price, CategoryID: p.CategoryID,
		CreatedAt: p.CreatedAt, RatingSum: p.RatingSum, RatingCount: p.RatingCount,
		CreatorUsername: p.CreatorUsername, CreatorDisplayName: p.CreatorDisplayName,
	}
}
