package providers_test

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
	"github.com/aws/aws-sdk-go-v2/credentials"

	"aiwork/shared/llm"
	"aiwork/shared/llm/providers"
)

// Bedrock ConverseStream: the AWS event-stream binary encoding
// (application/vnd.amazon.eventstream), one message per event with the
// :message-type, :event-type and :content-type headers and a JSON payload:
// messageStart, contentBlockDelta…, contentBlockStop, messageStop, metadata.
// Exceptions are messages of :message-type "exception".
var bedrockWire = wire{
	label:       providers.LabelBedrock,
	keyless:     true,
	model:       "meta.llama3-1-8b-instruct-v1:0",
	contentType: "application/vnd.amazon.eventstream",
	newProvider: func(t *testing.T, url string) llm.Provider {
		cfg := aws.Config{Region: "us-east-1", Credentials: credentials.NewStaticCredentialsProvider("AKIDTEST", "secret", "")}
		return providers.NewBedrock(cfg, providers.Options{BaseURL: url})
	},
	open: func() [][]byte { return [][]byte{bedrockStart()} },
	delta: func(text string) []byte {
		return awsEvent("contentBlockDelta", fmt.Sprintf(`{"contentBlockIndex":0,"delta":{"text":%s},"p":"abcd"}`, mustJSON(text)))
	},
	close: func(u llm.Usage) [][]byte {
		return append([][]byte{bedrockBlockStop(0)}, bedrockEnd("end_turn", u)...)
	},
	script: bedrockScript,
	fail: func(message string) []byte {
		return awsMessage(eventstream.Headers{
			{Name: ":message-type", Value: eventstream.StringValue("exception")},
			{Name: ":exception-type", Value: eventstream.StringValue("modelStreamErrorException")},
			{Name: ":content-type", Value: eventstream.StringValue("application/json")},
		}, fmt.Sprintf(`{"message":%s,"originalStatusCode":503}`, mustJSON(message)))
	},
	midStatus: http.StatusFailedDependency,
	httpError: func(w http.ResponseWriter, status int, message string) {
		typ := "AccessDeniedException"
		if status == http.StatusTooManyRequests {
			typ = "ThrottlingException"
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Amzn-Errortype", typ+":http://internal.amazon.com/coral/com.amazon.bedrock/")
		w.Header().Set("X-Amzn-Requestid", "11111111-2222-3333-4444-555555555555")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"message":%s}`, mustJSON(message))
	},
	checkRequest: func(t *testing.T, r *http.Request, body []byte) {
		if got, want := r.URL.Path, "/model/meta.llama3-1-8b-instruct-v1:0/converse-stream"; got != want {
			t.Errorf("path = %q, want %q", got, want)
		}
		if got := r.Header.Get("Authorization"); !strings.HasPrefix(got, "AWS4-HMAC-SHA256 Credential=AKIDTEST/") || !strings.Contains(got, "/us-east-1/bedrock/aws4_request") {
			t.Errorf("Authorization = %q, want a SigV4 signature for bedrock in us-east-1", got)
		}
		var req struct {
			Messages []struct {
				Role    string `json:"role"`
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"messages"`
			System []struct {
				Text string `json:"text"`
			} `json:"system"`
			InferenceConfig struct {
				MaxTokens int `json:"maxTokens"`
			} `json:"inferenceConfig"`
		}
		decodeBody(t, body, &req)
		if len(req.System) != 1 || req.System[0].Text != "Answer briefly." {
			t.Errorf("system = %+v, want the system message", req.System)
		}
		if req.InferenceConfig.MaxTokens != 321 {
			t.Errorf("maxTokens = %d, want 321", req.InferenceConfig.MaxTokens)
		}
		var got []llm.Message
		for _, m := range req.Messages {
			if len(m.Content) != 1 {
				t.Fatalf("content = %+v, want one text block", m.Content)
			}
			got = append(got, llm.Message{Role: m.Role, Content: m.Content[0].Text})
		}
		wantMessages(t, got, testConversation[1:])
	},
	checkToolRequest: func(t *testing.T, body []byte) {
		wantJSONField(t, body, "system", `[{"text":"Use the tools."}]`)
		wantJSONField(t, body, "toolConfig", `{"tools":[
			{"toolSpec":{"name":"get_weather","description":"The weather in a city.",
				"inputSchema":{"json":{"type":"object","properties":{"city":{"type":"string","maxLength":12345678901234567890}},"required":["city"]}}}},
			{"toolSpec":{"name":"list_cities","inputSchema":{"json":{"type":"object"}}}}]}`)
		wantJSONField(t, body, "messages", `[
			{"role":"user","content":[{"text":"Weather in Paris and Rome?"}]},
			{"role":"assistant","content":[
				{"text":"Let me check."},
				{"toolUse":{"toolUseId":"call_1","name":"get_weather","input":{"city":"Paris"}}},
				{"toolUse":{"toolUseId":"call_2","name":"get_weather","input":{"city":"Rome","days":1.50}}}]},
			{"role":"user","content":[
				{"toolResult":{"toolUseId":"call_1","content":[{"text":"18°C, sunny"}]}},
				{"toolResult":{"toolUseId":"call_2","content":[{"text":"the weather service is down"}],"status":"error"}}]},
			{"role":"assistant","content":[{"toolUse":{"toolUseId":"call_3","name":"list_cities","input":{}}}]},
			{"role":"user","content":[
				{"toolResult":{"toolUseId":"call_3","content":[{"text":"[\"Paris\",\"Rome\"]"}]}},
				{"text":"And Berlin?"}]}]`)
	},
}

