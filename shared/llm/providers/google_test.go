package providers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"aiwork/shared/llm"
	"aiwork/shared/llm/providers"
)

// The Gemini API's streamGenerateContent with alt=sse: SSE "data:
// {GenerateContentResponse}" events, each with the candidate's new parts and
// the usage so far, the last one with its finishReason; the key in the
// x-goog-api-key header; errors as {"error":{"code","message","status"}},
// also inside the stream.
var googleWire = wire{
	label:       providers.LabelGoogle,
	model:       "gemini-1.5-flash",
	contentType: "text/event-stream",
	newProvider: func(t *testing.T, url string) llm.Provider {
		return providers.NewGoogle(providers.Options{APIKey: testKey, BaseURL: url})
	},
	argsAsObject: true,
	open:         func() [][]byte { return nil },
	delta: func(text string) []byte {
		return geminiChunk(geminiText(text), "", llm.Usage{InputTokens: 31, OutputTokens: 1})
	},
	close: func(u llm.Usage) [][]byte {
		return [][]byte{geminiChunk(geminiText(""), "STOP", u)}
	},
	script: geminiScript,
	fail: func(message string) []byte {
		return geminiEvent(fmt.Sprintf(`{"error":{"code":503,"message":%s,"status":"UNAVAILABLE"}}`, mustJSON(message)))
	},
	midStatus: 503,
	httpError: func(w http.ResponseWriter, status int, message string) {
		st := "UNAUTHENTICATED"
		if status == http.StatusTooManyRequests {
			st = "RESOURCE_EXHAUSTED"
		}
		w.Header().Set("Content-Type", "application/json; charset=UTF-8")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"error":{"code":%d,"message":%s,"status":%q}}`, status, mustJSON(message), st)
	},
	checkRequest: func(t *testing.T, r *http.Request, body []byte) {
		if got, want := r.URL.Path, "/v1beta/models/gemini-1.5-flash:streamGenerateContent"; got != want {
			t.Errorf("path = %q, want %q", got, want)
		}
		if got := r.URL.Query().Get("alt"); got != "sse" {
			t.Errorf("alt = %q, want sse", got)
		}
		if got := r.Header.Get("X-Goog-Api-Key"); got != testKey {
			t.Errorf("x-goog-api-key = %q, want the key", got)
		}
		type content struct {
			Role  string `json:"role"`
			Parts []struct {
				Text string `json:"text"`
			} `json:"parts"`
		}
		var req struct {
			Contents          []content `json:"contents"`
			SystemInstruction content   `json:"systemInstruction"`
			GenerationConfig  struct {
				MaxOutputTokens int `json:"maxOutputTokens"`
			} `json:"generationConfig"`
		}
		decodeBody(t, body, &req)
		if req.GenerationConfig.MaxOutputTokens != 321 {
			t.Errorf("request = %s, want maxOutputTokens 321", body)
		}
		if s := req.SystemInstruction.Parts; len(s) != 1 || s[0].Text != "Answer briefly." {
			t.Errorf("systemInstruction = %+v, want the system message", req.SystemInstruction)
		}
		var got []llm.Message
		for _, c := range req.Contents {
			if len(c.Parts) != 1 {
				t.Fatalf("parts = %+v, want one text part", c.Parts)
			}
			role := map[string]string{"user": "user", "model": "assistant"}[c.Role]
			got = append(got, llm.Message{Role: role, Content: c.Parts[0].Text})
		}
		wantMessages(t, got, testConversation[1:])
	},
	// Numbers compare as float64: the SDK sends the request through a
	// map[string]any, so a number beyond float64's precision (the schema's
	// maxLength) is rounded on the way.
	checkToolRequest: func(t *testing.T, body []byte) {
		wantJSONFieldFloat(t, body, "systemInstruction", `{"parts":[{"text":"Use the tools."}],"role":"user"}`)
		wantJSONFieldFloat(t, body, "tools", `[{"functionDeclarations":[
			{"name":"get_weather","description":"The weather in a city.",
				"parametersJsonSchema":{"type":"object","properties":{"city":{"type":"string","maxLength":12345678901234567890}},"required":["city"]}},
			{"name":"list_cities","parametersJsonSchema":{"type":"object"}}]}]`)
		wantJSONFieldFloat(t, body, "contents", `[
			{"role":"user","parts":[{"text":"Weather in Paris and Rome?"}]},
			{"role":"model","parts":[
				{"text":"Let me check."},
				{"functionCall":{"id":"call_1","name":"get_weather","args":{"city":"Paris"}}},
				{"functionCall":{"id":"call_2","name":"get_weather","args":{"city":"Rome","days":1.50}}}]},
			{"role":"user","parts":[
				{"functionResponse":{"id":"call_1","name":"get_weather","response":{"output":"18°C, sunny"}}},
				{"functionResponse":{"id":"call_2","name":"get_weather","response":{"error":"the weather service is down"}}}]},
			{"role":"model","parts":[{"functionCall":{"id":"call_3","name":"list_cities"}}]},
			{"role":"user","parts":[
				{"functionResponse":{"id":"call_3","name":"list_cities","response":{"output":"[\"Paris\",\"Rome\"]"}}},
				{"text":"And Berlin?"}]}]`)
	},
}

func geminiText(text string) string { return fmt.Sprintf(`{"text":%s}`, mustJSON(text)) }

// geminiChunk is a streamGenerateContent event: the candidate's parts, its
// finish reason ("" for none yet) and the usage so far.
func geminiChunk(parts, finish string, u llm.Usage) []byte {
	reason := ""
	if finish != "" {
		reason = fmt.Sprintf(`,"finishReason":%q`, finish)
	}
	return geminiEvent(fmt.Sprintf(`{"candidates": [{"content": {"parts": [%s],"role": "model"}%s,"index": 0}],"usageMetadata": {"promptTokenCount": %d,"candidatesTokenCount": %d,"totalTokenCount": %d},"modelVersion": "gemini-1.5-flash","responseId": "r1"}`,
		parts, reason, u.InputTokens, u.OutputTokens, u.InputTokens+u.OutputTokens))
}

// geminiEvent is an SSE event as Gemini sends it, with CRLF line ends.
func geminiEvent(data string) []byte { return []byte("data: " + data + "\r\n\r\n") }

// geminiScript streams a reply as Gemini does: each text delta an event,
// calls whole (their arguments an object), those in a row in one event, and
// "STOP" at the end of every turn, tool calls or not. A broken reply ends
// before its last call.
func geminiScript(r scripted) [][]byte {
	var frames [][]byte
	var calls []string
	usage := llm.Usage{InputTokens: 50, OutputTokens: 20}
	flush := func() {
		if len(calls) > 0 {
			frames = append(frames, geminiChunk(strings.Join(calls, ","), "", usage))
			calls = nil
		}
	}
	for i, p := range r.parts {
		if p.call == nil {
			flush()
			for _, d := range p.texts {
				frames = append(frames, geminiChunk(geminiText(d), "", usage))
			}
			continue
		}
		if r.broken && i == len(r.parts)-1 {
			break
		}
		args := strings.Join(p.args, "")
		if args == "" {
			args = "{}"
		}
		calls = append(calls, fmt.Sprintf(`{"functionCall": {"name": %s,"args": %s,"id": %s}}`, mustJSON(p.call.Name), args, mustJSON(p.call.ID)))
	}
	flush()
	if r.broken {
		return frames
	}
	return append(frames, geminiChunk(geminiText(""), "STOP", usage))
}

func TestGoogle(t *testing.T) {
	t.Parallel()
	runWire(t, googleWire)
}

// Gemini 3 attaches a thought signature to a function call and refuses the
// next turn unless the call comes back with it: the adapter keeps it with
// the call and sends it back. A call Gemini sent without an id is given one
// (the tool loop pairs results by it) that does not go back to Gemini.
func TestGoogleThoughtSignatureRoundTrip(t *testing.T) {
	t.Parallel()
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		play(w, googleWire, [][]byte{geminiChunk(`{"functionCall": {"name": "get_weather","args": {"city": "Paris"},"id": "call_1"},"thoughtSignature": "c2lnLTE="},`+
			`{"functionCall": {"name": "get_time","args": {"zone": "Europe/Paris"}}}`, "STOP", llm.Usage{InputTokens: 5, OutputTokens: 2})})
	})
	p := googleWire.newProvider(t, up.URL)

	var calls []llm.ToolCall
	_, err := p.Stream(context.Background(), llm.Request{Model: "gemini-3-pro", Messages: []llm.Message{{Role: "user", Content: "Weather?"}}},
		func(e llm.Event) error {
			if e.ToolCall != nil {
				calls = append(calls, *e.ToolCall)
			}
			return nil
		})
	if err != nil || len(calls) != 2 || calls[0].Signature != "c2lnLTE=" || calls[0].ID != "call_1" {
		t.Fatalf("calls %+v, %v: want call_1 with its signature, and get_time", calls, err)
	}
	if calls[1].ID == "" || calls[1].ID == calls[0].ID || calls[1].Signature != "" {
		t.Errorf("the call without an id: %+v, want an id of its own", calls[1])
	}
	next := []llm.Message{{Role: "user", Content: "Weather?"}, {Role: "assistant", ToolCalls: calls},
		{Role: "tool", ToolResults: []llm.ToolResult{
			{CallID: calls[0].ID, Name: "get_weather", Content: "sunny"},
			{CallID: calls[1].ID, Name: "get_time", Content: "noon"},
		}}}
	if _, err := p.Stream(context.Background(), llm.Request{Model: "gemini-3-pro", Messages: next}, func(llm.Event) error { return nil }); err != nil {
		t.Fatal(err)
	}
	up.mu.Lock()
	defer up.mu.Unlock()
	wantJSONFieldFloat(t, up.body[1], "contents", `[
		{"role":"user","parts":[{"text":"Weather?"}]},
		{"role":"model","parts":[
			{"functionCall":{"id":"call_1","name":"get_weather","args":{"city":"Paris"}},"thoughtSignature":"c2lnLTE="},
			{"functionCall":{"name":"get_time","args":{"zone":"Europe/Paris"}}}]},
		{"role":"user","parts":[
			{"functionResponse":{"id":"call_1","name":"get_weather","response":{"output":"sunny"}}},
			{"functionResponse":{"name":"get_time","response":{"output":"noon"}}}]}]`)
}

// A prompt Gemini refuses ends the reply with no candidate but its
// feedback: a whole reply that stopped, not a cut one.
func TestGooglePromptBlocked(t *testing.T) {
	t.Parallel()
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		play(w, googleWire, [][]byte{geminiEvent(`{"promptFeedback": {"blockReason": "SAFETY"},"usageMetadata": {"promptTokenCount": 9,"totalTokenCount": 9},"modelVersion": "gemini-1.5-flash"}`)})
	})
	var got []llm.Event
	u, err := googleWire.newProvider(t, up.URL).Stream(t.Context(), request(googleWire.model), func(e llm.Event) error {
		got = append(got, e)
		return nil
	})
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	wantEvents(t, got, []llm.Event{{Stop: llm.StopOther}})
	if u.InputTokens != 9 {
		t.Errorf("usage = %+v, want the prompt's 9 tokens", u)
	}
}

// wantJSONFieldFloat is wantJSONField with numbers compared as float64.
func wantJSONFieldFloat(t *testing.T, body []byte, field, want string) {
	t.Helper()
	var fields map[string]json.RawMessage
	decodeBody(t, body, &fields)
	var got, w any
	if err := json.Unmarshal(fields[field], &got); err != nil {
		t.Fatalf("%s: %v in %s", field, err, body)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want %s: %v", field, err)
	}
	if !reflect.DeepEqual(got, w) {
		t.Errorf("%s:\n got %s\nwant %s", field, fields[field], compact(want))
	}
}
