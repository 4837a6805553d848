package providers

import (
	"aiwork/shared/llm"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Options configure a real provider adapter.
type Options struct {
	// APIKey authenticates with the provider. Bedrock has none: it signs
	// with the credentials of its AWS configuration.
	APIKey string
	// BaseURL overrides the provider's API address (an OpenAI-compatible
	// gateway, a proxy, a test server); empty means the provider's own.
	BaseURL string
	// HTTPClient sends the requests; nil means a client without an overall
	// timeout: a reply streams as long as it takes, and ctx bounds it.
	HTTPClient *http.Client
	// MaxRetries is how often a request refused before any output (429,
	// 5xx, a connection failure, as each SDK judges) is tried again; 0
	// tries once.
	MaxRetries int
}

// Provider labels, as users read them in error messages.
const (
	LabelOpenAI    = "OpenAI"
	LabelAnthropic = "Anthropic"
	LabelGoogle    = "Google Gemini"
	LabelBedrock   = "Amazon Bedrock"
)

// httpClient is the client o's requests go through: o.HTTPClient, or the
// one every provider of the process shares.
func (o Options) httpClient() *http.Client {
	if o.HTTPClient != nil {
		return o.HTTPClient
	}
	return upstreamClient
}

// upstreamClient has no overall timeout: a reply streams as long as it
// takes, and the request's context bounds it.
var upstreamClient = &http.Client{Transport: drainingTransport{upstreamTransport}}

// upstreamTransport is shared by every provider client of the process. Go's
// default keeps 2 idle connections per host, so with more replies at once
// most calls would open (and TLS-handshake) a new connection before their
// first byte; this keeps enough for a chat function's concurrency.
var upstreamTransport = func() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 256
	t.MaxIdleConnsPerHost = 64
	t.IdleConnTimeout = 90 * time.Second
	return t
}()

// drainingTransport hands out response bodies that are read to their end
// when closed. The SDKs stop reading a stream at its last event ([DONE],
// message_stop) and close it with the chunked body's end still unread:
// over HTTP/2 (the providers' own APIs) the connection survives that, but
// net/http drops an HTTP/1.1 one, so an OpenAI-compatible gateway, a proxy
// or a local model server would be dialled and TLS-handshaken again for
// every message and every tool round (measured on the bench's HTTP/1.1
// upstream: the relay's TTFB and the tool round's overhead).
type drainingTransport struct{ next http.RoundTripper }

func (t drainingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := t.next.RoundTrip(r)
	if err == nil && res.Body != nil {
		res.Body = &drainingBody{ReadCloser: res.Body}
	}
	return res, err
}

// Bounds of the read at close: what a stream still holds after its last
// event is a few bytes; anything larger or slower is cut off.
const (
	drainMaxBytes = 64 << 10
	drainMaxTime  = 100 * time.Millisecond
)

type drainingBody struct{ io.ReadCloser }

func (b *drainingBody) Close() error {
	stop := time.AfterFunc(drainMaxTime, func() { _ = b.ReadCloser.Close() })
	_, _ = io.CopyN(io.Discard, b.ReadCloser, drainMaxBytes)
	stop.Stop()
	return b.ReadCloser.Close()
}

// maxRetryWait is the longest wait a provider may ask for (Retry-After)
// and still be retried: beyond it the chat's stall timeout (30 s) would
// end the reply first, so the refusal goes to the user at once instead.
const maxRetryWait = 10 * time.Second

// maxDetail keeps a provider's message short enough for a toast.
const maxDetail = 400

// upstreamError builds the error of a provider's failure. The API key is
// cut out of the detail wherever the provider echoed it.
func upstreamError(provider string, status int, detail, apiKey string) *llm.UpstreamError {
	detail = strings.TrimSpace(detail)
	if apiKey != "" {
		detail = strings.ReplaceAll(detail, apiKey, "[redacted]")
	}
	if detail == "" {
		detail = http.StatusText(status)
	}
	if detail == "" {
		detail = "the request failed"
	}
	if utf8.RuneCountInString(detail) > maxDetail {
		detail = string([]rune(detail)[:maxDetail]) + "…"
	}
	return &llm.UpstreamError{Provider: provider, Status: status, Detail: detail}
}

