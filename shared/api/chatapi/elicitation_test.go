package chatapi_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/api/apitest"
	"aiwork/shared/api/chatapi"
	"aiwork/shared/api/conversationsapi"
	"aiwork/shared/chat/chattest"
	"aiwork/shared/llm"
	"aiwork/shared/store/storetest"
)

// Frames of a running call and of a server's question, decoded.
type (
	elicitationJSON struct {
		Token           string          `json:"token"`
		ID              string          `json:"id"`
		Mode            string          `json:"mode"`
		Message         string          `json:"message"`
		RequestedSchema json.RawMessage `json:"requested_schema"`
		URL             string          `json:"url"`
		ElicitationID   string          `json:"elicitation_id"`
		ExpiresAt       string          `json:"expires_at"`
		Call            toolCallJSON    `json:"call"`
	}
	progressJSON struct {
		ID       string   `json:"id"`
		Progress float64  `json:"progress"`
		Total    *float64 `json:"total"`
		Message  string   `json:"message"`
	}
	logJSON struct {
		ID    string          `json:"id"`
		Level string          `json:"level"`
		Data  json.RawMessage `json:"data"`
	}
	elicitationInput struct {
		Token   string         `json:"token,omitempty"`
		ID      string         `json:"id,omitempty"`
		Action  string         `json:"action"`
		Content map[string]any `json:"content,omitempty"`
	}
	answerMsg struct {
		ConnectionID string           `json:"connection_id"`
		Elicitation  elicitationInput `json:"elicitation"`
	}
)

