package chatapi_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/api/apitest"
	"aiwork/shared/api/chatapi"
	"aiwork/shared/api/mcpapi"
	"aiwork/shared/auth"
	"aiwork/shared/chat/chattest"
	"aiwork/shared/domain"
	"aiwork/shared/llm"
	"aiwork/shared/mcp"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// orderedSchema is a form whose fields the server lists out of
// alphabetical order: the card shows them as the server wrote them.
const orderedSchema = `{"type":"object","properties":{"zeta":{"type":"string","title":"Zeta"},"alpha":{"type":"string"},"mid":{"type":"boolean"}},"required":["zeta"]}`

// orderedFields are the property names of a requested schema, in the
// order its JSON lists them.
func orderedFields(t *testing.T, schema json.RawMessage) []string {
	t.Helper()
	var s struct {
		Properties json.RawMessage `json:"properties"`
	}
	storetest.Must(t, json.Unmarshal(schema, &s), "schema "+string(schema))
	dec := json.NewDecoder(strings.NewReader(string(s.Properties)))
	var names []string
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch v := tok.(type) {
		case json.Delim:
			if v == '{' || v == '[' {
				depth++
			} else {
				depth--
			}
		case string:
			if depth == 1 {
				names = append(names, v)
				// Skip the property's value.
				var skip json.RawMessage
				_ = dec.Decode(&skip)
			}
		}
	}
	return names
}

// askingServer is a 2025-era go-sdk server whose tools ask orderedSchema
// inside their open call: ordered (read-only, runs at once) and write
// (not read-only: the user approves it first).
func askingServer(t *testing.T) *toolServer {
	t.Helper()
	s := sdk.NewServer(&sdk.Implementation{Name: "asking-test", Version: "0.1.0"}, nil)
	ask := func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		res, err := req.Session.Elicit(ctx, &sdk.ElicitParams{Message: "Fill this in", RequestedSchema: json.RawMessage(orderedSchema)})
		if err != nil {
			return textResult("refused: " + err.Error()), nil
		}
		b, _ := json.Marshal(res.Content)
		return textResult("answer " + res.Action + " " + string(b)), nil
	}
	for _, tool := range []struct {
		name     string
		readOnly bool
	}{{"ordered", true}, {"write", false}} {
		s.AddTool(&sdk.Tool{Name: tool.name, Description: "Asks.", InputSchema: map[string]any{"type": "object"},
			Annotations: &sdk.ToolAnnotations{ReadOnlyHint: tool.readOnly}}, ask)
	}
	srv := httptest.NewServer(legacyOnly(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)))
	closeAll := func() { srv.CloseClientConnections(); srv.Close() }
	t.Cleanup(closeAll)
	return &toolServer{url: srv.URL, close: closeAll}
}

// readUntilQuestion reads a stream up to its elicitation event.
func readUntilQuestion(t *testing.T, br *bufio.Reader) elicitationJSON {
	t.Helper()
	for {
		f := chattest.ReadData(t, br)
		if e, ok := questionIn(t, f); ok {
			return e
		}
		if f == "" || f == chattest.DoneFrame || strings.HasPrefix(f, "event: error") {
			t.Fatalf("the stream ended without a question (last frame %q)", f)
		}
	}
}

// keptQuestion is the elicitation block of a kept message, if any.
func keptQuestion(t *testing.T, m chattest.Message) (elicitationJSON, bool) {
	t.Helper()
	for _, b := range m.Blocks {
		var f struct {
			Elicitation *elicitationJSON `json:"elicitation"`
		}
		if json.Unmarshal(b.Frame, &f) == nil && f.Elicitation != nil {
			return *f.Elicitation, true
		}
	}
	return elicitationJSON{}, false
}

