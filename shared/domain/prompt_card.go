package domain

import "time"

// PromptCard is a published prompt as the marketplace's list shows it
// (prompts.Card makes it): everything but the content, of which only the
// preview, and the description cut to a card's length.
type PromptCard struct {
	ID                   string
	Title                string
	Description          string
	DescriptionTruncated bool
	Preview              string
	PreviewTruncated     bool
	Price                float64
	CategoryID           string
	CreatedAt            time.Time
	RatingSum            int
	RatingCount          int
	// The creator's username and display name ("" for the platform's own).
	CreatorUsername    string
	CreatorDisplayName string
}

// RatingAvg is the mean rating rounded to one decimal (0 when unrated).
func (c PromptCard) RatingAvg() float64 {
	return Prompt{RatingSum: c.RatingSum, RatingCount: c.RatingCount}.RatingAvg()
}