// legacyOnly makes a go-sdk server a 2025-era one: it refuses
// server/discover, so the client initializes at 2025-11-25, and a server
// asks its questions inside its open tools/call.
func legacyOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal(body, &m) == nil && m.Method == "server/discover" {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`, m.ID)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		h.ServeHTTP(w, r)
	})
}

// formSchema is a form the spec allows, with SEP-1034 defaults.
var formSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"name":  map[string]any{"type": "string", "title": "Name", "default": "Ada"},
		"age":   map[string]any{"type": "integer", "minimum": 0, "default": 30},
		"color": map[string]any{"type": "string", "enum": []any{"red", "green"}},
		"ok":    map[string]any{"type": "boolean"},
	},
	"required": []any{"name"},
}

// elicitServer is a 2025-era test server whose tools ask their user: ask
// (a form), nested (a schema the spec does not allow), url (a plain http
// page), and work (progress and log messages); refused records what the
// server was told when a question was refused, cancelled when a call was.
type elicitServer struct {
	*toolServer
	mu        sync.Mutex
	refused   []string
	cancelled chan struct{}
}

func newElicitServer(t *testing.T) *elicitServer {
	t.Helper()
	es := &elicitServer{cancelled: make(chan struct{}, 4)}
	s := sdk.NewServer(&sdk.Implementation{Name: "elicit-test", Version: "0.1.0"}, nil)
	ask := func(params *sdk.ElicitParams) sdk.ToolHandler {
		return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			res, err := req.Session.Elicit(ctx, params)
			if err != nil {
				es.mu.Lock()
				es.refused = append(es.refused, err.Error())
				es.mu.Unlock()
				// A call cancelled while it asks hears so beside the
				// question's refusal.
				// (The cancellation may come first, ending Elicit itself.)
				if ctx.Err() != nil || strings.Contains(err.Error(), "not answered in time") {
					select {
					case <-ctx.Done():
						es.cancelled <- struct{}{}
					case <-time.After(patience):
					}
				}
				return textResult("refused: " + err.Error()), nil
			}
			b, _ := json.Marshal(res.Content)
			return textResult("answer " + res.Action + " " + string(b)), nil
		}
	}
	add := func(name string, h sdk.ToolHandler) {
		s.AddTool(&sdk.Tool{Name: name, Description: "Test tool " + name + ".", InputSchema: map[string]any{"type": "object"},
			Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}}, h)
	}
	add("ask", ask(&sdk.ElicitParams{Message: "Who are you?", RequestedSchema: formSchema}))
	add("nested", ask(&sdk.ElicitParams{Message: "Nested", RequestedSchema: json.RawMessage(
		`{"type":"object","properties":{"address":{"type":"object","properties":{"city":{"type":"string"}}}}}`)}))
	add("url", ask(&sdk.ElicitParams{Mode: "url", Message: "Pay here", URL: "http://example.com/pay", ElicitationID: "e1"}))
	add("work", func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		tok := req.Params.GetProgressToken()
		for i := 1; i <= 3; i++ {
			_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: tok, Progress: float64(i), Total: 3, Message: fmt.Sprintf("step %d", i)})
			_ = req.Session.Log(ctx, &sdk.LoggingMessageParams{Level: "info", Data: fmt.Sprintf("did step %d", i)})
		}
		_ = req.Session.Log(ctx, &sdk.LoggingMessageParams{Level: "debug", Data: "below info: not shown"})
		return textResult("worked"), nil
	})
	srv := httptest.NewServer(legacyOnly(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)))
	closeAll := func() { srv.CloseClientConnections(); srv.Close() }
	t.Cleanup(closeAll)
	es.toolServer = &toolServer{url: srv.URL, close: closeAll}
	return es
}

func (es *elicitServer) told() []string {
	es.mu.Lock()
	defer es.mu.Unlock()
	return append([]string(nil), es.refused...)
}

// elicitStack is a tool stack with the elicit server connected: the
// user's token and the chat and MCP connections.
func elicitStack(t *testing.T, tool string, tweak func(*chatapi.Options)) (*stack, *elicitServer, string, string, string) {
	t.Helper()
	es := newElicitServer(t)
	s := newToolStack(t, map[string]llm.Provider{"openai": callsTool(tool, `{}`)}, tweak)
	token, conn, mcpID := s.serverUser("asker", "Asker", es.url)
	return s, es, token, conn, mcpID
}

// questionIn decodes frame f when it is an elicitation event.
func questionIn(t *testing.T, f string) (elicitationJSON, bool) {
	t.Helper()
	data, ok := strings.CutPrefix(f, "event: elicitation\ndata: ")
	if !ok {
		return elicitationJSON{}, false
	}
	var e elicitationJSON
	storetest.Must(t, json.Unmarshal([]byte(strings.TrimSpace(data)), &e), "elicitation frame")
	return e, true
}

// askThrough sends the message calling the stack's tool over a real
// connection, reads up to the elicitation event, lets answer answer it,
// and answers the whole reply.
func askThrough(t *testing.T, s *stack, token, conn, mcpID string, answer func(e elicitationJSON)) reply {
	t.Helper()
	front := httptest.NewServer(s.h)
	t.Cleanup(front.Close)
	res := chattest.Post(t, t.Context(), front.URL, token, toolMsg{ConnectionID: conn, Message: "go", MCPConnectionIDs: []string{mcpID}})
	defer res.Body.Close()
	br := bufio.NewReader(res.Body)
	var all strings.Builder
	for {
		f := chattest.ReadData(t, br)
		all.WriteString(f)
		if e, ok := questionIn(t, f); ok {
			answer(e)
			break
		}
		if f == chattest.DoneFrame || strings.HasPrefix(f, "event: error") || f == "" {
			return parseReply(t, all.String())
		}
	}
	all.WriteString(chattest.ReadToEnd(t, br))
	return parseReply(t, all.String())
}

// answerOn posts an answer to h (a chat function) and answers the response.
func answerOn(h http.Handler, token, conn string, in elicitationInput) *httptest.ResponseRecorder {
	return apitest.Do(h, "POST", chatapi.Path, token, chattest.MustJSON(answerMsg{ConnectionID: conn, Elicitation: in}), nil)
}

// TestElicitationHeld: a 2025-era server asks inside its open tools/call;
// the stream sends the question and stays open, the answer (accept with
// content, decline, cancel) is acknowledged 202 and reaches the server,
// and the reply goes on to [DONE]. The question is single use and the
// user's own; its content is checked against its form.
func TestElicitationHeld(t *testing.T) {
	t.Parallel()
	s, _, token, conn, mcpID := elicitStack(t, "ask", nil)
	_, other := s.user()

	r := askThrough(t, s, token, conn, mcpID, func(e elicitationJSON) {
		if e.Mode != "form" || e.Message != "Who are you?" || e.Call.Tool != "ask" || e.ExpiresAt == "" || e.ID == "" ||
			!strings.Contains(string(e.RequestedSchema), `"default":"Ada"`) {
			t.Errorf("elicitation %+v", e)
		}
		w := answerOn(s.h, token, conn, elicitationInput{Token: e.Token, Action: "accept", Content: map[string]any{"name": "Ada", "age": 3.5}})
		if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "content.age") {
			t.Errorf("bad content: %d %s, want 400 naming content.age", w.Code, w.Body)
		}
		if w := answerOn(s.h, other, conn, elicitationInput{Token: e.Token, Action: "accept"}); w.Code != http.StatusNotFound {
			t.Errorf("another user's answer: %d %s, want 404", w.Code, w.Body)
		}
		if w := answerOn(s.h, token, conn, elicitationInput{Token: "el_forged", Action: "decline"}); w.Code != http.StatusNotFound {
			t.Errorf("forged token: %d %s, want 404", w.Code, w.Body)
		}
		w = answerOn(s.h, token, conn, elicitationInput{Token: e.Token, Action: "accept", Content: map[string]any{"name": "Grace", "age": 36, "color": "green", "ok": true}})
		if w.Code != http.StatusAccepted || !strings.Contains(w.Body.String(), `"accepted":true`) {
			t.Fatalf("answer: %d %s, want 202 accepted", w.Code, w.Body)
		}
		if w := answerOn(s.h, token, conn, elicitationInput{Token: e.Token, Action: "decline"}); w.Code != http.StatusConflict {
			t.Errorf("replayed answer: %d %s, want 409", w.Code, w.Body)
		}
	})
	if len(r.elicitations) != 1 || len(r.results) != 1 || !r.done {
		t.Fatalf("reply %s", r.raw)
	}
	if got := r.results[0].text(); !strings.Contains(got, `answer accept {"age":36,"color":"green","name":"Grace","ok":true}`) {
		t.Errorf("the server got %q", got)
	}
	if want := []string{"tool_call", "elicitation", "tool_result", "content", "usage", "done"}; strings.Join(r.order, ",") != strings.Join(want, ",") {
		t.Errorf("order %v, want %v", r.order, want)
	}

	for _, action := range []string{"decline", "cancel"} {
		r := askThrough(t, s, token, conn, mcpID, func(e elicitationJSON) {
			if w := answerOn(s.h, token, conn, elicitationInput{ID: e.ID, Action: action}); w.Code != http.StatusAccepted {
				t.Fatalf("%s by id: %d %s", action, w.Code, w.Body)
			}
		})
		if len(r.results) != 1 || !strings.Contains(r.results[0].text(), "answer "+action) || !r.done {
			t.Errorf("%s: %s", action, r.raw)
		}
	}
}

// TestElicitationAnsweredOnAnotherInstance: the answer comes to another
// chat instance (another Engine on the same table): the instance holding
// the call learns of it from the table and goes on.
func TestElicitationAnsweredOnAnotherInstance(t *testing.T) {
	t.Parallel()
	s, _, token, conn, mcpID := elicitStack(t, "ask", nil)
	second := chatapi.New(s.st, s.tokens, llm.NewRegistry(0), chatapi.Options{}).Handler()
	r := askThrough(t, s, token, conn, mcpID, func(e elicitationJSON) {
		if w := answerOn(second, token, conn, elicitationInput{Token: e.Token, Action: "accept", Content: map[string]any{"name": "Lin"}}); w.Code != http.StatusAccepted {
			t.Fatalf("answer on the second instance: %d %s", w.Code, w.Body)
		}
	})
	if len(r.results) != 1 || !strings.Contains(r.results[0].text(), `answer accept {"age":30,"name":"Lin"}`) || !r.done {
		t.Errorf("reply %s", r.raw)
	}
}

// TestElicitationRefused: a form the spec does not allow (a nested
// object) and a page on plain http are refused to the server with the
// reason; the browser never sees them.
func TestElicitationRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ tool, told string }{
		{"nested", "nested"},
		{"url", "https"},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			t.Parallel()
			s, es, token, conn, mcpID := elicitStack(t, tc.tool, func(o *chatapi.Options) { o.Tools.LoopbackURLs = true })
			r := s.sendTool(token, toolMsg{ConnectionID: conn, Message: "go", MCPConnectionIDs: []string{mcpID}})
			if len(r.elicitations) != 0 || len(r.results) != 1 || !r.done {
				t.Fatalf("reply %s", r.raw)
			}
			if told := es.told(); len(told) != 1 || !strings.Contains(told[0], tc.told) {
				t.Errorf("the server was told %q, want the reason (%s)", told, tc.told)
			}
		})
	}
}

// TestElicitationExpires: a question left unanswered past its expiry
// (within the stream's own limit) cancels the call, telling the server,
// and the reply says why and finishes.
func TestElicitationExpires(t *testing.T) {
	t.Parallel()
	s, es, token, conn, mcpID := elicitStack(t, "ask", func(o *chatapi.Options) { o.MaxStreamDuration = 3 * time.Second })
	var question elicitationJSON
	r := askThrough(t, s, token, conn, mcpID, func(e elicitationJSON) { question = e })
	if len(r.results) != 1 || !strings.Contains(r.results[0].text(), "The server's question was not answered in time.") || !r.done {
		t.Fatalf("reply %s", r.raw)
	}
	waitFor(t, es.cancelled, "the server's call was not cancelled")
	if w := answerOn(s.h, token, conn, elicitationInput{Token: question.Token, Action: "decline"}); w.Code != http.StatusConflict {
		t.Errorf("late answer: %d %s, want 409", w.Code, w.Body)
	}
}

// TestToolProgressAndLogs: a call's progress notifications and its log
// messages (info and above) are frames of its tool block, in order,
// before its result.
func TestToolProgressAndLogs(t *testing.T) {
	t.Parallel()
	s, _, token, conn, mcpID := elicitStack(t, "work", nil)
	r := s.sendTool(token, toolMsg{ConnectionID: conn, Message: "go", MCPConnectionIDs: []string{mcpID}})
	if len(r.calls) != 1 || len(r.results) != 1 || !r.done {
		t.Fatalf("reply %s", r.raw)
	}
	id := r.calls[0].ID
	if len(r.progress) != 3 || len(r.logs) != 3 {
		t.Fatalf("progress %+v, logs %+v: want 3 of each", r.progress, r.logs)
	}
	for i, p := range r.progress {
		if p.ID != id || p.Progress != float64(i+1) || p.Total == nil || *p.Total != 3 || p.Message != fmt.Sprintf("step %d", i+1) {
			t.Errorf("progress %d: %+v", i, p)
		}
	}
	for i, l := range r.logs {
		if l.ID != id || l.Level != "info" || string(l.Data) != fmt.Sprintf(`"did step %d"`, i+1) {
			t.Errorf("log %d: %+v %s", i, l, l.Data)
		}
	}
	last := 0
	for i, o := range r.order {
		if o == "tool_progress" || o == "tool_log" {
			last = i
		}
	}
	if r.order[last+1] != "tool_result" {
		t.Errorf("order %v: progress and logs before the result", r.order)
	}
}

// mrtrServer is a 2026-07-28 go-sdk server whose tool confirm asks through
// request state (SEP-2322): its first answer is an input-required result,
// its retry sees the user's answer and the state echoed.
func mrtrServer(t *testing.T, schema any) (*toolServer, *[]string) {
	t.Helper()
	var mu sync.Mutex
	var seen []string
	s := sdk.NewServer(&sdk.Implementation{Name: "mrtr-test", Version: "0.1.0"}, nil)
	s.AddTool(&sdk.Tool{Name: "confirm", Description: "Confirms.", InputSchema: map[string]any{"type": "object"},
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			if len(req.Params.InputResponses) == 0 {
				return &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{
					"q1": &sdk.ElicitParams{Message: "Sure?", RequestedSchema: schema},
				}, RequestState: `{"n":1}`}, nil
			}
			er, _ := req.Params.InputResponses["q1"].(*sdk.ElicitResult)
			b, _ := json.Marshal(er)
			mu.Lock()
			seen = append(seen, req.Params.RequestState)
			mu.Unlock()
			return textResult("confirmed " + string(b) + " state " + req.Params.RequestState), nil
		})
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(srv.Close)
	return &toolServer{url: srv.URL, close: srv.Close}, &seen
}

// TestElicitationRequestState: a 2026-07-28 server asks through request
// state: the reply pauses (no [DONE], nothing held), and the answer
// resumes it with a stream, the call retried with the answer and the
// server's state echoed exactly; the question is single use.
func TestElicitationRequestState(t *testing.T) {
	t.Parallel()
	srv, seen := mrtrServer(t, map[string]any{"type": "object", "properties": map[string]any{"confirmed": map[string]any{"type": "boolean"}}})
	s := newToolStack(t, map[string]llm.Provider{"openai": callsTool("confirm", `{}`)}, nil)
	token, conn, mcpID := s.serverUser("mrtr", "MRTR", srv.url)

	r := s.sendTool(token, toolMsg{ConnectionID: conn, Message: "go", MCPConnectionIDs: []string{mcpID}})
	if len(r.elicitations) != 1 || r.done || len(r.results) != 0 {
		t.Fatalf("first reply %s: want a pause on the question", r.raw)
	}
	e := r.elicitations[0]
	if e.Message != "Sure?" || e.Call.Tool != "confirm" || e.Token == "" {
		t.Errorf("question %+v", e)
	}
	if w := answerOn(s.h, token, conn, elicitationInput{Token: e.Token, Action: "accept", Content: map[string]any{"confirmed": "yes"}}); w.Code != http.StatusBadRequest ||
		!strings.Contains(w.Body.String(), "content.confirmed") {
		t.Errorf("bad content: %d %s", w.Code, w.Body)
	}
	w := answerOn(s.h, token, conn, elicitationInput{Token: e.Token, Action: "accept", Content: map[string]any{"confirmed": true}})
	if w.Code != http.StatusOK {
		t.Fatalf("answer: %d %s", w.Code, w.Body)
	}
	r = parseReply(t, w.Body.String())
	if len(r.results) != 1 || !r.done || !strings.Contains(r.results[0].text(), `confirmed {"action":"accept","content":{"confirmed":true}} state {"n":1}`) {
		t.Errorf("resumed reply %s", r.raw)
	}
	if len(*seen) != 1 || (*seen)[0] != `{"n":1}` {
		t.Errorf("the server saw states %q", *seen)
	}
	if w := answerOn(s.h, token, conn, elicitationInput{Token: e.Token, Action: "decline"}); w.Code != http.StatusConflict {
		t.Errorf("replayed answer: %d %s, want 409", w.Code, w.Body)
	}
}

// TestElicitationRequestStateBadSchema: a question through request state
// whose form the spec does not allow fails the call with the reason; the
// browser gets no card.
func TestElicitationRequestStateBadSchema(t *testing.T) {
	t.Parallel()
	srv, _ := mrtrServer(t, map[string]any{"type": "object", "properties": map[string]any{
		"people": map[string]any{"type": "array", "items": map[string]any{"type": "object"}}}})
	s := newToolStack(t, map[string]llm.Provider{"openai": callsTool("confirm", `{}`)}, nil)
	token, conn, mcpID := s.serverUser("mrtr", "MRTR", srv.url)
	r := s.sendTool(token, toolMsg{ConnectionID: conn, Message: "go", MCPConnectionIDs: []string{mcpID}})
	if len(r.elicitations) != 0 || len(r.results) != 1 || !r.results[0].IsError || !strings.Contains(r.results[0].text(), "array of objects") || !r.done {
		t.Errorf("reply %s", r.raw)
	}
}

// TestToolStopSendsCancelled: the user's Stop of a kept reply while its
// tool runs tells the server to cancel the call (notifications/cancelled).
func TestToolStopSendsCancelled(t *testing.T) {
	t.Parallel()
	started, cancelled := make(chan struct{}), make(chan struct{})
	srv := newToolServer(t, nil, testTool{name: "slow", readOnly: true, handle: func(ctx context.Context, _ map[string]any) (*sdk.CallToolResult, error) {
		close(started)
		<-ctx.Done()
		close(cancelled)
		return nil, ctx.Err()
	}})
	s := newToolStack(t, map[string]llm.Provider{"openai": callsTool("slow", `{}`)}, nil)
	token, conn, mcpID := s.serverUser("slow", "Slow", srv.url)
	c := s.newConversation(token, "stop")
	front := httptest.NewServer(s.h)
	t.Cleanup(front.Close)
	res := chattest.Post(t, t.Context(), front.URL, token, map[string]any{"connection_id": conn, "message": "go",
		"mcp_connection_ids": []string{mcpID}, "conversation_id": c.ID})
	defer res.Body.Close()
	br := bufio.NewReader(res.Body)
	var ids struct {
		MessageIDs struct{ Assistant string } `json:"message_ids"`
	}
	storetest.Must(t, json.Unmarshal([]byte(strings.TrimSpace(strings.TrimPrefix(chattest.ReadData(t, br), "data: "))), &ids), "message ids")
	waitFor(t, started, "the tool never started")
	if w := s.do("POST", conversationsapi.ConversationsPath+"/"+c.ID+"/messages/"+ids.MessageIDs.Assistant+"/stop", token, ""); w.Code/100 != 2 {
		t.Fatalf("stop: %d %s", w.Code, w.Body)
	}
	waitFor(t, cancelled, "the server was not told to cancel the call")
}

// TestElicitationRequestStateSecondQuestionBadSchema: of two questions a
// 2026-07-28 server asks at once, the second's form is one the spec does
// not allow: once the first is answered, the call fails with the reason
// (the resumed reply still answers it, and the model goes on).
func TestElicitationRequestStateSecondQuestionBadSchema(t *testing.T) {
	t.Parallel()
	s := sdk.NewServer(&sdk.Implementation{Name: "mrtr-two", Version: "0.1.0"}, nil)
	s.AddTool(&sdk.Tool{Name: "confirm", Description: "Confirms.", InputSchema: map[string]any{"type": "object"},
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{
				"q1": &sdk.ElicitParams{Message: "Sure?", RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}}}},
				"q2": &sdk.ElicitParams{Message: "Who?", RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{
					"people": map[string]any{"type": "array", "items": map[string]any{"type": "object"}}}}},
			}}, nil
		})
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(srv.Close)
	st := newToolStack(t, map[string]llm.Provider{"openai": callsTool("confirm", `{}`)}, nil)
	token, conn, mcpID := st.serverUser("mrtr", "MRTR", srv.URL)

	r := st.sendTool(token, toolMsg{ConnectionID: conn, Message: "go", MCPConnectionIDs: []string{mcpID}})
	if len(r.elicitations) != 1 || r.elicitations[0].Message != "Sure?" {
		t.Fatalf("first reply %s: want a pause on the first question", r.raw)
	}
	w := answerOn(st.h, token, conn, elicitationInput{Token: r.elicitations[0].Token, Action: "accept", Content: map[string]any{"ok": true}})
	if w.Code != http.StatusOK {
		t.Fatalf("answer: %d %s", w.Code, w.Body)
	}
	r = parseReply(t, w.Body.String())
	if len(r.elicitations) != 0 || len(r.results) != 1 || !r.results[0].IsError || !strings.Contains(r.results[0].text(), "array of objects") ||
		!strings.Contains(r.text, "got: ") || !r.done {
		t.Errorf("resumed reply %s: want the call failed with the reason, the model's answer, [DONE]", r.raw)
	}
}
