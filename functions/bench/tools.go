package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/config"
	"aiwork/shared/local/devstack"
	"aiwork/shared/local/localmcp"
	"aiwork/shared/routes"
	"aiwork/shared/seeddata"
	"aiwork/shared/store"
)

// The tool round part (DESIGN §10, tools in chat): an upstream speaking
// OpenAI's wire format calls the reference server's get-sum; the chat runs
// it and sends the result back. The round's overhead is the time from the
// upstream's last byte of the tool call to the next request (the result)
// reaching it, beside the same tools/call made directly with the go-sdk
// client on a warm session (the MCP server's own time plus loopback).
const (
	toolRounds   = 400 // a p99 of a few hundred samples, not the largest of 100
	toolWarmup   = 3
	toolBudgetMS = 5.0 // added p99
)

func (b *bench) toolRound(ctx context.Context) error {
	up := &toolUpstream{}
	upstream := httptest.NewServer(up)
	defer upstream.Close()
	stack, err := b.startMCPStack(ctx, "aiwork-bench-tools", upstream.URL)
	if err != nil {
		return err
	}
	defer stack.close()
	ref, ours, client := stack.ref, stack.ours, stack.client

	token, chatConn, mcpConn, err := toolUser(ctx, client, ours)
	if err != nil {
		return err
	}
	body, _ := json.Marshal(map[string]any{"connection_id": chatConn, "message": "Add 2 and 3.", "mcp_connection_ids": []string{mcpConn}})
	for range toolWarmup + toolRounds {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ours+routes.ChatPath, strings.NewReader(string(body)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := client.Do(req)
		if err != nil {
			return err
		}
		reply, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if !strings.Contains(string(reply), `"tool_result"`) || !strings.HasSuffix(string(reply), "data: [DONE]\n\n") {
			return fmt.Errorf("a tool round did not complete: %.300s", reply)
		}
	}
	rounds := up.measured()
	if len(rounds) < toolWarmup+toolRounds {
		return fmt.Errorf("%d tool rounds measured, want %d", len(rounds), toolWarmup+toolRounds)
	}
	direct, err := directToolCalls(ctx, ref.Endpoint, toolWarmup+toolRounds)
	if err != nil {
		return err
	}
	ourP99, refP99 := percentile(rounds[toolWarmup:], 99), percentile(direct[toolWarmup:], 99)
	b.rows = append(b.rows, addedRow("chat tool round overhead p99", ms(ourP99), ms(refP99), "ms", toolBudgetMS))
	b.note("chat tool round: %d rounds of get-sum on the reference server, warm session; p50 %.3f ms through the chat, %.3f ms direct",
		toolRounds, ms(percentile(rounds[toolWarmup:], 50)), ms(percentile(direct[toolWarmup:], 50)))
	return nil
}

// mcpStack is our whole stack (devstack.Handler, as the devserver mounts
// it) on its own table, with the MCP reference server in the registry and
// OpenAI pointed at upstream.
type mcpStack struct {
	st      *store.Store
	ref     *localmcp.Server
	ours    string // our API's base URL
	client  *http.Client
	closers []func()
}

func (m *mcpStack) close() {
	for i := len(m.closers) - 1; i >= 0; i-- {
		m.closers[i]()
	}
}

func (b *bench) startMCPStack(ctx context.Context, table, upstream string) (m *mcpStack, err error) {
	m = &mcpStack{client: &http.Client{Timeout: 30 * time.Second}}
	defer func() {
		if err != nil {
			m.close()
		}
	}()
	if m.ref, err = localmcp.Start(ctx, localmcp.ModeStreamable); err != nil {
		return m, err
	}
	m.closers = append(m.closers, m.ref.Stop)
	sc := config.Store{TableName: table, Endpoint: b.dynamo, Region: "us-east-1"}
	st, err := store.New(ctx, sc)
	if err != nil {
		return m, err
	}
	if err := devstack.Prepare(ctx, st); err != nil {
		return m, err
	}
	m.st = st
	if err := seeddata.SetLocalReference(ctx, st, m.ref.Endpoint); err != nil {
		return m, err
	}
	cfg := devstack.ConfigFor(sc, []byte("bench-jwt-secret-0123456789abcdef0123456789"), 5, "whsec_bench")
	cfg.Chat.OpenAIKey, cfg.Chat.OpenAIBaseURL = "sk-bench", upstream+"/v1/"
	cfg.Chat.Limits = config.ChatLimits{MaxConcurrentStreams: 4, RequestsPerMinute: 10_000, DailyTokenBudget: 100_000_000}
	cfg.MCP.Outbound.AllowLoopback = true
	// The connect rows make a hundred connects a minute: far from a real user's limit.
	cfg.MCP.ConnectsPerMinute, cfg.MCP.HostConnectsPerMinute = 100_000, 100_000
	h, err := devstack.Handler(st, cfg, "")
	if err != nil {
		return m, err
	}
	srv := httptest.NewServer(h)
	m.ours = srv.URL
	m.closers = append(m.closers, srv.Close)
	return m, nil
}

// toolUser registers a user, connects the reference server and an OpenAI
// chat connection, and answers the token and both connection ids.
func toolUser(ctx context.Context, client *http.Client, base string) (token, chatConn, mcpConn string, err error) {
	id := time.Now().UnixNano()
	var reg struct {
		AccessToken string `json:"access_token"`
	}
	if err := postJSON(ctx, client, base+"/api/v1/auth/register", "", map[string]string{
		"email": fmt.Sprintf("tools%d@example.com", id), "username": fmt.Sprintf("tools%d", id),
		"full_name": "Bench User", "password": "bench-password-1",
	}, &reg); err != nil {
		return "", "", "", fmt.Errorf("register: %w", err)
	}
	var m struct {
		ConnectionID string `json:"connection_id"`
	}
	if err := postJSON(ctx, client, base+"/api/v1/mcp-connections/", reg.AccessToken, map[string]string{"server_id": seeddata.LocalReferenceID}, &m); err != nil {
		return "", "", "", fmt.Errorf("connect the reference server: %w", err)
	}
	var c struct {
		ID   string `json:"id"`
		Demo bool   `json:"demo"`
	}
	if err := postJSON(ctx, client, base+"/api/v1/mcp-connections/openai", reg.AccessToken, map[string]string{"model": "gpt-4o-mini"}, &c); err != nil {
		return "", "", "", fmt.Errorf("connect: %w", err)
	}
	if c.Demo {
		return "", "", "", fmt.Errorf("connection uses the demo model, not the upstream")
	}
	return reg.AccessToken, c.ID, m.ConnectionID, nil
}

// directToolCalls times n get-sum calls on one warm go-sdk session.
func directToolCalls(ctx context.Context, endpoint string, n int) ([]time.Duration, error) {
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil).
		Connect(ctx, &sdk.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1, DisableStandaloneSSE: true}, nil)
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	out := make([]time.Duration, 0, n)
	for range n {
		start := time.Now()
		if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get-sum", Arguments: map[string]any{"a": 2, "b": 3}}); err != nil {
			return nil, err
		}
		out = append(out, time.Since(start))
	}
	return out, nil
}

