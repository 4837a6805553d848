package domain

// ChatConnection is a user's connection to one model of a chat provider:
// what a chat message names to say which model answers it.
type ChatConnection struct {
	ID       string
	Provider string // catalogue provider id: openai, meta, anthropic, google
	Model    string // catalogue model name
	// Name is what the user sees, e.g. "OpenAI GPT (local demo)".
	Name      string
	CreatedAt string // RFC 3339
}
