package llm

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
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

// Stream answers with a reply built from the last user message, or calls
// the tool it names (DemoToolCall), or answers from the tool results that
// came back.
func (d *Demo) Stream(ctx context.Context, req Request, emit func(Event) error) (Usage, error) {
	reply, call := DemoReply(d.Provider, req), (*ToolCall)(nil)
	if c, ok := DemoToolCall(req); ok {
		reply, call = demoCallNote(c), &c
	}
	// One timer for the whole reply, not one per chunk (time.After).
	var pause *time.Timer
	if d.Delay > 0 {
		pause = time.NewTimer(d.Delay)
		defer pause.Stop()
	}
	for i, c := range splitWords(reply, 4) {
		if i > 0 && pause != nil {
			select {
			case <-ctx.Done():
				return Usage{}, ctx.Err()
			case <-pause.C:
			}
		}
		if err := emit(Event{Text: c}); err != nil {
			return Usage{}, err
		}
		if pause != nil {
			pause.Reset(d.Delay) // the next chunk comes Delay after this one went out
		}
	}
	// No real tokenizer here: counted as any provider that reports none.
	u := EstimateUsage(req.Messages, reply)
	stop := StopEnd
	if call != nil {
		if err := emit(Event{ToolCall: call}); err != nil {
			return Usage{}, err
		}
		u.OutputTokens += EstimateTokens(call.Arguments)
		stop = StopToolCalls
	}
	return u, emit(Event{Stop: stop})
}

// DemoReply is the demo model's whole answer for a request (its text,
// when it calls no tool).
func DemoReply(provider string, req Request) string {
	if results, ok := lastToolResults(req.Messages); ok {
		return demoToolAnswer(provider, req.Model, results)
	}
	last := ""
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == "user" {
			last = req.Messages[i].Content
			break
		}
	}
	last, attached := SplitAttachments(last)
	if text, words, ok := summaryRequest(last); ok {
		return DemoSummary(text, words)
	}
	quote := firstWords(strings.Join(strings.Fields(last), " "), 40)
	return receivedNote(attached) + fmt.Sprintf("**Local demo model** (standing in for %s `%s`: no API key is configured for this provider, so this reply is generated locally).\n\n"+
		"You wrote %d characters%s:\n\n> %s\n\n"+
		"Here is how a real model's reply is shown:\n\n"+
		"1. Text streams in as it is generated.\n2. Markdown such as *italic*, **bold** and `code` is rendered.\n3. Code blocks get a language label and a Copy button:\n\n"+
		"```go\nfmt.Println(%q)\n```\n\n"+
		"Set the provider's API key (see the README) to chat with the real model.",
		provider, req.Model, utf8.RuneCountInString(last), turnNote(req.Messages), quote, firstWords(last, 6))
}

// receivedNote says what the user attached, quoting each resource's
// start, so a reader (and a test) sees the model got it.
func receivedNote(as []ReceivedAttachment) string {
	var b strings.Builder
	for _, a := range as {
		body := firstWords(strings.Join(strings.Fields(a.Body), " "), 12)
		if strings.HasPrefix(a.Body, "(The user attached this ") {
			body = fmt.Sprintf("%s, %s", cmp.Or(a.MIMEType, "binary"), sizeText(a.Size))
		}
		fmt.Fprintf(&b, "I received the resource %s: %s…\n\n", a.URI, body)
	}
	return b.String()
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

// DemoSummaryLabel starts every demo summary, so nobody takes it for a
// model's.
const DemoSummaryLabel = "(demo summary)"

// summaryRequest recognises the summariser's prompt, "Summarize the following
// in at most 35 words:\n\n<text>" (webapp llm-chat/summary.ts), or any
// message that starts with "Summarize"/"Summarise" and puts the text after a
// colon. It answers the text and the word limit (35 unless the prompt says).
func summaryRequest(s string) (text string, words int, ok bool) {
	s = strings.TrimSpace(s)
	lower := strings.ToLower(s)
	if !strings.HasPrefix(lower, "summarize") && !strings.HasPrefix(lower, "summarise") {
		return "", 0, false
	}
	instruction, text, found := strings.Cut(s, ":")
	if !found {
		return "", 0, false
	}
	words = 35
	if m := wordLimit().FindStringSubmatch(instruction); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil && n >= 5 {
			words = n
		}
	}
	return text, words, true
}

var wordLimit = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)at most (\d+) words`) })

// DemoSummary is the demo model's summary of text: its first sentences, as
// many whole ones as fit, the label included, in maxWords words (the first
// sentence cut with an ellipsis when it alone is longer). Code blocks and
// markdown markers are left out; the instruction is never repeated.
func DemoSummary(text string, maxWords int) string {
	budget := maxWords - len(strings.Fields(DemoSummaryLabel))
	words := strings.Fields(plainText(text))
	if len(words) == 0 {
		return DemoSummaryLabel + " Nothing to summarise."
	}
	end := 0 // words taken: whole sentences only
	for i, w := range words {
		if i >= budget {
			break
		}
		if strings.HasSuffix(w, ".") || strings.HasSuffix(w, "!") || strings.HasSuffix(w, "?") {
			end = i + 1
		}
	}
	switch {
	case len(words) <= budget:
		end = len(words) // all of it fits
	case end == 0:
		return DemoSummaryLabel + " " + strings.Join(words[:budget], " ") + "…"
	}
	return DemoSummaryLabel + " " + strings.Join(words[:end], " ")
}

var (
	listMarker = regexp.MustCompile(`^([-*+]|\d+[.)])\s+`)
	emphasis   = strings.NewReplacer("**", "", "__", "", "`", "")
)

// plainText drops fenced code blocks (unless that leaves nothing) and the
// heading, quote and list markers that start lines, and emphasis marks.
func plainText(text string) string {
	var prose, all []string
	inCode := false
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") {
			inCode = !inCode
			continue
		}
		t = listMarker.ReplaceAllString(strings.TrimLeft(t, "#> \t"), "")
		t = emphasis.Replace(t)
		all = append(all, t)
		if !inCode {
			prose = append(prose, t)
		}
	}
	if s := strings.Join(prose, " "); strings.TrimSpace(s) != "" {
		return s
	}
	return strings.Join(all, " ")
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