// toolUpstream is a model that calls get-sum on the user's turn and answers
// "5" once the result is back, timing each round: from the tool call's last
// byte to the result's request.
type toolUpstream struct {
	// tool is the tool it calls (get-sum when empty).
	tool     string
	mu       sync.Mutex
	callSent time.Time
	rounds   []time.Duration
}

func (u *toolUpstream) measured() []time.Duration {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]time.Duration(nil), u.rounds...)
}

func (u *toolUpstream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	arrived := time.Now()
	var req struct {
		Messages []struct {
			Role string `json:"role"`
		} `json:"messages"`
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) == 0 {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	out := startOpenAIStream(w, "chatcmpl-tools")
	if req.Messages[len(req.Messages)-1].Role == "tool" {
		u.mu.Lock()
		if !u.callSent.IsZero() {
			u.rounds = append(u.rounds, arrived.Sub(u.callSent))
		}
		u.callSent = time.Time{}
		u.mu.Unlock()
		_ = out.content("The sum is 5.")
		out.end("stop", 4)
		return
	}
	name := ""
	for _, t := range req.Tools {
		if strings.HasSuffix(t.Function.Name, "__"+cmp.Or(u.tool, "get-sum")) {
			name = t.Function.Name
		}
	}
	out.toolCall(name, `{"a":2,"b":3}`)
	out.end("tool_calls", 20)
	u.mu.Lock()
	u.callSent = time.Now()
	u.mu.Unlock()
}
