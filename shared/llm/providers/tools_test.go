package providers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"aiwork/shared/llm"
)

// Tool calls on each provider's wire: the server plays a recorded stream of
// a scripted reply, and the test checks the events Stream emits.

// scripted is a reply as a provider streams it.
type scripted struct {
	parts []part
	stop  string // the turn's reason (llm.Stop*), in the provider's words on the wire
	// broken: the stream ends inside its last part, a call whose end (and
	// the turn's) never comes; the test sends an error or cuts it there.
	broken bool
}

// part is a block of the reply: text, or a tool call.
type part struct {
	texts []string      // a text's deltas
	call  *llm.ToolCall // or a call's id and name,
	args  []string      // and its arguments as the deltas send them
}

func text(deltas ...string) part { return part{texts: deltas} }

func call(id, name string, args ...string) part {
	return part{call: &llm.ToolCall{ID: id, Name: name}, args: args}
}

// events are what Stream should emit for the reply: each part, then the stop.
func (r scripted) events() []llm.Event {
	var out []llm.Event
	for _, p := range r.parts {
		for _, d := range p.texts {
			out = append(out, llm.Event{Text: d})
		}
		if p.call != nil {
			args := strings.Join(p.args, "")
			if args == "" {
				args = "{}"
			}
			out = append(out, llm.Event{ToolCall: &llm.ToolCall{ID: p.call.ID, Name: p.call.Name, Arguments: args}})
		}
	}
	return append(out, llm.Event{Stop: r.stop})
}

// pieces cuts s into n pieces of about equal length (the last one longer).
func pieces(s string, n int) []string {
	var out []string
	size := len(s) / n
	for range n - 1 {
		out = append(out, s[:size])
		s = s[size:]
	}
	return append(out, s)
}

const manyArgs = `{"city":"Paris","units":"metric","days":[1,2,3],"note":"a \"quoted\" word, é and ü"}`

var toolReplies = []struct {
	name  string
	reply scripted
}{
	{"text only", scripted{parts: []part{text("Bon", "jour", " !")}, stop: llm.StopEnd}},
	{"one call", scripted{parts: []part{call("call_1", "get_weather", `{"city":`, `"Paris"}`)}, stop: llm.StopToolCalls}},
	{"two parallel calls", scripted{parts: []part{
		call("call_1", "get_weather", `{"city":"Paris"}`),
		call("call_2", "get_time", `{"zone":"Europe/Rome"}`),
	}, stop: llm.StopToolCalls}},
	{"arguments in many pieces", scripted{parts: []part{call("call_1", "get_weather", pieces(manyArgs, 12)...)}, stop: llm.StopToolCalls}},
	{"no arguments", scripted{parts: []part{call("call_1", "list_cities")}, stop: llm.StopToolCalls}},
	{"text then call", scripted{parts: []part{text("Let me ", "check."), call("call_1", "get_weather", `{"city":"Paris"}`)}, stop: llm.StopToolCalls}},
	{"call then text", scripted{parts: []part{call("call_1", "get_weather", `{"city":"Paris"}`), text("Checking", " now.")}, stop: llm.StopToolCalls}},
}

func TestToolCalls(t *testing.T) {
	t.Parallel()
	for _, wf := range []wire{openaiWire, googleWire, anthropicWire, bedrockWire} {
		t.Run(wf.label, func(t *testing.T) {
			t.Parallel()
			for _, tc := range toolReplies {
				t.Run(tc.name, func(t *testing.T) {
					t.Parallel()
					up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) { play(w, wf, wf.script(tc.reply)) })
					got, err := collect(t, wf, up.URL)
					if err != nil {
						t.Fatalf("Stream: %v", err)
					}
					wantEvents(t, got, tc.reply.events())
				})
			}
			t.Run("error mid-call", func(t *testing.T) {
				t.Parallel()
				reply := scripted{parts: []part{text("Let me check."), call("call_1", "get_weather", `{"ci`, `ty":"Par`)}, broken: true}
				up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
					play(w, wf, append(wf.script(reply), wf.fail("The model is overloaded right now.")))
				})
				got, err := collect(t, wf, up.URL)
				wantUpstream(t, err, wf.label, wf.midStatus)
				wantEvents(t, got, []llm.Event{{Text: "Let me check."}})
			})
			t.Run("stream cut mid-call", func(t *testing.T) {
				t.Parallel()
				reply := scripted{parts: []part{text("Let me check."), call("call_1", "get_weather", `{"ci`, `ty":"Par`)}, broken: true}
				up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
					play(w, wf, wf.script(reply))
					panic(http.ErrAbortHandler) // the connection drops: no end of the chunked body
				})
				got, err := collect(t, wf, up.URL)
				if kind := errorKind(err); kind != kindCut {
					t.Errorf("err = %v, shown as %q; want a cut stream", err, kind)
				}
				wantEvents(t, got, []llm.Event{{Text: "Let me check."}})
			})
		})
	}
}

