package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"time"

	"aiwork/shared/config"
	"aiwork/shared/local/devstack"
	"aiwork/shared/routes"
	"aiwork/shared/store"
)

// The chat relay part: an upstream speaking OpenAI's streaming wire format,
// relayed by the chat handler, against the same upstream read directly.
const (
	relayChunks = 50
	relayGap    = 2 * time.Millisecond
	relayWarmup = 3
	// relayRounds gives the TTFB p99 at concurrency 1 a hundred samples (with
	// fewer it is the slowest stream, not a percentile).
	relayRounds   = 100
	relayBudgetMS = 1.0 // added p99, TTFB and per chunk
	// relayConcurrency is the second set of rows: that many streams at once.
	relayConcurrency = 8
)

// startRelay builds the whole stack in this process (devstack.Handler, as the
// devserver does) with OpenAI pointed at a local upstream, on its own table
// of the bench's dynalite, opens an OpenAI connection as a fresh user and
// streams messages through POST /api/v1/mcp-connections/message.
func (b *bench) startRelay(ctx context.Context) (rig *relayRig, err error) {
	upstream := httptest.NewServer(http.HandlerFunc(fakeOpenAI))
	rig = &relayRig{upstream: upstream.URL, closers: []func(){upstream.Close}}
	defer func() {
		if err != nil {
			rig.close()
		}
	}()

	sc := config.Store{TableName: "aiwork-bench-relay", Endpoint: b.dynamo, Region: "us-east-1"}
	st, err := store.New(ctx, sc)
	if err != nil {
		return rig, err
	}
	if err := st.EnsureTable(ctx); err != nil {
		return rig, err
	}
	secret := []byte("bench-jwt-secret-0123456789abcdef0123456789")
	cfg := devstack.ConfigFor(sc, secret, 5, "whsec_bench")
	cfg.Chat.OpenAIKey, cfg.Chat.OpenAIBaseURL = "sk-bench", upstream.URL+"/v1/"
	// The limits are on, so the admission writes are measured, with room to
	// spare in each, as a user far from them has.
	cfg.Chat.Limits = config.ChatLimits{MaxConcurrentStreams: 2 * relayConcurrency, RequestsPerMinute: 10_000, DailyTokenBudget: 100_000_000}
	h, err := devstack.Handler(st, cfg, "")
	if err != nil {
		return rig, err
	}
	ours := httptest.NewServer(h)
	rig.closers = append(rig.closers, ours.Close)

	// Enough idle connections for the concurrent rounds, on both sides.
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 2 * relayConcurrency}}
	var reg struct {
		AccessToken string `json:"access_token"`
	}
	id := time.Now().UnixNano()
	if err := postJSON(ctx, client, ours.URL+"/api/v1/auth/register", "", map[string]string{
		"email": fmt.Sprintf("bench%d@example.com", id), "username": fmt.Sprintf("bench%d", id),
		"full_name": "Bench User", "password": "bench-password-1",
	}, &reg); err != nil {
		return rig, fmt.Errorf("register: %w", err)
	}
	var conn struct {
		ID   string `json:"id"`
		Demo bool   `json:"demo"`
	}
	if err := postJSON(ctx, client, ours.URL+"/api/v1/mcp-connections/openai", reg.AccessToken, map[string]string{"model": "gpt-4o-mini"}, &conn); err != nil {
		return rig, fmt.Errorf("connect: %w", err)
	}
	if conn.Demo {
		return rig, fmt.Errorf("connection uses the demo model, not the upstream")
	}
	var conv struct {
		ID string `json:"id"`
	}
	if err := postJSON(ctx, client, ours.URL+routes.ChatConversationsPath, reg.AccessToken, map[string]string{"provider": "openai", "model": "gpt-4o-mini"}, &conv); err != nil {
		return rig, fmt.Errorf("conversation: %w", err)
	}
	// relayedIn streams one message; with a conversation id it is kept
	// with that conversation (saved as it streams).
	relayedIn := func(convID string) streamTimer {
		return func() (time.Duration, []time.Duration, error) {
			in := map[string]string{"connection_id": conn.ID, "message": "Say something."}
			if convID != "" {
				in["conversation_id"] = convID
			}
			body, _ := json.Marshal(in)
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ours.URL+routes.ChatPath, bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+reg.AccessToken)
			return timeStream(client, req, `data: {"content"`)
		}
	}
	relayed, kept := relayedIn(""), relayedIn(conv.ID)
	direct := func() (time.Duration, []time.Duration, error) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, upstream.URL+"/v1/chat/completions",
			strings.NewReader(`{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Say something."}],"stream":true}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer sk-bench")
		return timeStream(client, req, `data: {"id"`)
	}
	rig.client, rig.relayed, rig.direct, rig.kept = client, relayed, direct, kept
	return rig, nil
}

// relayRig is the relay part's set-up: the upstream, our stack in front of
// it, a client, and a stream timer through each.
type relayRig struct {
	upstream        string
	client          *http.Client
	relayed, direct streamTimer
	// kept streams a message kept with a conversation.
	kept    streamTimer
	closers []func()
}

func (r *relayRig) close() {
	for i := len(r.closers) - 1; i >= 0; i-- {
		r.closers[i]()
	}
}

// relay measures our relay against the upstream read directly, one stream
// at a time and relayConcurrency at once.
func (b *bench) relay(ctx context.Context) error {
	rig, err := b.startRelay(ctx)
	if err != nil {
		return err
	}
	defer rig.close()
	relayed, direct := rig.relayed, rig.direct
	for _, conc := range []int{1, relayConcurrency} {
		ttfbOurs, ttfbRef, gapOurs, gapRef, err := measureRelay(conc, relayed, direct)
		if err != nil {
			return err
		}
		at := ""
		if conc > 1 {
			at = fmt.Sprintf(", concurrency %d", conc)
		}
		b.rows = append(b.rows,
			addedRow("chat relay TTFB p99"+at, ms(percentile(ttfbOurs, 99)), ms(percentile(ttfbRef, 99)), "ms", relayBudgetMS),
			addedRow("chat relay per-chunk p99"+at, ms(percentile(gapOurs, 99)), ms(percentile(gapRef, 99)), "ms", relayBudgetMS),
		)
		b.note("chat relay%s: %d rounds of %d chunks %s apart; TTFB p50 %.3f ms relayed, %.3f ms direct",
			at, relayRounds, relayChunks, relayGap, ms(percentile(ttfbOurs, 50)), ms(percentile(ttfbRef, 50)))
	}
	// A message kept with its conversation (issue 24), against the same
	// message not kept: what storing it adds before its first content.
	ttfbKept, ttfbPlain, _, _, err := measureRelay(1, rig.kept, relayed)
	if err != nil {
		return err
	}
	b.rows = append(b.rows, addedRow("conversation save TTFB p99", ms(percentile(ttfbKept, 99)), ms(percentile(ttfbPlain, 99)), "ms", relayBudgetMS))
	b.note("conversation save: %d rounds kept with a conversation against the same message not kept; TTFB p50 %.3f ms kept, %.3f ms not",
		relayRounds, ms(percentile(ttfbKept, 50)), ms(percentile(ttfbPlain, 50)))
	return nil
}

// streamTimer times one stream: its TTFB and the gaps between its chunks.
type streamTimer func() (time.Duration, []time.Duration, error)

// measureRelay runs relayWarmup+relayRounds rounds, each conc relayed
// streams at once and then conc direct ones, and answers the measured
// rounds' figures.
func measureRelay(conc int, relayed, direct streamTimer) (ttfbOurs, ttfbRef, gapOurs, gapRef []time.Duration, err error) {
	batch := func(timer streamTimer) ([]time.Duration, []time.Duration, error) {
		ttfbs := make([]time.Duration, conc)
		gaps := make([][]time.Duration, conc)
		errs := make([]error, conc)
		var wg sync.WaitGroup
		for i := range conc {
			wg.Go(func() { ttfbs[i], gaps[i], errs[i] = timer() })
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return nil, nil, err
		}
		return ttfbs, slices.Concat(gaps...), nil
	}
	for i := range relayWarmup + relayRounds {
		t1, g1, err := batch(relayed)
		if err != nil {
			return nil, nil, nil, nil, fmt.Errorf("relayed stream: %w", err)
		}
		t2, g2, err := batch(direct)
		if err != nil {
			return nil, nil, nil, nil, fmt.Errorf("direct stream: %w", err)
		}
		if i >= relayWarmup {
			ttfbOurs, ttfbRef = append(ttfbOurs, t1...), append(ttfbRef, t2...)
			gapOurs, gapRef = append(gapOurs, g1...), append(gapRef, g2...)
		}
	}
	return ttfbOurs, ttfbRef, gapOurs, gapRef, nil
}

// timeStream sends req and answers the time to the first line starting with
// prefix and the gaps between such lines; it checks all chunks arrived.
func timeStream(client *http.Client, req *http.Request, prefix string) (time.Duration, []time.Duration, error) {
	start := time.Now()
	res, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		return 0, nil, fmt.Errorf("HTTP %d: %s", res.StatusCode, b)
	}
	var ttfb time.Duration
	var gaps []time.Duration
	var last time.Time
	n := 0
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "event: error") {
			return 0, nil, fmt.Errorf("error frame in the stream")
		}
		if !strings.HasPrefix(line, prefix) {
			continue
		}
		now := time.Now()
		if n == 0 {
			ttfb = now.Sub(start)
		} else {
			gaps = append(gaps, now.Sub(last))
		}
		last = now
		n++
	}
	if err := sc.Err(); err != nil {
		return 0, nil, err
	}
	if n < relayChunks {
		return 0, nil, fmt.Errorf("got %d content frames of %d", n, relayChunks)
	}
	return ttfb, gaps[:relayChunks-1], nil
}

// fakeOpenAI streams relayChunks chat.completion.chunk frames relayGap
// apart, a usage frame and [DONE], as OpenAI's Chat Completions API does.
func fakeOpenAI(w http.ResponseWriter, r *http.Request) {
	if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		http.NotFound(w, r)
		return
	}
	_, _ = io.Copy(io.Discard, r.Body)
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	const chunk = `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{"content":"tok "},"finish_reason":null}]}` + "\n\n"
	for i := range relayChunks {
		if i > 0 {
			time.Sleep(relayGap)
		}
		if _, err := io.WriteString(w, chunk); err != nil {
			return
		}
		_ = rc.Flush()
	}
	_, _ = io.WriteString(w, `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o-mini","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":50,"total_tokens":55}}`+"\n\n")
	_, _ = io.WriteString(w, "data: [DONE]\n\n")
	_ = rc.Flush()
}

func postJSON(ctx context.Context, client *http.Client, url, token string, in, out any) error {
	body, _ := json.Marshal(in)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode/100 != 2 {
		return fmt.Errorf("HTTP %d: %s", res.StatusCode, b)
	}
	return json.Unmarshal(b, out)
}
