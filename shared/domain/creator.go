package domain

import "time"

// Creator is a user who sells prompts: the profile they show (display
// name, bio, country) and their payout account as Stripe reports it (the
// payouts part writes it; absent: PayoutsNone).
type Creator struct {
	UserID      string
	Username    string
	DisplayName string
	Bio         string
	Country     string
	// Suspended: an admin took the creator's prompts off the marketplace
	// (their buyers keep them).
	Suspended      bool
	PayoutsStatus  string
	ChargesEnabled bool
	PayoutsEnabled bool
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// Payout statuses of a creator's connected account.
const (
	PayoutsNone          = "none"
	PayoutsDetailsNeeded = "details_needed"
	PayoutsPending       = "pending"
	PayoutsEnabled       = "enabled"
)

// CanSell reports whether the creator may have a paid prompt approved:
// their payouts are enabled.
func (c Creator) CanSell() bool { return c.PayoutsStatus == PayoutsEnabled && c.ChargesEnabled }

// States of a creator's prompt. A platform prompt (no creator) has none:
// Unpublished alone places it.
const (
	PromptDraft     = "draft"
	PromptInReview  = "in_review"
	PromptPublished = "published"
	PromptRejected  = "rejected"
)