// The error of emit ends the stream and is Stream's.
func TestToolCallEmitError(t *testing.T) {
	t.Parallel()
	for _, wf := range []wire{openaiWire, googleWire, anthropicWire, bedrockWire} {
		t.Run(wf.label, func(t *testing.T) {
			t.Parallel()
			reply := scripted{parts: []part{call("call_1", "a", "{}"), call("call_2", "b", "{}")}, stop: llm.StopToolCalls}
			up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) { play(w, wf, wf.script(reply)) })
			stop := errors.New("the client went away")
			n := 0
			_, err := wf.newProvider(t, up.URL).Stream(context.Background(), toolRequest(wf.model), func(e llm.Event) error {
				n++
				return stop
			})
			if !errors.Is(err, stop) {
				t.Errorf("err = %v, want emit's", err)
			}
			if n != 1 {
				t.Errorf("emit called %d times, want once", n)
			}
		})
	}
}

// The request offers the tools and carries a conversation with two tool
// rounds in each provider's shapes.
func TestToolRequest(t *testing.T) {
	t.Parallel()
	for _, wf := range []wire{openaiWire, googleWire, anthropicWire, bedrockWire} {
		t.Run(wf.label, func(t *testing.T) {
			t.Parallel()
			up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
				play(w, wf, wf.script(scripted{parts: []part{text("Ok.")}, stop: llm.StopEnd}))
			})
			if _, err := collect(t, wf, up.URL); err != nil {
				t.Fatalf("Stream: %v", err)
			}
			_, body := up.first(t)
			wf.checkToolRequest(t, body)
		})
	}
}

var testTools = []llm.Tool{
	{Name: "get_weather", Description: "The weather in a city.", InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string","maxLength":12345678901234567890}},"required":["city"]}`)},
	{Name: "list_cities", InputSchema: json.RawMessage(`{"type":"object"}`)},
}

// toolConversation has two tool rounds (the second without text before
// its call, one result an error) and a user's turn right after a tool turn.
var toolConversation = []llm.Message{
	{Role: "system", Content: "Use the tools."},
	{Role: "user", Content: "Weather in Paris and Rome?"},
	{Role: "assistant", Content: "Let me check.", ToolCalls: []llm.ToolCall{
		{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Paris"}`},
		{ID: "call_2", Name: "get_weather", Arguments: `{"city":"Rome","days":1.50}`},
	}},
	{Role: "tool", ToolResults: []llm.ToolResult{
		{CallID: "call_1", Name: "get_weather", Content: "18°C, sunny"},
		{CallID: "call_2", Name: "get_weather", Content: "the weather service is down", IsError: true},
	}},
	{Role: "assistant", ToolCalls: []llm.ToolCall{{ID: "call_3", Name: "list_cities", Arguments: `{}`}}},
	{Role: "tool", ToolResults: []llm.ToolResult{{CallID: "call_3", Name: "list_cities", Content: `["Paris","Rome"]`}}},
	{Role: "user", Content: "And Berlin?"},
}

func toolRequest(model string) llm.Request {
	return llm.Request{Model: model, Messages: toolConversation, MaxTokens: 321, Tools: testTools}
}

// play answers with the frames, each flushed.
func play(w http.ResponseWriter, wf wire, frames [][]byte) {
	s := &sender{w: w}
	w.Header().Set("Content-Type", wf.contentType)
	w.WriteHeader(http.StatusOK)
	for _, f := range frames {
		s.frame(f)
	}
}

// collect streams toolRequest, recording the events.
func collect(t *testing.T, wf wire, url string) ([]llm.Event, error) {
	t.Helper()
	var got []llm.Event
	_, err := wf.newProvider(t, url).Stream(context.Background(), toolRequest(wf.model), func(e llm.Event) error {
		got = append(got, e)
		return nil
	})
	return got, err
}

func wantEvents(t *testing.T, got, want []llm.Event) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n got %s\nwant %s", showEvents(got), showEvents(want))
	}
}

func showEvents(es []llm.Event) string {
	var b strings.Builder
	for _, e := range es {
		switch {
		case e.ToolCall != nil:
			b.WriteString("\n  call " + mustJSON(*e.ToolCall))
		case e.Stop != "":
			b.WriteString("\n  stop " + e.Stop)
		default:
			b.WriteString("\n  text " + mustJSON(e.Text))
		}
	}
	return b.String()
}

// wantNoTools: a request without tools has no tools field at all.
func wantNoTools(t *testing.T, body []byte) {
	t.Helper()
	var fields map[string]json.RawMessage
	decodeBody(t, body, &fields)
	for _, name := range []string{"tools", "tool_choice", "toolConfig"} {
		if _, ok := fields[name]; ok {
			t.Errorf("request without tools has %q: %s", name, body)
		}
	}
}

// wantJSONField compares a field of the request body with the JSON want,
// as values (key order and spacing aside).
func wantJSONField(t *testing.T, body []byte, field, want string) {
	t.Helper()
	var fields map[string]json.RawMessage
	decodeBody(t, body, &fields)
	got, err := jsonValue(fields[field])
	if err != nil {
		t.Fatalf("%s: %v in %s", field, err, body)
	}
	w, err := jsonValue([]byte(want))
	if err != nil {
		t.Fatalf("want %s: %v", field, err)
	}
	if !reflect.DeepEqual(got, w) {
		t.Errorf("%s:\n got %s\nwant %s", field, fields[field], compact(want))
	}
}

// jsonValue decodes with numbers as their text, so they compare exactly.
func jsonValue(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

func compact(s string) string {
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return s
	}
	return mustJSON(v)
}