func bedrockStart() []byte { return awsEvent("messageStart", `{"p":"abcdefgh","role":"assistant"}`) }

func bedrockBlockStop(index int) []byte {
	return awsEvent("contentBlockStop", fmt.Sprintf(`{"contentBlockIndex":%d,"p":"ab"}`, index))
}

// bedrockEnd closes a stream: messageStop with the reason, the metadata.
func bedrockEnd(reason string, u llm.Usage) [][]byte {
	return [][]byte{
		awsEvent("messageStop", fmt.Sprintf(`{"p":"abc","stopReason":%q}`, reason)),
		awsEvent("metadata", fmt.Sprintf(`{"metrics":{"latencyMs":412},"p":"abcdef","usage":{"inputTokens":%d,"outputTokens":%d,"totalTokens":%d}}`,
			u.InputTokens, u.OutputTokens, u.InputTokens+u.OutputTokens)),
	}
}

// bedrockScript streams a reply as ConverseStream does: each part a content
// block (a toolUse block opens with contentBlockStart, a text block with
// its first delta), its input in toolUse delta pieces.
func bedrockScript(r scripted) [][]byte {
	frames := [][]byte{bedrockStart()}
	for i, p := range r.parts {
		if p.call != nil {
			frames = append(frames, awsEvent("contentBlockStart", fmt.Sprintf(`{"contentBlockIndex":%d,"p":"abcd","start":{"toolUse":{"name":%s,"toolUseId":%s}}}`,
				i, mustJSON(p.call.Name), mustJSON(p.call.ID))))
			for _, a := range p.args {
				frames = append(frames, awsEvent("contentBlockDelta", fmt.Sprintf(`{"contentBlockIndex":%d,"delta":{"toolUse":{"input":%s}},"p":"ab"}`, i, mustJSON(a))))
			}
		}
		for _, d := range p.texts {
			frames = append(frames, awsEvent("contentBlockDelta", fmt.Sprintf(`{"contentBlockIndex":%d,"delta":{"text":%s},"p":"abcd"}`, i, mustJSON(d))))
		}
		if r.broken && i == len(r.parts)-1 {
			return frames
		}
		frames = append(frames, bedrockBlockStop(i))
	}
	reason := map[string]string{llm.StopEnd: "end_turn", llm.StopToolCalls: "tool_use"}[r.stop]
	return append(frames, bedrockEnd(reason, llm.Usage{InputTokens: 31, OutputTokens: 20})...)
}

func TestBedrock(t *testing.T) {
	t.Parallel()
	runWire(t, bedrockWire)
}

func awsEvent(eventType, payload string) []byte {
	return awsMessage(eventstream.Headers{
		{Name: ":event-type", Value: eventstream.StringValue(eventType)},
		{Name: ":content-type", Value: eventstream.StringValue("application/json")},
		{Name: ":message-type", Value: eventstream.StringValue("event")},
	}, payload)
}

func awsMessage(h eventstream.Headers, payload string) []byte {
	var buf bytes.Buffer
	if err := eventstream.NewEncoder().Encode(&buf, eventstream.Message{Headers: h, Payload: []byte(payload)}); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// A reply whose events come with pauses is read whole (the SDK's client
// closes the request body under net/http's feet, which drops the connection
// after the first events unless plainBodyClient hides it): repeated,
// because that race is a matter of scheduling.
func TestBedrockStreamWithPauses(t *testing.T) {
	t.Parallel()
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		s := &sender{w: w, r: r}
		bedrockWire.begin(s)
		for _, d := range []string{"a", "b"} {
			time.Sleep(2 * time.Millisecond)
			s.frame(bedrockWire.delta(d))
		}
		for _, f := range bedrockWire.close(llm.Usage{InputTokens: 1, OutputTokens: 2}) {
			s.frame(f)
		}
	})
	p := bedrockWire.newProvider(t, up.URL)
	for i := range 40 {
		var got string
		if _, err := p.Stream(t.Context(), request(bedrockWire.model), llm.TextOnly(func(d string) error { got += d; return nil })); err != nil || got != "ab" {
			t.Fatalf("run %d: got %q, err %v", i, got, err)
		}
	}
}
