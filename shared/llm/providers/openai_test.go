package providers_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"testing"

	"aiwork/shared/llm"
	"aiwork/shared/llm/providers"
)

// OpenAI Chat Completions streaming: SSE "data: {chat.completion.chunk}"
// lines, a last chunk with empty choices and the usage (stream_options.
// include_usage), then "data: [DONE]".
var openaiWire = wire{
	label:       providers.LabelOpenAI,
	model:       "gpt-4o-mini",
	contentType: "text/event-stream; charset=utf-8",
	newProvider: func(t *testing.T, url string) llm.Provider {
		return providers.NewOpenAI(providers.Options{APIKey: testKey, BaseURL: url + "/v1/"})
	},
	open: func() [][]byte {
		return [][]byte{openaiChunk(`{"role":"assistant","content":"","refusal":null}`, "null")}
	},
	delta: func(text string) []byte {
		return openaiChunk(fmt.Sprintf(`{"content":%s}`, mustJSON(text)), "null")
	},
	close:  func(u llm.Usage) [][]byte { return openaiEnd("stop", u) },
	script: openaiScript,
	fail: func(message string) []byte {
		return sseData(fmt.Sprintf(`{"error":{"message":%s,"type":"server_error","param":null,"code":null}}`, mustJSON(message)))
	},
	httpError: func(w http.ResponseWriter, status int, message string) {
		code := "invalid_api_key"
		if status == http.StatusTooManyRequests {
			code = "rate_limit_exceeded"
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"error":{"message":%s,"type":"invalid_request_error","param":null,"code":%q}}`, mustJSON(message), code)
	},
	checkRequest: func(t *testing.T, r *http.Request, body []byte) {
		if got, want := r.URL.Path, "/v1/chat/completions"; got != want {
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
			MaxCompletion int           `json:"max_completion_tokens"`
			Messages      []llm.Message `json:"messages"`
		}
		decodeBody(t, body, &req)
		if req.Model != "gpt-4o-mini" || !req.Stream || !req.StreamOptions.IncludeUsage || req.MaxCompletion != 321 {
			t.Errorf("request = %s, want model gpt-4o-mini, stream, include_usage, max_completion_tokens 321", body)
		}
		wantMessages(t, req.Messages, testConversation)
	},
	checkToolRequest: func(t *testing.T, body []byte) {
		wantJSONField(t, body, "tools", openaiTools)
		wantJSONField(t, body, "messages", `[
			{"role":"system","content":"Use the tools."},
			{"role":"user","content":"Weather in Paris and Rome?"},
			{"role":"assistant","content":"Let me check.","tool_calls":[
				{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}},
				{"id":"call_2","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Rome\",\"days\":1.50}"}}]},
			{"role":"tool","tool_call_id":"call_1","content":"18°C, sunny"},
			{"role":"tool","tool_call_id":"call_2","content":"the weather service is down"},
			{"role":"assistant","tool_calls":[{"id":"call_3","type":"function","function":{"name":"list_cities","arguments":"{}"}}]},
			{"role":"tool","tool_call_id":"call_3","content":"[\"Paris\",\"Rome\"]"},
			{"role":"user","content":"And Berlin?"}]`)
	},
}

// openaiTools is testTools as Chat Completions functions (Gemini's too).
const openaiTools = `[
	{"type":"function","function":{"name":"get_weather","description":"The weather in a city.",
		"parameters":{"type":"object","properties":{"city":{"type":"string","maxLength":12345678901234567890}},"required":["city"]}}},
	{"type":"function","function":{"name":"list_cities","parameters":{"type":"object"}}}]`

// openaiEnd closes a stream: the finish reason, the usage, [DONE].
func openaiEnd(finish string, u llm.Usage) [][]byte {
	usage := fmt.Sprintf(`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1760000000,"model":"gpt-4o-mini-2024-07-18","system_fingerprint":"fp_1","choices":[],"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d,"prompt_tokens_details":{"cached_tokens":0},"completion_tokens_details":{"reasoning_tokens":0}}}`,
		u.InputTokens, u.OutputTokens, u.InputTokens+u.OutputTokens)
	return [][]byte{openaiChunk(`{}`, mustJSON(finish)), sseData(usage), []byte("data: [DONE]\n\n")}
}

// openaiScript streams a reply as OpenAI does: a call's first piece has
// its index, id, name and empty arguments, the next ones its index and
// more of the arguments.
func openaiScript(r scripted) [][]byte {
	frames := [][]byte{openaiChunk(`{"role":"assistant","content":null,"refusal":null}`, "null")}
	index := 0
	for _, p := range r.parts {
		for _, d := range p.texts {
			frames = append(frames, openaiChunk(fmt.Sprintf(`{"content":%s}`, mustJSON(d)), "null"))
		}
		if p.call == nil {
			continue
		}
		frames = append(frames, openaiChunk(fmt.Sprintf(`{"tool_calls":[{"index":%d,"id":%s,"type":"function","function":{"name":%s,"arguments":""}}]}`,
			index, mustJSON(p.call.ID), mustJSON(p.call.Name)), "null"))
		for _, a := range p.args {
			frames = append(frames, openaiChunk(fmt.Sprintf(`{"tool_calls":[{"index":%d,"function":{"arguments":%s}}]}`, index, mustJSON(a)), "null"))
		}
		index++
	}
	if r.broken {
		return frames
	}
	finish := map[string]string{llm.StopEnd: "stop", llm.StopToolCalls: "tool_calls"}[r.stop]
	return append(frames, openaiEnd(finish, llm.Usage{InputTokens: 50, OutputTokens: 20})...)
}

func TestOpenAI(t *testing.T) {
	t.Parallel()
	runWire(t, openaiWire)
}

// An OpenAI-compatible gateway may answer errors in its own shape; the
// status and text still reach the user.
func TestOpenAIGatewayError(t *testing.T) {
	t.Parallel()
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusBadGateway)
		fmt.Fprint(w, "upstream connect error")
	})
	_, err := openaiWire.newProvider(t, up.URL).Stream(t.Context(), request("gpt-4o"), func(llm.Event) error { return nil })
	ue := wantUpstream(t, err, providers.LabelOpenAI, http.StatusBadGateway)
	if ue.Detail != "upstream connect error" {
		t.Errorf("detail = %q", ue.Detail)
	}
}

func openaiChunk(delta, finish string) []byte {
	return sseData(fmt.Sprintf(`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1760000000,"model":"gpt-4o-mini-2024-07-18","system_fingerprint":"fp_1","choices":[{"index":0,"delta":%s,"logprobs":null,"finish_reason":%s}],"usage":null}`, delta, finish))
}

func sseData(data string) []byte { return []byte("data: " + data + "\n\n") }

func sseEvent(event, data string) []byte {
	return []byte("event: " + event + "\ndata: " + data + "\n\n")
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func decodeBody(t *testing.T, body []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(body, v); err != nil {
		t.Fatalf("request body %s: %v", body, err)
	}
}

func wantMessages(t *testing.T, got, want []llm.Message) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("messages = %+v, want %+v", got, want)
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("message %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}