// errorMessage digs the human message out of a provider's error body:
// {"error":{"message":…}} (OpenAI, Anthropic, Gemini), {"message":…} (AWS)
// or {"error":"…"}; anything else is answered as the body's text.
func errorMessage(body []byte) string {
	// Google answers some errors as a one-element list of the object.
	var list []json.RawMessage
	if json.Unmarshal(body, &list) == nil && len(list) > 0 {
		body = list[0]
	}
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if err := json.Unmarshal(body, &v); err == nil {
		var inner struct {
			Message string `json:"message"`
			Type    string `json:"type"`
		}
		if len(v.Error) > 0 && json.Unmarshal(v.Error, &inner) == nil && inner.Message != "" {
			return inner.Message
		}
		var s string
		if len(v.Error) > 0 && json.Unmarshal(v.Error, &s) == nil && s != "" {
			return s
		}
		if v.Message != "" {
			return v.Message
		}
	}
	return strings.TrimSpace(string(body))
}

// errorCode is the numeric error.code of an error body (Google's shape,
// which OpenAI-compatible gateways also send in the middle of a stream,
// with the HTTP status there); 0 if none.
func errorCode(body []byte) int {
	var list []json.RawMessage
	if json.Unmarshal(body, &list) == nil && len(list) > 0 {
		body = list[0]
	}
	var v struct {
		Error struct {
			Code json.RawMessage `json:"code"`
		} `json:"error"`
	}
	var code int
	if json.Unmarshal(body, &v) == nil && json.Unmarshal(v.Error.Code, &code) == nil {
		return code
	}
	return 0
}

// turns splits a conversation into its system text and its user and
// assistant turns, merging consecutive turns of one role: Anthropic, Gemini
// and Bedrock want the roles to alternate, and a failed reply leaves two
// user turns in a row. Tool results are the user's (Anthropic's and
// Bedrock's shape): a tool turn and a user turn after it become one turn.
func turns(msgs []llm.Message) (system string, out []llm.Message) {
	var sys []string
	for _, m := range msgs {
		if m.Role == "system" {
			sys = append(sys, m.Content)
			continue
		}
		role := m.Role
		if role != "assistant" {
			role = "user"
		}
		if n := len(out); n > 0 && out[n-1].Role == role {
			prev := &out[n-1]
			prev.Content = joinText(prev.Content, m.Content)
			prev.ToolCalls = append(prev.ToolCalls, m.ToolCalls...)
			prev.ToolResults = append(prev.ToolResults, m.ToolResults...)
			continue
		}
		// Clipped, so merging appends to copies, never to the caller's arrays.
		out = append(out, llm.Message{Role: role, Content: m.Content,
			ToolCalls: slices.Clip(m.ToolCalls), ToolResults: slices.Clip(m.ToolResults)})
	}
	return strings.Join(sys, "\n\n"), out
}

func joinText(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "\n\n" + b
}

// hasText: a turn's text goes as a text block when it has some, or when
// the turn is nothing else (a plain turn keeps its one block, even empty).
func hasText(m llm.Message) bool {
	return m.Content != "" || len(m.ToolCalls)+len(m.ToolResults) == 0
}

// toolSchema is a tool's input schema; one that is not a JSON object (or
// none) is an object without properties, as every provider wants one.
func toolSchema(t llm.Tool) json.RawMessage {
	return jsonObject(string(t.InputSchema), `{"type":"object","properties":{}}`)
}

// callInput is a call's arguments for the providers that take them back
// as a JSON object (Anthropic, Bedrock): a model's text that is not one
// would have the whole request refused, so it goes back as {}.
func callInput(c llm.ToolCall) json.RawMessage {
	return jsonObject(c.Arguments, "{}")
}

func jsonObject(s, fallback string) json.RawMessage {
	b := bytes.TrimSpace([]byte(s))
	if len(b) > 0 && b[0] == '{' && json.Valid(b) {
		return b
	}
	return json.RawMessage(fallback)
}

// callEvent is the event of a complete call; a call streamed without any
// arguments (a tool taking none) has the empty object.
func callEvent(id, name, args string) llm.Event {
	if strings.TrimSpace(args) == "" {
		args = "{}"
	}
	return llm.Event{ToolCall: &llm.ToolCall{ID: id, Name: name, Arguments: args}}
}

// stopReason maps a provider's stop reason (through reasons; unknown or
// missing: StopOther). A turn that emitted calls stopped for them unless
// it ran out of tokens, whatever the provider said: Gemini ends a turn of
// calls with STOP.
func stopReason(reasons map[string]string, reason string, calls int) string {
	s, ok := reasons[reason]
	if !ok {
		s = llm.StopOther
	}
	if calls > 0 && s != llm.StopMaxTokens {
		s = llm.StopToolCalls
	}
	return s
}
