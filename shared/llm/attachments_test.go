package llm_test

import (
	"strings"
	"testing"

	"aiwork/shared/llm"
)

// TestAttachmentsRoundTrip: a turn with attachments splits back into the
// user's text and what was attached, URIs with quotes and ampersands kept.
func TestAttachmentsRoundTrip(t *testing.T) {
	as := []llm.Attachment{
		{URI: `demo://doc?a=1&b="2"`, Name: "doc.md", MIMEType: "text/markdown", Size: 11, Text: "# Title\nbody"},
		{URI: "demo://img.png", Name: "img.png", MIMEType: "image/png", Size: 2048, Binary: true},
	}
	content := llm.WithAttachments("What is in these?", as)
	text, got := llm.SplitAttachments(content)
	if text != "What is in these?" || len(got) != 2 {
		t.Fatalf("split = %q, %+v", text, got)
	}
	if got[0].URI != as[0].URI || got[0].MIMEType != "text/markdown" || got[0].Body != "# Title\nbody" || got[0].Size != 11 {
		t.Errorf("text attachment = %+v", got[0])
	}
	if got[1].URI != "demo://img.png" || !strings.Contains(got[1].Body, "image/png file of 2.0 KB") {
		t.Errorf("binary attachment = %+v", got[1])
	}
	if text, got := llm.SplitAttachments("plain"); text != "plain" || got != nil {
		t.Errorf("no attachments = %q, %+v", text, got)
	}
}

// TestDemoQuotesAttachments: the demo model says which resources it got
// and quotes their start, and still answers the user's own text.
func TestDemoQuotesAttachments(t *testing.T) {
	content := llm.WithAttachments("Summarise nothing, just hello", []llm.Attachment{
		{URI: "demo://resource/static/document/architecture.md", Name: "architecture.md", MIMEType: "text/markdown", Size: 40,
			Text: "# Everything Server – Architecture\n\nThis document summarizes the current layout."},
		{URI: "demo://logo.png", Name: "logo.png", MIMEType: "image/png", Size: 3 << 20, Binary: true},
	})
	reply := llm.DemoReply("OpenAI", llm.Request{Model: "gpt-4o-mini", Messages: []llm.Message{{Role: "user", Content: content}}})
	for _, want := range []string{
		"I received the resource demo://resource/static/document/architecture.md: # Everything Server – Architecture This document summarizes the current layout.…",
		"I received the resource demo://logo.png: image/png, 3.0 MB…",
		"> Summarise nothing, just hello",
	} {
		if !strings.Contains(reply, want) {
			t.Errorf("demo reply lacks %q:\n%s", want, reply)
		}
	}
}
