package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/routes"
	"aiwork/shared/seeddata"
	"aiwork/shared/store"
)

// The elicitation round part (tools in chat): a model calls a tool whose
// server asks its user inside the open call (elicitation/create); the
// card's answer is posted as the web app posts it. The round's overhead is
// the time from that answer's POST to the server receiving the result,
// beside the same question answered directly by a go-sdk client's
// handler (from its answer to the server receiving it).
const (
	elicitRounds = 300
	elicitWarmup = 3
)

func (b *bench) elicitationRound(ctx context.Context) error {
	received := make(chan time.Time, 1)
	asker := sdk.NewServer(&sdk.Implementation{Name: "bench-asker", Version: "1"}, nil)
	asker.AddTool(&sdk.Tool{Name: "ask", Description: "Asks the user a name.", InputSchema: map[string]any{"type": "object"},
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			res, err := req.Session.Elicit(ctx, &sdk.ElicitParams{Message: "Your name?", RequestedSchema: map[string]any{
				"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string", "default": "Ada"}}}})
			received <- time.Now()
			if err != nil {
				return nil, err
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "hello " + fmt.Sprint(res.Content["name"])}}}, nil
		})
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return asker }, nil))
	defer func() { srv.CloseClientConnections(); srv.Close() }()

	up := &toolUpstream{tool: "ask"}
	upstream := httptest.NewServer(up)
	defer upstream.Close()
	stack, err := b.startMCPStack(ctx, "aiwork-bench-elicitation", upstream.URL)
	if err != nil {
		return err
	}
	defer stack.close()
	if err := seeddata.SetLocalReference(ctx, stack.st, srv.URL); err != nil {
		return err
	}
	token, chatConn, mcpConn, err := toolUser(ctx, stack.client, stack.ours)
	if err != nil {
		return err
	}
	body, _ := json.Marshal(map[string]any{"connection_id": chatConn, "message": "Ask me.", "mcp_connection_ids": []string{mcpConn}})
	var rounds []time.Duration
	for range elicitWarmup + elicitRounds {
		d, err := elicitOnce(ctx, stack.client, stack.ours, token, chatConn, string(body), received)
		if err != nil {
			return err
		}
		rounds = append(rounds, d)
	}
	direct, err := directElicitations(ctx, srv.URL, elicitWarmup+elicitRounds, received)
	if err != nil {
		return err
	}
	ourP99, refP99 := percentile(rounds[elicitWarmup:], 99), percentile(direct[elicitWarmup:], 99)
	b.rows = append(b.rows, addedRow("chat elicitation round overhead p99", ms(ourP99), ms(refP99), "ms", toolBudgetMS))
	b.note("chat elicitation round: %d questions asked inside the open call, answered through the API; p50 %.3f ms through the chat, %.3f ms direct",
		elicitRounds, ms(percentile(rounds[elicitWarmup:], 50)), ms(percentile(direct[elicitWarmup:], 50)))
	if writes, err := answerWrites(ctx, stack.st, elicitWarmup+elicitRounds); err == nil {
		b.note("chat elicitation round: the answer's single-use table write alone (store.AnswerElicitation on the same engine), which the round cannot do without: p50 %.3f ms, p99 %.3f ms",
			ms(percentile(writes[elicitWarmup:], 50)), ms(percentile(writes[elicitWarmup:], 99)))
	}
	return nil
}

// answerWrites times n answers written to held questions, as the answer
// route writes them before the call may take one (any instance may hold
// the call, so the answer is kept once before it is used).
func answerWrites(ctx context.Context, st *store.Store, n int) ([]time.Duration, error) {
	out := make([]time.Duration, 0, n)
	expires := time.Now().Add(time.Hour)
	for i := range n {
		hash := fmt.Sprintf("bench-answer-%d-%d", time.Now().UnixNano(), i)
		if err := st.SaveElicitation(ctx, "bench-answer-writes", hash, store.Elicitation{Held: true, Request: []byte(`{}`), Expires: expires}); err != nil {
			return nil, err
		}
		start := time.Now()
		if err := st.AnswerElicitation(ctx, "bench-answer-writes", hash, "accept", []byte(`{"name":"Lin"}`), time.Now()); err != nil {
			return nil, err
		}
		out = append(out, time.Since(start))
	}
	return out, nil
}

// elicitOnce sends the message, answers its question when the event comes
// and reads the reply to its end; it answers the time from the answer's
// POST to the server receiving the result.
func elicitOnce(ctx context.Context, client *http.Client, base, token, chatConn, body string, received <-chan time.Time) (time.Duration, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+routes.ChatPath, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	var took time.Duration
	event := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			data := strings.TrimPrefix(line, "data: ")
			switch {
			case event == "elicitation":
				var q struct{ Token string }
				if err := json.Unmarshal([]byte(data), &q); err != nil {
					return 0, err
				}
				answer := map[string]any{"connection_id": chatConn, "elicitation": map[string]any{"token": q.Token, "action": "accept", "content": map[string]any{"name": "Lin"}}}
				start := time.Now()
				var ack struct {
					Accepted bool `json:"accepted"`
				}
				if err := postJSON(ctx, client, base+routes.ChatPath, token, answer, &ack); err != nil || !ack.Accepted {
					return 0, fmt.Errorf("answer: %v (accepted %v)", err, ack.Accepted)
				}
				select {
				case at := <-received:
					took = at.Sub(start)
				case <-time.After(30 * time.Second):
					return 0, fmt.Errorf("the server never received the answer")
				}
			case event == "error":
				return 0, fmt.Errorf("stream error: %s", data)
			case data == "[DONE]":
				if took == 0 {
					return 0, fmt.Errorf("a reply ended without asking")
				}
				return took, nil
			}
			event = ""
		}
	}
	return 0, fmt.Errorf("an elicitation round did not complete: %v", sc.Err())
}

// directElicitations times n questions answered by a go-sdk client's
// handler on one warm session: from its answer to the server receiving it.
func directElicitations(ctx context.Context, endpoint string, n int, received <-chan time.Time) ([]time.Duration, error) {
	answered := make(chan time.Time, 1)
	c := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, &sdk.ClientOptions{
		ElicitationHandler: func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			answered <- time.Now()
			return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"name": "Lin"}}, nil
		}})
	cs, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1, DisableStandaloneSSE: true}, nil)
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	out := make([]time.Duration, 0, n)
	for range n {
		if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "ask", Arguments: map[string]any{}}); err != nil {
			return nil, err
		}
		start, at := <-answered, <-received
		out = append(out, at.Sub(start))
	}
	return out, nil
}
