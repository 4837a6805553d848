package providers_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"

	"aiwork/shared/llm"
)

// The error texts of Bedrock's refusals and broken streams, as the SDK's
// bedrockruntime client gives them, and what users read of each: the chat
// engine shows a refusal's status and message, and tells a cut stream and
// an unreadable one by what the error wraps (errorKind).
func TestBedrockErrorTexts(t *testing.T) {
	t.Parallel()
	refuse := func(status int, errorType, body string) func(w http.ResponseWriter, r *http.Request) {
		return func(w http.ResponseWriter, r *http.Request) {
			if errorType != "" {
				w.Header().Set("X-Amzn-Errortype", errorType)
			}
			w.WriteHeader(status)
			_, _ = w.Write([]byte(body))
		}
	}
	// stream answers the opening and a delta, then the frames.
	stream := func(frames ...[]byte) func(w http.ResponseWriter, r *http.Request) {
		return func(w http.ResponseWriter, r *http.Request) {
			play(w, bedrockWire, append([][]byte{bedrockStart(), bedrockWire.delta("Bon")}, frames...))
		}
	}
	exception := func(typ, payload string) []byte {
		return awsMessage(eventstream.Headers{
			{Name: ":message-type", Value: eventstream.StringValue("exception")},
			{Name: ":exception-type", Value: eventstream.StringValue(typ)},
			{Name: ":content-type", Value: eventstream.StringValue("application/json")},
		}, payload)
	}
	corrupt := bedrockWire.delta("jour")
	corrupt[len(corrupt)-6] ^= 1 // a byte of the payload: the message's checksum fails
	cases := []struct {
		name   string
		answer func(w http.ResponseWriter, r *http.Request)
		want   string
		kind   string // errorKind's; "" for an *llm.UpstreamError
	}{
		{"refused with a message", refuse(403, "AccessDeniedException:http://internal.amazon.com/coral/com.amazon.bedrock/", `{"message":"You don't have access to the model."}`),
			"Amazon Bedrock answered 403: You don't have access to the model.", ""},
		{"a known error without a message", refuse(400, "ValidationException", `{}`), "Amazon Bedrock answered 400: ValidationException", ""},
		{"an unknown error without a message", refuse(400, "FooException:x", `{}`), "Amazon Bedrock answered 400: UnknownError", ""},
		{"the type in the body", refuse(400, "", `{"__type":"com.amazon.bedrock#ValidationException","Message":"Malformed input."}`),
			"Amazon Bedrock answered 400: Malformed input.", ""},
		{"no body", refuse(500, "", ``), "Amazon Bedrock answered 500: UnknownError", ""},
		{"a body that is not JSON", refuse(502, "", `<html>Bad gateway</html>`), "Amazon Bedrock answered 502: Bad Gateway", ""},
		{"a body that is not an object", refuse(400, "", `[1]`), "Amazon Bedrock answered 400: Bad Request", ""},

		{"model stream error", stream(exception("modelStreamErrorException", `{"message":"The model broke.","originalStatusCode":500}`)),
			"Amazon Bedrock answered 424: The model broke.", ""},
		{"throttled without a message", stream(exception("throttlingException", `{}`)), "Amazon Bedrock answered 429: ThrottlingException", ""},
		{"a timeout the stream has no type for", stream(exception("modelTimeoutException", `{"message":"Too slow."}`)),
			"Amazon Bedrock answered 408: Too slow.", ""},
		{"an unknown exception", stream(exception("fooException", `{"message":"Foo."}`)), "Amazon Bedrock: Foo.", ""},
		{"an unknown exception without a message", stream(exception("fooException", `{}`)), "Amazon Bedrock: UnknownError", ""},
		{"an error message", stream(awsMessage(eventstream.Headers{
			{Name: ":message-type", Value: eventstream.StringValue("error")},
			{Name: ":error-code", Value: eventstream.StringValue("InternalFailure")},
			{Name: ":error-message", Value: eventstream.StringValue("Something failed.")},
		}, "")), "Amazon Bedrock: Something failed.", ""},
		{"an error message without its message", stream(awsMessage(eventstream.Headers{
			{Name: ":message-type", Value: eventstream.StringValue("error")},
			{Name: ":error-code", Value: eventstream.StringValue("InternalFailure")},
		}, "")), "Amazon Bedrock: UnknownError", ""},
		{"an exception without its type", stream(awsMessage(eventstream.Headers{
			{Name: ":message-type", Value: eventstream.StringValue("exception")},
		}, `{"message":"m"}`)), "bedrock stream: missing :exception-type header", kindOther},
		{"a message without its type", stream(awsMessage(nil, `{}`)), "bedrock stream: missing :message-type header", kindOther},
		{"a message of an unknown type", stream(awsMessage(eventstream.Headers{
			{Name: ":message-type", Value: eventstream.StringValue("weird")},
		}, `{}`)), "bedrock stream: unknown event stream message type, weird", kindOther},

		{"no messageStop", stream(), "bedrock stream: unexpected EOF", kindCut},
		{"no metadata", stream(bedrockBlockStop(0), bedrockEnd("end_turn", llm.Usage{})[0]), "bedrock stream: unexpected EOF", kindCut},
		{"cut inside a message", stream(bedrockWire.delta("jour")[:10]), "bedrock stream: unexpected EOF", kindCut},
		{"a corrupt message", stream(corrupt), "bedrock stream: decode event: message checksum mismatch", kindOther},
		{"an event that is not JSON", stream(awsEvent("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":"jo`)),
			"bedrock stream: deserialize event contentBlockDelta: unterminated string at offset 39", kindUnreadable},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			up := newUpstream(t, tc.answer)
			_, err := bedrockWire.newProvider(t, up.URL).Stream(context.Background(), request(bedrockWire.model), func(llm.Event) error { return nil })
			if got := errorText(err); got != tc.want {
				t.Errorf("error = %q, want %q", got, tc.want)
			}
			if got := errorKind(err); got != tc.kind {
				t.Errorf("error %q is shown as %q, want %q", errorText(err), got, tc.kind)
			}
		})
	}
}
