package domain

import "time"

// Prompt is a catalogue entry. Content is the paid text: the API layer decides
// who may see it; the domain type always carries it.
type Prompt struct {
	ID          string
	Title       string
	Description string
	Content     string
	Price       float64
	CategoryID  string
	Featured    bool
	CreatedAt   time.Time
	RatingSum   int
	RatingCount int
	// Unpublished: an admin took it off the catalogue; its owners still
	// read it. (Zero value: published, as every prompt before admins.)
	Unpublished bool
	// Version counts the writes (prompts.New, prompts.Edit; 0: seeded and
	// never edited), each a conditional write; UpdatedAt is the last.
	Version   int
	UpdatedAt time.Time
	// Stats are kept beside the prompt as its uses happen.
	Stats PromptStats
	// CreatorID is the user who sells it ("" for the platform's own), State
	// where it stands in review (creator.go's Prompt* states; "" for the
	// platform's) and ReviewReason why it was last rejected.
	CreatorID    string
	State        string
	ReviewReason string
	// CreatorSuspended: an admin suspended its creator; it is off the
	// marketplace (its owners still read it) until they are unsuspended.
	CreatorSuspended bool
	// CreatorUsername and CreatorDisplayName name the creator on the
	// prompt's cards (copied from their profile as it changes).
	CreatorUsername    string
	CreatorDisplayName string
	// Published counts the versions of a creator's prompt that went live
	// (each kept for its buyers, PromptVersion); Pending is the next one,
	// edited while this one stays live, until an admin decides on it.
	Published int
	Pending   *PendingVersion
}

// PendingVersion is an edit of a published prompt waiting to go live:
// its fields, the creator's "what changed" note, and where it stands in
// review (draft, in_review or rejected, with the reason).
type PendingVersion struct {
	Title        string  `dynamodbav:"title"`
	Description  string  `dynamodbav:"description"`
	Content      string  `dynamodbav:"content"`
	Price        float64 `dynamodbav:"price"`
	CategoryID   string  `dynamodbav:"category_id"`
	ChangeNote   string  `dynamodbav:"change_note"`
	State        string  `dynamodbav:"state"`
	ReviewReason string  `dynamodbav:"review_reason,omitempty"`
}

// PromptVersion is one version of a creator's prompt as it went live:
// buyers read every one (a purchase covers them all).
type PromptVersion struct {
	Number      int
	Title       string
	Description string
	Content     string
	Price       float64
	ChangeNote  string
	PublishedAt time.Time
}

// OnSale reports whether the marketplace lists and sells p: published and
// its creator (if any) not suspended.
func (p Prompt) OnSale() bool { return !p.Unpublished && !p.CreatorSuspended }

// PromptStats count a prompt's uses: free uses claimed, purchases made
// (refunds take theirs back) and the revenue that stays.
type PromptStats struct {
	FreeUses  int     `json:"free_uses"`
	Purchases int     `json:"purchases"`
	Revenue   float64 `json:"revenue"`
}

// RatingAvg is the mean rating rounded to one decimal (0 when unrated).
func (p Prompt) RatingAvg() float64 {
	if p.RatingCount == 0 {
		return 0
	}
	return RoundOne(float64(p.RatingSum) / float64(p.RatingCount))
}

// RoundOne rounds half away from zero to one decimal.
func RoundOne(x float64) float64 {
	if x < 0 {
		return -RoundOne(-x)
	}
	return float64(int64(x*10+0.5)) / 10
}

// FreeStatus is a user's free-prompt quota.
type FreeStatus struct {
	Remaining    int      `json:"remaining"`
	TotalAllowed int      `json:"total_allowed"`
	Used         int      `json:"used"`
	PromptIDs    []string `json:"prompt_ids"`
	// SharedWithOtherAccounts: another account on the same mailbox spent
	// some of the uses (they count per mailbox), which is why Used can be
	// more than this account's PromptIDs.
	SharedWithOtherAccounts bool `json:"shared_with_other_accounts"`
}

// Ownership sources.
const (
	SourcePurchase = "purchase"
	SourceFree     = "free"
)

// Ownership is a user's right to a prompt's content, or to chat with a
// paid agent, through a purchase.
type Ownership struct {
	// PromptID is the prompt's id, or the agent's when Kind is KindAgent.
	PromptID  string
	Source    string
	OrderID   string
	Amount    float64
	CreatedAt time.Time
	// Kind: "" a prompt, KindAgent an agent.
	Kind string
}
