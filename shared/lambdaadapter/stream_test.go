package lambdaadapter_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"mime"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"aiwork/shared/api/chatapi"
	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/lambdaadapter"
	"aiwork/shared/llm"
	"aiwork/shared/store/storetest"
)

// patience bounds a wait for something that normally takes milliseconds:
// generous, so a busy machine never fails a test that would pass; waits end
// as soon as their condition holds, so it costs nothing when all is well.
const patience = 30 * time.Second

// restChatMessage is a REST API proxy event as API Gateway (response
// transfer mode STREAM) hands it to the chat function.
const restChatMessage = `{
  "resource": "/api/v1/mcp-connections/message",
  "path": "/api/v1/mcp-connections/message",
  "httpMethod": "POST",
  "headers": {
    "Accept": "text/event-stream",
    "Authorization": "Bearer TOKEN_PLACEHOLDER",
    "Content-Type": "application/json",
    "Host": "abc123.execute-api.us-east-1.amazonaws.com",
    "X-Forwarded-Proto": "https"
  },
  "multiValueHeaders": {
    "Accept": ["text/event-stream"],
    "Authorization": ["Bearer TOKEN_PLACEHOLDER"],
    "Content-Type": ["application/json"],
    "Host": ["abc123.execute-api.us-east-1.amazonaws.com"],
    "X-Forwarded-Proto": ["https"]
  },
  "queryStringParameters": null,
  "multiValueQueryStringParameters": null,
  "pathParameters": null,
  "stageVariables": null,
  "requestContext": {
    "resourceId": "m5n6o7",
    "resourcePath": "/api/v1/mcp-connections/message",
    "httpMethod": "POST",
    "path": "/prod/api/v1/mcp-connections/message",
    "accountId": "123456789012",
    "protocol": "HTTP/1.1",
    "stage": "prod",
    "requestTimeEpoch": 1795276802000,
    "requestId": "e8cf1ce8-7b61-11e6-9a41-93e8deadbeef",
    "identity": {"sourceIp": "203.0.113.7", "userAgent": "Mozilla/5.0"},
    "domainName": "abc123.execute-api.us-east-1.amazonaws.com",
    "apiId": "abc123"
  },
  "body": "BODY_PLACEHOLDER",
  "isBase64Encoded": false
}`

// holdingLLM emits its first delta, waits for release, then the rest: the
// upstream every buffering bug would hide.
type holdingLLM struct{ release chan struct{} }

func (h holdingLLM) Stream(ctx context.Context, _ llm.Request, events func(llm.Event) error) (llm.Usage, error) {
	emit := func(s string) error { return events(llm.Event{Text: s}) }
	if err := emit("Hello"); err != nil {
		return llm.Usage{}, err
	}
	select {
	case <-h.release:
	case <-ctx.Done():
		return llm.Usage{}, ctx.Err()
	}
	for _, d := range []string{" from", " Lambda"} {
		if err := emit(d); err != nil {
			return llm.Usage{}, err
		}
	}
	return llm.Usage{InputTokens: 5, OutputTokens: 3}, nil
}

// The chat Lambda streams: the response (status, headers) returns while
// the upstream still holds, and the body yields each frame as the handler
// writes it, through the same handler the devserver mounts.
func TestStreamingChatEvent(t *testing.T) {
	st := storetest.New(t)
	tokens := auth.NewTokens([]byte(strings.Repeat("k", 32)), time.Hour)
	uid := "lambda-stream-user"
	token, err := tokens.Issue(uid)
	storetest.Must(t, err, "token")
	conn := domain.ChatConnection{ID: "conn-1", Provider: "openai", Model: "gpt-4o-mini", Name: "OpenAI GPT", CreatedAt: time.Now().UTC().Format(time.RFC3339Nano)}
	storetest.Must(t, st.PutChatConnection(context.Background(), uid, conn), "connection")

	release := make(chan struct{})
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	reg := llm.NewRegistry(0)
	reg.Use("openai", holdingLLM{release: release})
	chat := lambdaadapter.NewStreaming(chatapi.New(st, tokens, reg, chatapi.Options{StallTimeout: 10 * time.Second}).Handler(), "")

	body, _ := json.Marshal(map[string]any{"connection_id": "conn-1", "message": "Hi", "model": "gpt-4o-mini", "context": []any{}})
	bodyJSON, _ := json.Marshal(string(body)) // the event's body is a JSON string
	raw := strings.ReplaceAll(restChatMessage, "TOKEN_PLACEHOLDER", token)
	raw = strings.Replace(raw, `"BODY_PLACEHOLDER"`, string(bodyJSON), 1)
	var ev events.APIGatewayProxyRequest
	if err := json.Unmarshal([]byte(raw), &ev); err != nil {
		t.Fatal(err)
	}

	type answer struct {
		res *events.APIGatewayProxyStreamingResponse
		err error
	}
	ch := make(chan answer, 1)
	go func() {
		res, err := chat(context.Background(), ev)
		ch <- answer{res, err}
	}()
	var res *events.APIGatewayProxyStreamingResponse
	select {
	case a := <-ch:
		if a.err != nil {
			t.Fatal(a.err)
		}
		res = a.res
	case <-time.After(patience):
		t.Fatal("the response did not return while the upstream holds: the handler's output is not streamed")
	}
	if res.StatusCode != 200 {
		t.Fatalf("status = %d", res.StatusCode)
	}
	ct := res.Headers["Content-Type"]
	if vs := res.MultiValueHeaders["Content-Type"]; ct == "" && len(vs) > 0 {
		ct = vs[0]
	}
	if mt, _, _ := mime.ParseMediaType(ct); mt != "text/event-stream" {
		t.Errorf("Content-Type = %q, want text/event-stream", ct)
	}

	r := bufio.NewReader(res.Body)
	first := make(chan string, 1)
	go func() {
		var b strings.Builder
		for {
			line, err := r.ReadString('\n')
			b.WriteString(line)
			if err != nil || line == "\n" {
				first <- b.String()
				return
			}
		}
	}()
	select {
	case got := <-first:
		if want := "data: {\"content\":\"Hello\"}\n\n"; got != want {
			t.Fatalf("first frame = %q, want %q", got, want)
		}
	case <-time.After(patience):
		t.Fatal("no first frame while the upstream holds: the body is buffered")
	}

	close(release)
	rest := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(r)
		rest <- string(b)
	}()
	select {
	case got := <-rest:
		if !strings.HasPrefix(got, "data: {\"content\":\" from\"}\n\ndata: {\"content\":\" Lambda\"}\n\ndata: {\"usage\":") || !strings.HasSuffix(got, "data: [DONE]\n\n") {
			t.Errorf("rest of the stream = %q", got)
		}
	case <-time.After(patience):
		t.Fatal("the stream did not end after the upstream finished")
	}
}