// TestApprovedCallAsksAndIsKept: a tool the user approves (Approve, not
// Always allow) asks a question inside its open call. The kept
// conversation holds the question while it waits, as the reply that asked
// it, not yet complete (a reload shows the card, not the answered
// approval as if the reply were over); once answered, the reply is kept
// complete with the question, the result and the model's answer.
func TestApprovedCallAsksAndIsKept(t *testing.T) {
	t.Parallel()
	srv := askingServer(t)
	s := newToolStack(t, map[string]llm.Provider{"openai": callsTool("write", `{}`)}, nil)
	token, conn, mcpID := s.serverUser("asking", "Asking", srv.url)
	conv := s.newConversation(token, "Approve then ask")
	w := s.sendWithin(token, map[string]any{"connection_id": conn, "message": "go", "context": []any{},
		"mcp_connection_ids": []string{mcpID}, "conversation_id": conv.ID}, patience)
	r := parseReply(t, withoutMessageIDs(w.Body.String()))
	if r.approval == nil {
		t.Fatalf("no approval: %s", r.raw)
	}

	front := httptest.NewServer(s.h)
	t.Cleanup(front.Close)
	res := chattest.Post(t, t.Context(), front.URL, token, toolMsg{ConnectionID: conn, Approval: &approvalInput{Token: r.approval.Token, Decision: "approve"}})
	defer res.Body.Close()
	br := bufio.NewReader(res.Body)
	q := readUntilQuestion(t, br)

	// While the question waits, a reload finds it in the kept reply: it
	// is kept before the stream shows it.
	msgs := s.messages(token, conv.ID)
	last := msgs[len(msgs)-1]
	if _, found := keptQuestion(t, last); !found || last.Complete {
		t.Errorf("the kept reply while its question waits: complete %v, blocks %d, want the question and not complete", last.Complete, len(last.Blocks))
	}
	if kq, _ := keptQuestion(t, last); kq.ID != q.ID || kq.Token != "" {
		t.Errorf("kept question %+v, want id %s and no token", kq, q.ID)
	}

	if w := answerOn(s.h, token, conn, elicitationInput{ID: q.ID, Action: "accept", Content: map[string]any{"zeta": "z"}}); w.Code != http.StatusAccepted {
		t.Fatalf("answer: %d %s", w.Code, w.Body)
	}
	rest := parseReply(t, withoutMessageIDs(chattest.ReadToEnd(t, br)))
	if len(rest.results) != 1 || !strings.Contains(rest.results[0].text(), `answer accept {"zeta":"z"}`) || !rest.done {
		t.Fatalf("resumed reply %s", rest.raw)
	}
	msgs = s.messages(token, conv.ID)
	last = msgs[len(msgs)-1]
	if _, ok := keptQuestion(t, last); !ok || !last.Complete || !strings.Contains(last.Content, "got: asking__write error=false") {
		t.Errorf("kept reply after the answer: %+v", last)
	}
}

// TestQuestionKeepsTheServersFieldOrder: a form's fields reach the card in
// the order the server wrote them, live and from the kept conversation
// (a reload), not sorted by name.
func TestQuestionKeepsTheServersFieldOrder(t *testing.T) {
	t.Parallel()
	srv := askingServer(t)
	s := newToolStack(t, map[string]llm.Provider{"openai": callsTool("ordered", `{}`)}, nil)
	token, conn, mcpID := s.serverUser("asking", "Asking", srv.url)
	conv := s.newConversation(token, "Order")
	front := httptest.NewServer(s.h)
	t.Cleanup(front.Close)
	res := chattest.Post(t, t.Context(), front.URL, token, map[string]any{"connection_id": conn, "message": "go",
		"mcp_connection_ids": []string{mcpID}, "conversation_id": conv.ID})
	defer res.Body.Close()
	br := bufio.NewReader(res.Body)
	q := readUntilQuestion(t, br)
	want := "zeta,alpha,mid"
	if got := strings.Join(orderedFields(t, q.RequestedSchema), ","); got != want {
		t.Errorf("live fields %s, want the server's order %s", got, want)
	}
	if w := answerOn(s.h, token, conn, elicitationInput{Token: q.Token, Action: "decline"}); w.Code != http.StatusAccepted {
		t.Fatalf("answer: %d %s", w.Code, w.Body)
	}
	chattest.ReadToEnd(t, br)
	msgs := s.messages(token, conv.ID)
	kq, ok := keptQuestion(t, msgs[len(msgs)-1])
	if !ok {
		t.Fatalf("no kept question: %+v", msgs[len(msgs)-1])
	}
	if got := strings.Join(orderedFields(t, kq.RequestedSchema), ","); got != want {
		t.Errorf("kept fields %s, want the server's order %s", got, want)
	}
}

