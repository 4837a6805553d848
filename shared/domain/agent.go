package domain

import (
	"slices"
	"time"
)

// Agent is a creator's agent: instructions sent as the system prompt of
// each turn, a provider and model, MCP servers from the registry with the
// tools it may use on each, starter prompts, and a price (0: free). It
// goes through review as a creator's prompt does (the Prompt* states).
type Agent struct {
	ID           string
	Name         string
	Description  string
	Instructions string
	Provider     string
	Model        string
	Servers      []AgentServer
	Starters     []string
	CategoryID   string
	Price        float64
	// CreatorID made it; CreatorUsername and CreatorDisplayName name them
	// on its cards (copied from their profile as it changes).
	CreatorID          string
	CreatorUsername    string
	CreatorDisplayName string
	State              string
	ReviewReason       string
	// Version counts the writes (each a conditional write); Published the
	// versions that went live; Pending the next one, edited while this one
	// stays live, until an admin decides on it.
	Version   int
	Published int
	Pending   *AgentPending
	// Suspended: an admin took the agent off the marketplace;
	// CreatorSuspended: its creator was suspended. Either way, buyers keep
	// using it.
	Suspended        bool
	CreatorSuspended bool
	// Withdrawn: its creator deleted it after someone bought it.
	Withdrawn   bool
	RatingSum   int
	RatingCount int
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// AgentServer is one registry server an agent uses and the tools it may
// call there (the only ones offered to the model).
type AgentServer struct {
	ServerID string   `dynamodbav:"server_id" json:"server_id"`
	Tools    []string `dynamodbav:"tools" json:"tools"`
}

// AgentPending is an edit of a published agent waiting to go live.
type AgentPending struct {
	Name         string        `dynamodbav:"name"`
	Description  string        `dynamodbav:"description"`
	Instructions string        `dynamodbav:"instructions"`
	Provider     string        `dynamodbav:"provider"`
	Model        string        `dynamodbav:"model"`
	Servers      []AgentServer `dynamodbav:"servers"`
	Starters     []string      `dynamodbav:"starters"`
	CategoryID   string        `dynamodbav:"category_id"`
	Price        float64       `dynamodbav:"price"`
	ChangeNote   string        `dynamodbav:"change_note"`
	State        string        `dynamodbav:"state"`
	ReviewReason string        `dynamodbav:"review_reason,omitempty"`
}

// OnSale reports whether the agent marketplace lists and sells a: live,
// and neither it nor its creator suspended or withdrawn.
func (a Agent) OnSale() bool {
	return a.State == PromptPublished && !a.Suspended && !a.CreatorSuspended && !a.Withdrawn
}

// IsFree reports whether anyone may use the agent without buying it.
func (a Agent) IsFree() bool { return a.Price == 0 }

// Allows reports whether the agent may call tool on the registry server
// serverID: the allow-list, which a request cannot widen.
func (a Agent) Allows(serverID, tool string) bool {
	for _, s := range a.Servers {
		if s.ServerID == serverID {
			return slices.Contains(s.Tools, tool)
		}
	}
	return false
}

// RatingAvg is the mean rating rounded to one decimal (0 when unrated).
func (a Agent) RatingAvg() float64 {
	if a.RatingCount == 0 {
		return 0
	}
	return RoundOne(float64(a.RatingSum) / float64(a.RatingCount))
}
