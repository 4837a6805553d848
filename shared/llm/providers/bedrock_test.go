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
	open: func() [][]byte {
		return [][]byte{awsEvent("messageStart", `{"p":"abcdefgh","role":"assistant"}`)}
	},
	delta: func(text string) []byte {
		return awsEvent("contentBlockDelta", fmt.Sprintf(`{"contentBlockIndex":0,"delta":{"text":%s},"p":"abcd"}`, mustJSON(text)))
	},
	close: func(u llm.Usage) [][]byte {
		return [][]byte{
			awsEvent("contentBlockStop", `{"contentBlockIndex":0,"p":"ab"}`),
			awsEvent("messageStop", `{"p":"abc","stopReason":"end_turn"}`),
			awsEvent("metadata", fmt.Sprintf(`{"metrics":{"latencyMs":412},"p":"abcdef","usage":{"inputTokens":%d,"outputTokens":%d,"totalTokens":%d}}`,
				u.InputTokens, u.OutputTokens, u.InputTokens+u.OutputTokens)),
		}
	},
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

// A reply whose events come with pauses survives the SDK closing the
// request body under net/http's feet (see plainBodyClient): repeated,
// because the race it guards against is a matter of scheduling.
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
		if _, err := p.Stream(t.Context(), request(bedrockWire.model), func(d string) error { got += d; return nil }); err != nil || got != "ab" {
			t.Fatalf("run %d: got %q, err %v", i, got, err)
		}
	}
}
