package llm_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"aiwork/shared/llm"
)

var demoTools = []llm.Tool{
	{Name: "everything__echo", InputSchema: json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`)},
	{Name: "everything__get-sum", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`)},
	{Name: "everything__get-sum-all", InputSchema: json.RawMessage(`{"type":"object","properties":{"values":{"type":"array"}}}`)},
	{Name: "everything__trigger-long-running-operation", InputSchema: json.RawMessage(`{"type":"object","properties":{"duration":{"type":"number","default":10},"steps":{"type":"integer","default":5}}}`)},
	{Name: "other__keep", InputSchema: json.RawMessage(`{"type":"object","properties":{"label":{"type":"string"},"schema":{"type":"object"}},"required":["schema"]}`)},
	{Name: "other__pick", InputSchema: json.RawMessage(`{"type":"object","properties":{"colour":{"type":"string","enum":["red","green"]},"loud":{"type":"boolean"}},"required":["colour","loud"]}`)},
}

func TestDemoCallsTheToolTheMessageNames(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		message, tool, args string
	}{
		{"use echo to say hello", "everything__echo", `{"message":"hello"}`},
		{"Please use get-sum with 2 and 3.", "everything__get-sum", `{"a":2,"b":3}`},
		{"use trigger-long-running-operation for 2 seconds", "everything__trigger-long-running-operation", `{"duration":2,"steps":5}`},
		{"use pick, the green one, loud: true", "other__pick", `{"colour":"green","loud":true}`},
		{"use everything__echo saying hi there", "everything__echo", `{"message":"hi there"}`},
		// An object written in the message fills the object property; its
		// text and numbers fill nothing else.
		{`use keep with {"type": "object", "minProperties": 2} as mine`, "other__keep", `{"label":"as mine","schema":{"minProperties":2,"type":"object"}}`},
		{`use keep with {not json} and {"$defs": {"a": {"const": 1}}}`, "other__keep", `{"label":"{not json} and","schema":{"$defs":{"a":{"const":1}}}}`},
		// Written arguments naming only the tool's properties are taken as they stand.
		{`use pick with {"colour": "plaid", "loud": false}`, "other__pick", `{"colour":"plaid","loud":false}`},
		{`use get-sum with {"a": 1, "c": 2} and 5`, "everything__get-sum", `{"a":5}`},
	} {
		req := llm.Request{Model: "m", Tools: demoTools, Messages: []llm.Message{{Role: "user", Content: tt.message}}}
		call, ok := llm.DemoToolCall(req)
		if !ok || call.Name != tt.tool || call.Arguments != tt.args || call.ID == "" {
			t.Errorf("%q: call = %+v (%v), want %s %s", tt.message, call, ok, tt.tool, tt.args)
		}
	}
	for _, message := range []string{"use echoes", "tell me about get-sum", "hello"} {
		req := llm.Request{Model: "m", Tools: demoTools, Messages: []llm.Message{{Role: "user", Content: message}}}
		if call, ok := llm.DemoToolCall(req); ok {
			t.Errorf("%q: called %+v, want no call", message, call)
		}
	}
}

func TestDemoToolLoopCallsThenAnswersFromTheResult(t *testing.T) {
	t.Parallel()
	d := &llm.Demo{Provider: "OpenAI GPT"}
	req := llm.Request{Model: "gpt-4o-mini", Tools: demoTools, Messages: []llm.Message{{Role: "user", Content: "use get-sum with 2 and 3"}}}
	var events []llm.Event
	emit := func(e llm.Event) error { events = append(events, e); return nil }
	if _, err := d.Stream(context.Background(), req, emit); err != nil {
		t.Fatal(err)
	}
	n := len(events)
	if n < 3 || events[n-2].ToolCall == nil || events[n-1].Stop != llm.StopToolCalls || !strings.Contains(events[0].Text, "Local demo model") {
		t.Fatalf("events = %+v, want text, the call, then stop for tool calls", events)
	}
	call := *events[n-2].ToolCall

	// The results come back: the demo answers from them and calls nothing.
	req.Messages = append(req.Messages,
		llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{call}},
		llm.Message{Role: "tool", ToolResults: []llm.ToolResult{{CallID: call.ID, Name: call.Name, Content: "The sum of 2 and 3 is 5."}}})
	events = nil
	if _, err := d.Stream(context.Background(), req, emit); err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for _, e := range events {
		if e.ToolCall != nil {
			t.Fatalf("called a tool again: %+v", e.ToolCall)
		}
		text.WriteString(e.Text)
	}
	if got := text.String(); !strings.Contains(got, "The sum of 2 and 3 is 5.") || !strings.Contains(got, "`get-sum`") {
		t.Errorf("answer = %q, want it to quote the result", got)
	}
	if events[len(events)-1].Stop != llm.StopEnd {
		t.Errorf("last event = %+v, want stop end", events[len(events)-1])
	}

	// A failed or refused call is said so.
	req.Messages[len(req.Messages)-1].ToolResults[0] = llm.ToolResult{CallID: call.ID, Name: call.Name, Content: "The user denied this tool call.", IsError: true}
	if got := llm.DemoReply("X", req); !strings.Contains(got, "did not give a result") || !strings.Contains(got, "denied") {
		t.Errorf("answer to a refusal = %q", got)
	}
}

// "use <server>__<tool>" calls that tool even when it was not offered (a
// real model may call a tool it was not given; the chat refuses it).
func TestDemoCallsAnUnofferedToolNamedInFull(t *testing.T) {
	t.Parallel()
	req := llm.Request{Model: "m", Tools: demoTools, Messages: []llm.Message{{Role: "user", Content: "please use local-everything__get-env now"}}}
	call, ok := llm.DemoToolCall(req)
	if !ok || call.Name != "local-everything__get-env" || call.Arguments != "{}" {
		t.Fatalf("call = %+v (%v), want local-everything__get-env {}", call, ok)
	}
	req.Tools = nil
	if call, ok := llm.DemoToolCall(req); ok {
		t.Fatalf("no tools offered: called %+v", call)
	}
}
