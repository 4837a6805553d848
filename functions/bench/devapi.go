package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"aiwork/shared/api/mcpapi"
	"aiwork/shared/api/promptsapi"
	"aiwork/shared/config"
	"aiwork/shared/prompts"
	"aiwork/shared/store"
	"aiwork/shared/testbed/devproc"
)

// Rounds of the devserver API part.
const (
	apiWarmup = 30
	// apiRequests gives each p99 thirty samples beyond it, so a single
	// hiccup of the engine does not decide the row.
	apiRequests = 3000
	apiBudget   = 1.5 // p99 ratio
)

// devAPI starts the devserver the way the browser tests do (webapp/e2e/
// stack.mjs), on the bench's dynalite, and times GET /api/v1/prompts/ and
// GET /api/v1/mcp-servers/ as a visitor against the store's read of the
// same first page from the table (st.ListPrompts, st.ListMCPServerPage) on
// the same dynalite, interleaved request by request: the row is the API's
// own overhead over one page.
func (b *bench) devAPI(ctx context.Context) error {
	base, stop, err := b.startDevserver(ctx)
	if err != nil {
		return err
	}
	defer stop()

	st, err := store.New(ctx, config.Store{TableName: "aiwork", Endpoint: b.dynamo, Region: "us-east-1"})
	if err != nil {
		return err
	}
	client := &http.Client{Timeout: 10 * time.Second}
	// The first page each API answers a visitor without parameters.
	promptPage := func() error {
		page, err := st.ListPrompts(ctx, store.PromptListQuery{Order: prompts.Newest, Limit: promptsapi.DefaultLimit})
		if err == nil && len(page.Cards) == 0 {
			err = fmt.Errorf("catalogue is empty (devserver did not seed it?)")
		}
		return err
	}
	serverPage := func() error {
		page, err := st.ListMCPServerPage(ctx, store.MCPListQuery{Limit: mcpapi.DefaultLimit})
		if err == nil && len(page.Servers) == 0 {
			err = fmt.Errorf("MCP registry is empty (devserver did not seed it?)")
		}
		return err
	}
	for _, c := range []struct {
		path  string
		query func() error
	}{{"/api/v1/prompts/", promptPage}, {"/api/v1/mcp-servers/", serverPage}} {
		api, raw, err := timeAgainst(func() error { return getOK(client, base+c.path) }, c.query)
		if err != nil {
			return fmt.Errorf("GET %s: %w", c.path, err)
		}
		b.rows = append(b.rows,
			ratioRow("GET "+c.path+" p50", ms(percentile(api, 50)), ms(percentile(raw, 50)), "ms", apiBudget),
			ratioRow("GET "+c.path+" p99", ms(percentile(api, 99)), ms(percentile(raw, 99)), "ms", apiBudget),
		)
	}
	return nil
}

// timeAgainst times ours and ref interleaved, call by call, after a warm-up.
func timeAgainst(ours, ref func() error) (o, r []time.Duration, err error) {
	for i := range apiWarmup + apiRequests {
		t0 := time.Now()
		if err := ours(); err != nil {
			return nil, nil, err
		}
		t1 := time.Now()
		if err := ref(); err != nil {
			return nil, nil, err
		}
		t2 := time.Now()
		if i >= apiWarmup {
			o, r = append(o, t1.Sub(t0)), append(r, t2.Sub(t1))
		}
	}
	return o, r, nil
}

// getOK reads the whole answer of a GET and wants 200.
func getOK(client *http.Client, url string) error {
	res, err := client.Get(url)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if _, err := io.Copy(io.Discard, res.Body); err != nil {
		return err
	}
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("HTTP %d", res.StatusCode)
	}
	return nil
}

// startDevserver runs the devserver binary with the bench's dynalite
// (which it creates and seeds) and answers its base URL and how to stop it.
func (b *bench) startDevserver(ctx context.Context) (string, func(), error) {
	d, err := devproc.Start(ctx, devproc.Options{Bin: b.devserver, Root: b.root, Dynamo: b.dynamo})
	if err != nil {
		return "", nil, err
	}
	return d.Base, d.Stop, nil
}
