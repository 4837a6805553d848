package domain

// Order states: PENDING → PAID → REFUNDED, or PENDING → EXPIRED / FAILED.
const (
	OrderPending  = "PENDING"
	OrderPaid     = "PAID"
	OrderExpired  = "EXPIRED"
	OrderFailed   = "FAILED"
	OrderRefunded = "REFUNDED"
)

// RefundDuplicate is the refund reason of a payment for a prompt the buyer
// already had: we refund it ourselves and the buyer keeps the prompt.
const RefundDuplicate = "duplicate"

// Order is one checkout: who buys which prompt for how much. Times are RFC
// 3339 (UTC); the first writer's PaidAt and RefundedAt stay, so a re-run of
// fulfilment or a refund reads the same times (deterministic activity keys).
type Order struct {
	SessionID   string // the checkout session's id, the order's key
	UserID      string
	PromptID    string
	PromptTitle string
	Amount      float64
	Status      string // Order* constants
	Provider    string // the payment provider's name: stripe or local
	CreatedAt   string
	PaidAt      string
	// PaymentIntent links refunds back to the order.
	PaymentIntent string
	RefundedAt    string
	// RefundReason is RefundDuplicate for our own refund of a second
	// payment; empty for a refund made at the provider.
	RefundReason string
	// Kind is what was bought: "" a prompt (every order before agents),
	// KindAgent an agent, whose id is in PromptID and name in PromptTitle.
	Kind string
}
