package providers_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"aiwork/shared/llm"
	"aiwork/shared/llm/providers"
)

// Gemini through its OpenAI-compatible endpoint (/v1beta/openai/): the same
// chat.completion.chunk stream as OpenAI's, the key as a Bearer token,
// max_tokens for the reply's length, errors in a list as Google sends them.
var googleWire = wire{
	label:       providers.LabelGoogle,
	model:       "gemini-1.5-flash",
	contentType: "text/event-stream",
	newProvider: func(t *testing.T, url string) llm.Provider {
		return providers.NewGoogle(providers.Options{APIKey: testKey, BaseURL: url + "/v1beta/openai/"})
	},
	open:   func() [][]byte { return nil },
	delta:  geminiText,
	close:  geminiEnd,
	script: geminiScript,
	fail: func(message string) []byte {
		return sseData(fmt.Sprintf(`{"error":{"code":503,"message":%s,"status":"UNAVAILABLE"}}`, mustJSON(message)))
	},
	midStatus: 503,
	httpError: func(w http.ResponseWriter, status int, message string) {
		st := "UNAUTHENTICATED"
		if status == http.StatusTooManyRequests {
			st = "RESOURCE_EXHAUSTED"
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprintf(w, `[{"error":{"code":%d,"message":%s,"status":%q}}]`, status, mustJSON(message), st)
	},
	checkRequest: func(t *testing.T, r *http.Request, body []byte) {
		if got, want := r.URL.Path, "/v1beta/openai/chat/completions"; got != want {
			t.Errorf("path = %q, want %q", got, want)
		}
		if got, want := r.Header.Get("Authorization"), "Bearer "+testKey; got != want {
			t.Errorf("Authorization = %q, want %q", got, want)
		}
		var req struct {
			Model         string `json:"model"`
			Stream        bool   `json:"stream"`
			StreamOptions struct {
				IncludeUsage bool `json:"include_usage"`
			} `json:"stream_options"`
			MaxTokens     int           `json:"max_tokens"`
			MaxCompletion int           `json:"max_completion_tokens"`
			Messages      []llm.Message `json:"messages"`
		}
		decodeBody(t, body, &req)
		if req.Model != "gemini-1.5-flash" || !req.Stream || !req.StreamOptions.IncludeUsage || req.MaxTokens != 321 || req.MaxCompletion != 0 {
			t.Errorf("request = %s, want model gemini-1.5-flash, stream, include_usage, max_tokens 321", body)
		}
		wantMessages(t, req.Messages, testConversation)
	},
	// As OpenAI's, with each tool message naming its tool.
	checkToolRequest: func(t *testing.T, body []byte) {
		wantJSONField(t, body, "tools", openaiTools)
		wantJSONField(t, body, "messages", `[
			{"role":"system","content":"Use the tools."},
			{"role":"user","content":"Weather in Paris and Rome?"},
			{"role":"assistant","content":"Let me check.","tool_calls":[
				{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}},
				{"id":"call_2","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Rome\",\"days\":1.50}"}}]},
			{"role":"tool","tool_call_id":"call_1","name":"get_weather","content":"18°C, sunny"},
			{"role":"tool","tool_call_id":"call_2","name":"get_weather","content":"the weather service is down"},
			{"role":"assistant","tool_calls":[{"id":"call_3","type":"function","function":{"name":"list_cities","arguments":"{}"}}]},
			{"role":"tool","tool_call_id":"call_3","name":"list_cities","content":"[\"Paris\",\"Rome\"]"},
			{"role":"user","content":"And Berlin?"}]`)
	},
}

func geminiText(text string) []byte {
	return geminiChunk(fmt.Sprintf(`{"content":%s,"role":"assistant"}`, mustJSON(text)), "null", "")
}

// geminiEnd closes a stream: "stop" with the usage, [DONE].
func geminiEnd(u llm.Usage) [][]byte {
	usage := fmt.Sprintf(`,"usage":{"completion_tokens":%d,"prompt_tokens":%d,"total_tokens":%d}`, u.OutputTokens, u.InputTokens, u.InputTokens+u.OutputTokens)
	return [][]byte{geminiChunk(`{"content":"","role":"assistant"}`, `"stop"`, usage), []byte("data: [DONE]\n\n")}
}

// geminiScript streams a reply as Gemini's OpenAI-compatible endpoint does:
// tool call pieces without an index (a call's first piece has its id and
// name, the next ones only more of its arguments), and "stop" at the end
// of every turn, tool calls or not.
func geminiScript(r scripted) [][]byte {
	var frames [][]byte
	for _, p := range r.parts {
		for _, d := range p.texts {
			frames = append(frames, geminiText(d))
		}
		if p.call == nil {
			continue
		}
		args := append([]string{""}, p.args...)
		if len(p.args) > 0 {
			args = p.args
		}
		frames = append(frames, geminiChunk(fmt.Sprintf(`{"role":"assistant","tool_calls":[{"function":{"arguments":%s,"name":%s},"id":%s,"type":"function"}]}`,
			mustJSON(args[0]), mustJSON(p.call.Name), mustJSON(p.call.ID)), "null", ""))
		for _, a := range args[1:] {
			frames = append(frames, geminiChunk(fmt.Sprintf(`{"role":"assistant","tool_calls":[{"function":{"arguments":%s},"type":"function"}]}`, mustJSON(a)), "null", ""))
		}
	}
	if r.broken {
		return frames
	}
	return append(frames, geminiEnd(llm.Usage{InputTokens: 50, OutputTokens: 20})...)
}

func TestGoogle(t *testing.T) {
	t.Parallel()
	runWire(t, googleWire)
}

// geminiChunk is a chunk as Gemini's OpenAI-compatible endpoint sends it.
func geminiChunk(delta, finish, usage string) []byte {
	return sseData(fmt.Sprintf(`{"choices":[{"delta":%s,"finish_reason":%s,"index":0}],"created":1760000000,"id":"r1","model":"gemini-1.5-flash","object":"chat.completion.chunk"%s}`, delta, finish, usage))
}

// Gemini 3 attaches a thought signature to each tool call and refuses the
// next turn unless the call comes back with it: the adapter keeps it with
// the call and sends it back in extra_content (an extra field of the SDK's
// param).
func TestGoogleThoughtSignatureRoundTrip(t *testing.T) {
	t.Parallel()
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		play(w, googleWire, append([][]byte{geminiChunk(`{"role":"assistant","tool_calls":[{"extra_content":{"google":{"thought_signature":"c2lnLTE="}},"function":{"arguments":"{\"city\":\"Paris\"}","name":"get_weather"},"id":"call_1","type":"function"}]}`, "null", "")},
			geminiEnd(llm.Usage{InputTokens: 5, OutputTokens: 2})...))
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
	if err != nil || len(calls) != 1 || calls[0].Signature != "c2lnLTE=" {
		t.Fatalf("calls %+v, %v: want one call with its signature", calls, err)
	}
	next := []llm.Message{{Role: "user", Content: "Weather?"}, {Role: "assistant", ToolCalls: calls},
		{Role: "tool", ToolResults: []llm.ToolResult{{CallID: "call_1", Name: "get_weather", Content: "sunny"}}}}
	if _, err := p.Stream(context.Background(), llm.Request{Model: "gemini-3-pro", Messages: next}, func(llm.Event) error { return nil }); err != nil {
		t.Fatal(err)
	}
	up.mu.Lock()
	defer up.mu.Unlock()
	wantJSONField(t, up.body[1], "messages", `[
		{"role":"user","content":"Weather?"},
		{"role":"assistant","tool_calls":[{"id":"call_1","type":"function","extra_content":{"google":{"thought_signature":"c2lnLTE="}},
			"function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},
		{"role":"tool","tool_call_id":"call_1","name":"get_weather","content":"sunny"}]`)
}

// A signature is Gemini's: a conversation that goes on with OpenAI sends
// the call without it (OpenAI's API has no such field).
func TestOpenAIDropsThoughtSignature(t *testing.T) {
	t.Parallel()
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) { play(w, openaiWire, openaiWire.script(bonjour)) })
	msgs := []llm.Message{{Role: "user", Content: "Weather?"},
		{Role: "assistant", ToolCalls: []llm.ToolCall{{ID: "call_1", Name: "get_weather", Arguments: `{}`, Signature: "c2lnLTE="}}},
		{Role: "tool", ToolResults: []llm.ToolResult{{CallID: "call_1", Name: "get_weather", Content: "sunny"}}}}
	if _, err := openaiWire.newProvider(t, up.URL).Stream(t.Context(), llm.Request{Model: "gpt-4o", Messages: msgs}, func(llm.Event) error { return nil }); err != nil {
		t.Fatal(err)
	}
	_, body := up.first(t)
	wantJSONField(t, body, "messages", `[
		{"role":"user","content":"Weather?"},
		{"role":"assistant","tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{}"}}]},
		{"role":"tool","tool_call_id":"call_1","content":"sunny"}]`)
}

// Without Options.BaseURL the adapter calls Gemini's OpenAI-compatible API,
// and its errors say Gemini's.
func TestGoogleDefaultBaseURL(t *testing.T) {
	t.Parallel()
	var got string
	refuse := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		got = r.URL.String()
		return &http.Response{StatusCode: http.StatusUnauthorized, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(`[{"error":{"code":401,"message":"API key not valid.","status":"UNAUTHENTICATED"}}]`)), Request: r}, nil
	})
	p := providers.NewGoogle(providers.Options{APIKey: testKey, HTTPClient: &http.Client{Transport: refuse}})
	_, err := p.Stream(t.Context(), request(googleWire.model), func(llm.Event) error { return nil })
	if want := providers.GeminiOpenAIBaseURL + "chat/completions"; got != want {
		t.Errorf("URL = %q, want %q", got, want)
	}
	if got, want := errorText(err), "Google Gemini answered 401: API key not valid."; got != want {
		t.Errorf("error = %q, want %q", got, want)
	}
}
