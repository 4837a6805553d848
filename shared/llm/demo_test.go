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
	u, err := d.Stream(context.Background(), req, func(s string) error {
		chunks = append(chunks, s)
		return nil
	})
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

func TestDemoSummary(t *testing.T) {
	t.Parallel()
	chunks, _ := collect(t, &llm.Demo{Provider: "Google Gemini"}, llm.Request{Messages: []llm.Message{{Role: "user", Content: "Summarize this text in at most 35 words: the quick brown fox"}}})
	if got := strings.Join(chunks, ""); !strings.HasPrefix(got, "Local demo summary: ") {
		t.Errorf("summary = %q", got)
	}
}

func TestDemoHonoursCancel(t *testing.T) {
	t.Parallel()
	d := &llm.Demo{Provider: "Meta Llama", Delay: 50 * time.Millisecond}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	_, err := d.Stream(ctx, demoRequest("hi"), func(string) error {
		n++
		if n == 1 {
			cancel()
		}
		return nil
	})
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
	_, err := (&llm.Demo{Provider: "x"}).Stream(context.Background(), demoRequest("hi"), func(string) error {
		n++
		return gone
	})
	if !errors.Is(err, gone) || n != 1 {
		t.Errorf("err = %v after %d emits, want the emit error after 1", err, n)
	}
}
