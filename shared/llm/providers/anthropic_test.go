package providers_test

import (
	"fmt"
	"net/http"
	"testing"

	"aiwork/shared/llm"
	"aiwork/shared/llm/providers"
)

// Anthropic Messages streaming: SSE events message_start (input usage),
// content_block_start, content_block_delta (text_delta), ping,
// content_block_stop, message_delta (output usage), message_stop.
var anthropicWire = wire{
	label:       providers.LabelAnthropic,
	model:       "claude-3-5-sonnet-latest",
	contentType: "text/event-stream; charset=utf-8",
	newProvider: func(t *testing.T, url string) llm.Provider {
		return providers.NewAnthropic(providers.Options{APIKey: testKey, BaseURL: url})
	},
	midStatus: 529,
	open: func() [][]byte {
		return [][]byte{
			anthropicStart,
			sseEvent("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`),
			sseEvent("ping", `{"type": "ping"}`),
		}
	},
	delta: func(text string) []byte {
		return sseEvent("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":%s}}`, mustJSON(text)))
	},
	close: func(u llm.Usage) [][]byte {
		return append([][]byte{anthropicBlockStop(0)}, anthropicEnd("end_turn", u)...)
	},
	script: anthropicScript,
	fail: func(message string) []byte {
		return sseEvent("error", fmt.Sprintf(`{"type":"error","error":{"type":"overloaded_error","message":%s}}`, mustJSON(message)))
	},
	httpError: func(w http.ResponseWriter, status int, message string) {
		typ := "authentication_error"
		if status == http.StatusTooManyRequests {
			typ = "rate_limit_error"
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Request-Id", "req_test")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"type":"error","error":{"type":%q,"message":%s},"request_id":"req_test"}`, typ, mustJSON(message))
	},
	checkRequest: func(t *testing.T, r *http.Request, body []byte) {
		if got, want := r.URL.Path, "/v1/messages"; got != want {
			t.Errorf("path = %q, want %q", got, want)
		}
		if got, want := r.Header.Get("Authorization"), "Bearer "+testKey; got != want {
			t.Errorf("Authorization = %q, want %q (the SDK's way of sending the key)", got, want)
		}
		if r.Header.Get("Anthropic-Version") == "" {
			t.Error("no anthropic-version header")
		}
		type block struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		var req struct {
			Model     string  `json:"model"`
			Stream    bool    `json:"stream"`
			MaxTokens int     `json:"max_tokens"`
			System    []block `json:"system"`
			Messages  []struct {
				Role    string  `json:"role"`
				Content []block `json:"content"`
			} `json:"messages"`
		}
		decodeBody(t, body, &req)
		if req.Model != "claude-3-5-sonnet-latest" || !req.Stream || req.MaxTokens != 321 {
			t.Errorf("request = %s, want the model, stream, max_tokens 321", body)
		}
		if len(req.System) != 1 || req.System[0] != (block{"text", "Answer briefly."}) {
			t.Errorf("system = %+v, want the system message as one text block", req.System)
		}
		var got []llm.Message
		for _, m := range req.Messages {
			if len(m.Content) != 1 || m.Content[0].Type != "text" {
				t.Fatalf("content = %+v, want one text block", m.Content)
			}
			got = append(got, llm.Message{Role: m.Role, Content: m.Content[0].Text})
		}
		wantMessages(t, got, testConversation[1:])
	},
	checkToolRequest: func(t *testing.T, body []byte) {
		wantJSONField(t, body, "system", `[{"type":"text","text":"Use the tools."}]`)
		wantJSONField(t, body, "tools", `[
			{"name":"get_weather","description":"The weather in a city.",
				"input_schema":{"type":"object","properties":{"city":{"type":"string","maxLength":12345678901234567890}},"required":["city"]}},
			{"name":"list_cities","input_schema":{"type":"object"}}]`)
		wantJSONField(t, body, "messages", `[
			{"role":"user","content":[{"type":"text","text":"Weather in Paris and Rome?"}]},
			{"role":"assistant","content":[
				{"type":"text","text":"Let me check."},
				{"type":"tool_use","id":"call_1","name":"get_weather","input":{"city":"Paris"}},
				{"type":"tool_use","id":"call_2","name":"get_weather","input":{"city":"Rome","days":1.50}}]},
			{"role":"user","content":[
				{"type":"tool_result","tool_use_id":"call_1","is_error":false,"content":[{"type":"text","text":"18°C, sunny"}]},
				{"type":"tool_result","tool_use_id":"call_2","is_error":true,"content":[{"type":"text","text":"the weather service is down"}]}]},
			{"role":"assistant","content":[{"type":"tool_use","id":"call_3","name":"list_cities","input":{}}]},
			{"role":"user","content":[
				{"type":"tool_result","tool_use_id":"call_3","is_error":false,"content":[{"type":"text","text":"[\"Paris\",\"Rome\"]"}]},
				{"type":"text","text":"And Berlin?"}]}]`)
	},
}

var anthropicStart = sseEvent("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-3-5-sonnet-20241022","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":31,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1}}}`)

func anthropicBlockStop(index int) []byte {
	return sseEvent("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, index))
}

// anthropicEnd closes a stream: the stop reason with the output usage,
// message_stop.
func anthropicEnd(reason string, u llm.Usage) [][]byte {
	return [][]byte{
		sseEvent("message_delta", fmt.Sprintf(`{"type":"message_delta","delta":{"stop_reason":%q,"stop_sequence":null},"usage":{"output_tokens":%d}}`, reason, u.OutputTokens)),
		sseEvent("message_stop", `{"type":"message_stop"}`),
	}
}

// anthropicScript streams a reply as Anthropic does: each part a content
// block (start, deltas, stop), a tool_use block's input in input_json_delta
// pieces.
func anthropicScript(r scripted) [][]byte {
	frames := [][]byte{anthropicStart}
	for i, p := range r.parts {
		if p.call != nil {
			frames = append(frames, sseEvent("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":%s,"name":%s,"input":{}}}`,
				i, mustJSON(p.call.ID), mustJSON(p.call.Name))))
			for _, a := range p.args {
				frames = append(frames, sseEvent("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":%s}}`, i, mustJSON(a))))
			}
		} else {
			frames = append(frames, sseEvent("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"text","text":""}}`, i)))
			for _, d := range p.texts {
				frames = append(frames, sseEvent("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"text_delta","text":%s}}`, i, mustJSON(d))))
			}
		}
		if r.broken && i == len(r.parts)-1 {
			return frames
		}
		frames = append(frames, anthropicBlockStop(i))
	}
	reason := map[string]string{llm.StopEnd: "end_turn", llm.StopToolCalls: "tool_use"}[r.stop]
	return append(frames, anthropicEnd(reason, llm.Usage{InputTokens: 31, OutputTokens: 20})...)
}

func TestAnthropic(t *testing.T) {
	t.Parallel()
	runWire(t, anthropicWire)
}
