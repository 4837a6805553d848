package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/seeddata"
)

// The MCP connect part: connecting the reference server through
// our API (POST /api/v1/mcp-connections/: the handshake, tools/list, the
// outbound checks and storing the connection) against the same handshake
// and tools/list made directly with the go-sdk client, round by round.
const (
	connectRounds = 150 // a p99 of 150 samples, not the largest of 60
	connectWarmup = 3
	connectBudget = 1.5 // ratio, p50 and p99
)

func (b *bench) mcpConnect(ctx context.Context) error {
	upstream := httptest.NewServer(http.NotFoundHandler()) // no model is asked here
	defer upstream.Close()
	stack, err := b.startMCPStack(ctx, "aiwork-bench-connect", upstream.URL)
	if err != nil {
		return err
	}
	defer stack.close()
	token, _, _, err := toolUser(ctx, stack.client, stack.ours)
	if err != nil {
		return err
	}
	var ours, direct, directInit []time.Duration
	var engineOurs, engineDirect time.Duration
	engine := b.engineClock()
	for i := range connectWarmup + connectRounds {
		d, e, err := connectThroughAPI(ctx, stack, token, engine)
		if err != nil {
			return fmt.Errorf("through our API: %w", err)
		}
		e2 := engine()
		r, err := connectDirectly(ctx, stack.ref.Endpoint, nil)
		if err != nil {
			return fmt.Errorf("directly: %w", err)
		}
		// The same, opening with initialize as our client does for a
		// server it knows refuses server/discover (shared/mcp/protocol.go).
		ri, err := connectDirectly(ctx, stack.ref.Endpoint, &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			return fmt.Errorf("directly, initialize first: %w", err)
		}
		if i >= connectWarmup {
			ours, direct, directInit = append(ours, d), append(direct, r), append(directInit, ri)
			engineOurs, engineDirect = engineOurs+e, engineDirect+engine()-e2
		}
	}
	b.rows = append(b.rows,
		ratioRow("mcp connect p50", ms(percentile(ours, 50)), ms(percentile(direct, 50)), "ms", connectBudget),
		ratioRow("mcp connect p99", ms(percentile(ours, 99)), ms(percentile(direct, 99)), "ms", connectBudget))
	b.note("mcp connect: %d connects of the reference server through POST /api/v1/mcp-connections/ (each removed again, untimed), against initialize + tools/list with the go-sdk client; the table engine (dynalite, single-threaded, on the same cores) spent %.2f ms of CPU per connect through our API (the session, the entry, both counts, the put), %.2f ms while a direct one ran (no table call: its idle work)",
		connectRounds, ms(engineOurs)/connectRounds, ms(engineDirect)/connectRounds)
	b.note("mcp connect: the go-sdk client asks server/discover first, which the reference server refuses (400) before initialize; our client remembers such a server and opens with initialize: a direct client doing that too takes %.3f ms p50, %.3f ms p99 (ours %.2f× and %.2f× of it)",
		ms(percentile(directInit, 50)), ms(percentile(directInit, 99)),
		ms(percentile(ours, 50))/ms(percentile(directInit, 50)), ms(percentile(ours, 99))/ms(percentile(directInit, 99)))
	return nil
}

// connectThroughAPI times one connect through our API, and answers the
// table engine's CPU time it took too; then it removes the connection again
// (neither timed nor weighed).
func connectThroughAPI(ctx context.Context, stack *mcpStack, token string, engine cpuClock) (took, engineCPU time.Duration, err error) {
	var c struct {
		ConnectionID string `json:"connection_id"`
	}
	engineCPU = engine()
	start := time.Now()
	if err := postJSON(ctx, stack.client, stack.ours+"/api/v1/mcp-connections/", token, map[string]string{"server_id": seeddata.LocalReferenceID}, &c); err != nil {
		return 0, 0, err
	}
	took = time.Since(start)
	engineCPU = engine() - engineCPU
	req, _ := http.NewRequestWithContext(ctx, http.MethodDelete, stack.ours+"/api/v1/mcp-connections/"+c.ConnectionID, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := stack.client.Do(req)
	if err != nil {
		return 0, 0, err
	}
	res.Body.Close()
	if res.StatusCode/100 != 2 {
		return 0, 0, fmt.Errorf("remove the connection: HTTP %d", res.StatusCode)
	}
	return took, engineCPU, nil
}

// connectDirectly times the same handshake and tools/list with the go-sdk
// client (opts: its session options, nil for its defaults), on a new
// session, closed again.
func connectDirectly(ctx context.Context, endpoint string, opts *sdk.ClientSessionOptions) (time.Duration, error) {
	start := time.Now()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil).
		Connect(ctx, &sdk.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1, DisableStandaloneSSE: true}, opts)
	if err != nil {
		return 0, err
	}
	defer cs.Close()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}
