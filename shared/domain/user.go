// Package domain holds the product's entities as the API speaks them; storage
// details stay in the store package.
package domain

import "time"

// User is an account. IsSuperuser is SPEC's is_admin.
type User struct {
	ID          string `json:"id"`
	Email       string `json:"email"`
	Username    string `json:"username"`
	FullName    string `json:"full_name"`
	IsSuperuser bool   `json:"is_superuser"`
	// IsVerified: the owner confirmed the email address (mailed link, or
	// Google sign-in). Free uses and admin rights need it.
	IsVerified bool `json:"is_verified"`
	// Disabled: an admin disabled the account (sign-in refused, sessions
	// ended).
	Disabled     bool      `json:"disabled,omitempty"`
	PasswordHash string    `json:"-"`
	GoogleSub    string    `json:"-"`
	CreatedAt    time.Time `json:"created_at"`
}

// Activity types as SPEC §3 names them.
const (
	ActivityAccountCreated = "account_created"
	ActivityFreePromptUsed = "free_prompt_used"
	ActivityPurchase       = "purchase"
	ActivityLogin          = "login"
	ActivityOther          = "other"
)

// Activity is one line of a user's recent activity.
type Activity struct {
	ID          string    `json:"id"`
	Type        string    `json:"type"`
	Title       string    `json:"title"`
	Description string    `json:"description"`
	CreatedAt   time.Time `json:"created_at"`
	Amount      *float64  `json:"amount,omitempty"`
	PromptTitle string    `json:"prompt_title,omitempty"`
}

// Category groups prompts.
type Category struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}
