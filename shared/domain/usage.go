package domain

import "time"

// ModelUsage is what chat replies of one provider's model consumed.
type ModelUsage struct {
	Provider string // catalogue provider id: openai, meta, anthropic, google
	Model    string // catalogue model name: gpt-4o-mini …
	// Demo marks replies of the local demo model standing in for the
	// provider: they count against the budget but cost nothing.
	Demo         bool
	InputTokens  int
	OutputTokens int
	Requests     int
}

// Tokens is input plus output: what the daily budget counts.
func (u ModelUsage) Tokens() int { return u.InputTokens + u.OutputTokens }

// DayUsage is one user's chat usage on one UTC day, per model.
type DayUsage struct {
	Date   string // 2006-01-02, UTC
	Models []ModelUsage
}

// NextUTCDay is the start of the UTC day after t's: when a daily chat
// budget used on t's day resets.
func NextUTCDay(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC)
}
