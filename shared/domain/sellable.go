package domain

import "math"

// What a checkout sells. Orders and ownerships store "" for a prompt (as
// every one did before agents were sold) and KindAgent for an agent.
const (
	KindPrompt = "prompt"
	KindAgent  = "agent"
)

// KindOf names a stored kind: "" is a prompt.
func KindOf(stored string) string {
	if stored == "" {
		return KindPrompt
	}
	return stored
}

// StoredKind is how kind is stored on an order or an ownership: "" for a
// prompt, so a prompt's records read as they always did.
func StoredKind(kind string) string {
	if kind == KindPrompt {
		return ""
	}
	return kind
}

// Sellable is what the checkout, fulfilment, refunds, the fee split and
// the creator's ledger see of a prompt or an agent for sale.
type Sellable struct {
	Kind string // KindPrompt or KindAgent
	ID   string
	// Title is a prompt's title or an agent's name.
	Title string
	Price float64 // USD; 0 is free
	// CreatorID sells it ("" for the platform's own prompts).
	CreatorID string
	OnSale    bool
}

// PriceCents is the price in cents.
func (s Sellable) PriceCents() int64 { return int64(math.Round(s.Price * 100)) }

// Noun names the kind in a user's words: "prompt" or "agent".
func (s Sellable) Noun() string { return KindOf(s.Kind) }

// SellablePrompt is p as the checkout sells it.
func SellablePrompt(p Prompt) Sellable {
	return Sellable{Kind: KindPrompt, ID: p.ID, Title: p.Title, Price: p.Price, CreatorID: p.CreatorID, OnSale: p.OnSale()}
}

// SellableAgent is a as the checkout sells it.
func SellableAgent(a Agent) Sellable {
	return Sellable{Kind: KindAgent, ID: a.ID, Title: a.Name, Price: a.Price, CreatorID: a.CreatorID, OnSale: a.OnSale()}
}
