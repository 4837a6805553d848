package domain

import (
	"encoding/json"
	"time"
)

// Conversation is one chat tab's conversation, kept with the account: the
// same on every device, archived when its tab closes.
type Conversation struct {
	ID        string
	Title     string
	Provider  string
	Model     string
	CreatedAt time.Time
	UpdatedAt time.Time
	Archived  bool
	// MessageCount counts the messages stored (a user message and its
	// reply are two).
	MessageCount int
	// AgentID is the marketplace agent the conversation is bound to (""
	// for none), from its creation on: its messages run as that agent.
	// AgentName names it as it was then.
	AgentID   string
	AgentName string
	// Search is what q= matches: the title and the start of the first
	// messages, lower-cased and bounded (read only).
	Search string
}

// Message roles in a conversation.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// ConversationMessage is one message of a conversation. A reply is saved
// as it streams: Complete is false while it is being generated (or when
// its generation died), true once it ended, with Error set when it failed.
type ConversationMessage struct {
	ID             string
	ConversationID string
	Role           string
	Content        string
	CreatedAt      time.Time
	UpdatedAt      time.Time
	Complete       bool
	Error          string
	// Truncated: the text was cut at the stored limit.
	Truncated bool
	// Usage is what the reply's model calls spent (replies only).
	Usage *MessageUsage
	// Blocks are the reply's tool frames ({"tool_call": …}, {"tool_result":
	// …}, {"notice": …}) in stream order, each at the offset of the text
	// that preceded it.
	Blocks []MessageBlock
	// StopRequested: the user pressed Stop; the generating invocation ends.
	StopRequested bool
	// Attachments are the resources the user attached to the message
	// (user messages only): named, never their contents.
	Attachments []MessageAttachment
	// Parts is how many items the store appended the reply's saves in
	// (store.ReplyWriter goes on from there after a pause).
	Parts int
}

// MessageAttachment is a resource of one of the user's MCP servers that
// was given to the model with a message.
type MessageAttachment struct {
	ConnectionID string `json:"connection_id"`
	URI          string `json:"uri"`
	Name         string `json:"name"`
	MIMEType     string `json:"mime_type,omitempty"`
	Size         int64  `json:"size"`
}

// MessageUsage is a reply's usage frame as the stream sent it.
type MessageUsage struct {
	InputTokens  int     `json:"input_tokens"`
	OutputTokens int     `json:"output_tokens"`
	CostUSD      float64 `json:"cost_usd"`
	Demo         bool    `json:"demo,omitempty"`
}

// MessageBlock is one non-text frame of a reply, placed after At bytes of
// its text.
type MessageBlock struct {
	At    int             `json:"at"`
	Frame json.RawMessage `json:"frame"`
}
