package llm_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"aiwork/shared/llm"
)

func demoRequest(text string) llm.Request {
	return llm.Request{Model: "gpt-4o-mini", Messages: []llm.Message{
		{Role: "user", Content: "First question"},
		{Role: "assistant", Content: "First answer"},
		{Role: "user", Content: text},
	}}
}

func collect(t *testing.T, d *llm.Demo, req llm.Request) ([]string, llm.Usage) {
	t.Helper()
	var chunks []string
	u, err := d.Stream(context.Background(), req, llm.TextOnly(func(s string) error {
		chunks = append(chunks, s)
		return nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	return chunks, u
}

func TestDemoStreamsALabelledDeterministicReply(t *testing.T) {
	t.Parallel()
	d := &llm.Demo{Provider: "OpenAI GPT"}
	req := demoRequest("How do I write a haiku about autumn leaves?")
	a, ua := collect(t, d, req)
	b, ub := collect(t, d, req)
	if !slices.Equal(a, b) || ua != ub {
		t.Error("two runs of one request differ")
	}
	if len(a) < 5 {
		t.Errorf("%d chunks, want several", len(a))
	}
	whole := strings.Join(a, "")
	if whole != llm.DemoReply("OpenAI GPT", req) {
		t.Error("the chunks do not add up to the reply")
	}
	for _, want := range []string{"Local demo model", "OpenAI GPT", "gpt-4o-mini", "no API key is configured", "haiku about autumn leaves", "message 2 of this conversation"} {
		if !strings.Contains(whole, want) {
			t.Errorf("reply lacks %q:\n%s", want, whole)
		}
	}
	if ua.InputTokens <= 0 || ua.OutputTokens <= 0 {
		t.Errorf("usage = %+v, want both counts", ua)
	}
	// Another message, another reply.
	if c, _ := collect(t, d, demoRequest("Something else entirely")); slices.Equal(c, a) {
		t.Error("the reply does not depend on the message")
	}
}

// The webapp's summariser prompt (llm-chat/summary.ts): "Summarize the
// following in at most 35 words:\n\n<first 12000 characters>".
func summaryPrompt(text string) string {
	return "Summarize the following in at most 35 words:\n\n" + text
}

// The demo model answers the summariser like a summary: labelled demo, the
// text's first whole sentences within 35 words, the label included, never
// the instruction.
func TestDemoSummary(t *testing.T) {
	t.Parallel()
	text := "Our team shipped the new billing page on Monday. Customers can now download invoices as PDF. " +
		"Refunds are processed within three days, and support answers within an hour during business days. " +
		"Next quarter we plan to add team accounts."
	chunks, usage := collect(t, &llm.Demo{Provider: "Google Gemini"}, llm.Request{Messages: []llm.Message{{Role: "user", Content: summaryPrompt(text)}}})
	got := strings.Join(chunks, "")
	// Three sentences (31 words) fit with the label; the fourth would not.
	want := "(demo summary) Our team shipped the new billing page on Monday. Customers can now download invoices as PDF. " +
		"Refunds are processed within three days, and support answers within an hour during business days."
	if got != want {
		t.Errorf("summary = %q\nwant      %q", got, want)
	}
	for _, never := range []string{"Summarize", "35 words", "Local demo"} {
		if strings.Contains(got, never) {
			t.Errorf("summary %q repeats %q", got, never)
		}
	}
	if u := llm.EstimateUsage([]llm.Message{{Role: "user", Content: summaryPrompt(text)}}, got); usage != u {
		t.Errorf("usage = %+v, want the estimate %+v", usage, u)
	}
}

func TestDemoSummaryShapes(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 60) + "end."
	tests := []struct {
		name, text, want string
	}{
		{"short text whole", "Just one line without a stop", "(demo summary) Just one line without a stop"},
		{"a first sentence over the limit is cut", long, "(demo summary) " + strings.TrimSpace(strings.Repeat("word ", 33)) + "…"},
		{"markdown and code left out", "# Release notes\n\n- **Faster** search.\n- `Dark` mode!\n\n```go\nfmt.Println(1)\n```\n1. Done.",
			"(demo summary) Release notes Faster search. Dark mode! Done."},
		{"only code", "```\nSELECT 1;\n```", "(demo summary) SELECT 1;"},
		{"nothing", "   ", "(demo summary) Nothing to summarise."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := llm.DemoReply("x", llm.Request{Messages: []llm.Message{{Role: "user", Content: summaryPrompt(tt.text)}}})
			if got != tt.want {
				t.Errorf("summary = %q\nwant      %q", got, tt.want)
			}
			if n := len(strings.Fields(got)); n > 35 {
				t.Errorf("%d words, want at most 35", n)
			}
		})
	}
	// Another word limit in the prompt is honoured; British spelling too.
	got := llm.DemoReply("x", llm.Request{Messages: []llm.Message{{Role: "user", Content: "Summarise this in at most 10 words: " + long}}})
	if n := len(strings.Fields(got)); n != 10 || !strings.HasPrefix(got, llm.DemoSummaryLabel) {
		t.Errorf("summary = %q (%d words), want 10 words", got, n)
	}
	// An ordinary message that mentions summaries gets the ordinary reply.
	if got := llm.DemoReply("x", llm.Request{Messages: []llm.Message{{Role: "user", Content: "Summarize quantum physics"}}}); !strings.Contains(got, "Local demo model") {
		t.Errorf("reply = %q", got)
	}
}

func TestEstimateUsage(t *testing.T) {
	t.Parallel()
	msgs := []llm.Message{{Role: "system", Content: "abc"}, {Role: "user", Content: "défg"}} // 7 characters
	if got := llm.EstimateUsage(msgs, "12345"); got != (llm.Usage{InputTokens: 2, OutputTokens: 2}) {
		t.Errorf("estimate = %+v, want ceil(7/4)=2 in, ceil(5/4)=2 out", got)
	}
	if got := (llm.Usage{InputTokens: 100}).Complete(msgs, "12345"); got != (llm.Usage{InputTokens: 100, OutputTokens: 2}) {
		t.Errorf("completed = %+v: a reported count stays, a missing one is estimated", got)
	}
	if got := (llm.Usage{}).Complete(nil, ""); got != (llm.Usage{}) {
		t.Errorf("nothing = %+v", got)
	}
}

func TestDemoHonoursCancel(t *testing.T) {
	t.Parallel()
	d := &llm.Demo{Provider: "Meta Llama", Delay: 50 * time.Millisecond}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	_, err := d.Stream(ctx, demoRequest("hi"), llm.TextOnly(func(string) error {
		n++
		if n == 1 {
			cancel()
		}
		return nil
	}))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if n != 1 {
		t.Errorf("%d chunks after the cancel, want none", n-1)
	}
}

func TestDemoStopsWhenEmitFails(t *testing.T) {
	t.Parallel()
	gone := errors.New("client gone")
	n := 0
	_, err := (&llm.Demo{Provider: "x"}).Stream(context.Background(), demoRequest("hi"), llm.TextOnly(func(string) error {
		n++
		return gone
	}))
	if !errors.Is(err, gone) || n != 1 {
		t.Errorf("err = %v after %d emits, want the emit error after 1", err, n)
	}
}

func TestDemoPacesItsChunks(t *testing.T) {
	t.Parallel()
	const delay = 3 * time.Millisecond
	var last time.Time
	n := 0
	_, err := (&llm.Demo{Provider: "x", Delay: delay}).Stream(context.Background(), demoRequest("a longer question for several chunks"), llm.TextOnly(func(string) error {
		// Each chunk comes at least Delay after the one before went out.
		if n > 0 && time.Since(last) < delay {
			t.Errorf("chunk %d came %v after the one before, want at least %v", n, time.Since(last), delay)
		}
		n++
		last = time.Now()
		return nil
	}))
	if err != nil || n < 3 {
		t.Fatalf("err %v after %d chunks, want several", err, n)
	}
}