// TestQuestionThroughRequestStateKeepsFieldOrder: a question a 2026-07-28
// server asks through request state keeps the server's field order too.
func TestQuestionThroughRequestStateKeepsFieldOrder(t *testing.T) {
	t.Parallel()
	srv, _ := mrtrServer(t, json.RawMessage(orderedSchema))
	s := newToolStack(t, map[string]llm.Provider{"openai": callsTool("confirm", `{}`)}, nil)
	token, conn, mcpID := s.serverUser("mrtr", "MRTR", srv.url)
	r := s.sendTool(token, toolMsg{ConnectionID: conn, Message: "go", MCPConnectionIDs: []string{mcpID}})
	if len(r.elicitations) != 1 {
		t.Fatalf("reply %s: want a pause on the question", r.raw)
	}
	if got, want := strings.Join(orderedFields(t, r.elicitations[0].RequestedSchema), ","), "zeta,alpha,mid"; got != want {
		t.Errorf("fields %s, want the server's order %s", got, want)
	}
}

// TestAnswerWritesBesideTheSessionCheck: an answer given on the instance
// holding the call is written while its session is still being checked
// (one table call's time, not a read and then a write), and the call
// takes it only once the session passed. An answer whose session turned
// out ended is refused and taken back: the question waits again.
func TestAnswerWritesBesideTheSessionCheck(t *testing.T) {
	t.Parallel()
	for _, ended := range []bool{false, true} {
		name := "live"
		if ended {
			name = "ended"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := askingServer(t)
			held := &heldSessions{}
			policy := mcp.Policy{AllowLoopback: true}
			pool := mcp.NewPool(policy.Client(), time.Minute, 16)
			t.Cleanup(pool.Close)
			s := newStackMCP(t, chatapi.Options{StallTimeout: patience, MaxStreamDuration: 6 * time.Second, Tools: chatapi.ToolOptions{Sealer: toolSealer, Pool: pool}},
				map[string]llm.Provider{"openai": callsTool("ordered", `{}`)},
				func(st *store.Store) *auth.Tokens {
					held.st = st
					return auth.NewTokens(secret, time.Hour).WithSessions(held)
				},
				mcpapi.Options{Policy: policy, Sealer: toolSealer})
			s.addMCPServer(domain.MCPServer{ID: "asking", Title: "Asking", EndpointURL: srv.url})
			uid, token := apitest.User(t, s.st, s.tokens, "asked")
			mcpID := s.connectMCP(token, "asking", "")
			conn := s.connect(token, "openai", "gpt-4o-mini")

			r := askThrough(t, s, token, conn, mcpID, func(e elicitationJSON) {
				release := make(chan struct{})
				held.hold.Store(&release)
				answered := make(chan int, 1)
				go func() {
					answered <- answerOn(s.h, token, conn, elicitationInput{Token: e.Token, Action: "accept", Content: map[string]any{"zeta": "z"}}).Code
				}()
				written := false
				for deadline := time.Now().Add(patience); !written && time.Now().Before(deadline); {
					q, err := s.st.GetElicitation(t.Context(), uid, e.ID)
					storetest.Must(t, err, "question")
					if written = q.Answered(); !written {
						<-time.After(5 * time.Millisecond) // the next read of the question
					}
				}
				if !written {
					close(release)
					t.Fatalf("the answer was not written while its session was checked")
				}
				if ended {
					if _, err := s.st.EndSessions(t.Context(), uid); err != nil {
						t.Fatal(err)
					}
				}
				held.hold.Store(nil)
				close(release)
				code := <-answered
				switch {
				case ended && code != http.StatusUnauthorized, !ended && code != http.StatusAccepted:
					t.Errorf("answer: %d (session ended %v)", code, ended)
				}
				if ended {
					q, err := s.st.GetElicitation(t.Context(), uid, e.ID)
					if err != nil || q.Answered() {
						t.Errorf("the question after an ended session's answer: %+v %v, want it waiting again", q, err)
					}
				}
			})
			switch {
			case len(r.results) != 1:
				t.Fatalf("reply %s", r.raw)
			case !ended && !strings.Contains(r.results[0].text(), `answer accept {"zeta":"z"}`):
				t.Errorf("the server got %q", r.results[0].text())
			case ended && !strings.Contains(r.results[0].text(), "not answered in time"):
				t.Errorf("the server got %q, want the question left unanswered", r.results[0].text())
			}
		})
	}
}
