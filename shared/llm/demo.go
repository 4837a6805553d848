package llm

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Demo is the local demo model: it streams a deterministic, clearly
// labelled reply in several chunks, so the chat works with no keys at all.
type Demo struct {
	Provider string        // which provider it stands in for
	Delay    time.Duration // between chunks, to look like a real stream
}

var _ Provider = (*Demo)(nil)

// Stream answers with a reply built from the last user message.
func (d *Demo) Stream(ctx context.Context, req Request, emit func(string) error) (Usage, error) {
	reply := DemoReply(d.Provider, req)
	chunks := splitWords(reply, 4)
	for i, c := range chunks {
		if i > 0 && d.Delay > 0 {
			select {
			case <-ctx.Done():
				return Usage{}, ctx.Err()
			case <-time.After(d.Delay):
			}
		}
		if err := emit(c); err != nil {
			return Usage{}, err
		}
	}
	in := 0
	for _, m := range req.Messages {
		in += estimateTokens(m.Content)
	}
	return Usage{InputTokens: in, OutputTokens: estimateTokens(reply)}, nil
}

// DemoReply is the demo model's whole answer for a request.
func DemoReply(provider string, req Request) string {
	last := ""
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == "user" {
			last = req.Messages[i].Content
			break
		}
	}
	if isSummaryRequest(last) {
		return "Local demo summary: " + firstWords(last, 25) + "…"
	}
	quote := firstWords(strings.Join(strings.Fields(last), " "), 40)
	return fmt.Sprintf("**Local demo model** (standing in for %s `%s`: no API key is configured for this provider, so this reply is generated locally).\n\n"+
		"You wrote %d characters%s:\n\n> %s\n\n"+
		"Here is how a real model's reply is shown:\n\n"+
		"1. Text streams in as it is generated.\n2. Markdown such as *italic*, **bold** and `code` is rendered.\n3. Code blocks get a language label and a Copy button:\n\n"+
		"```go\nfmt.Println(%q)\n```\n\n"+
		"Set the provider's API key (see the README) to chat with the real model.",
		provider, req.Model, utf8.RuneCountInString(last), turnNote(req.Messages), quote, firstWords(last, 6))
}

func turnNote(ms []Message) string {
	turns := 0
	for _, m := range ms {
		if m.Role == "user" {
			turns++
		}
	}
	if turns <= 1 {
		return ""
	}
	return fmt.Sprintf(" (message %d of this conversation)", turns)
}

func isSummaryRequest(s string) bool {
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(s)), "summarize") || strings.HasPrefix(strings.ToLower(strings.TrimSpace(s)), "summarise")
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		f = f[:n]
	}
	return strings.Join(f, " ")
}

// splitWords cuts s into pieces of about n words, keeping every character.
func splitWords(s string, n int) []string {
	var out []string
	words, start := 0, 0
	for i, r := range s {
		if r == ' ' || r == '\n' {
			words++
			if words == n {
				out = append(out, s[start:i+1])
				start, words = i+1, 0
			}
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// estimateTokens is the usual four-characters-per-token rule of thumb.
func estimateTokens(s string) int { return (utf8.RuneCountInString(s) + 3) / 4 }
