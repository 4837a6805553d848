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
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"aiwork/shared/config"
	"aiwork/shared/domain"
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
	// relayRounds is the rounds of a measurement, at least; each TTFB p99
	// has relayTTFBSamples streams (roundsAt): with 100 it was the slowest
	// stream or the next, and one hiccup read +1.36 ms where the other runs
	// read +0.24 to +0.67.
	relayRounds      = 100
	relayTTFBSamples = 300
	relayBudgetMS    = 1.0 // added p99, TTFB and per chunk
	// relayConcurrentTTFBBudgetMS is the added TTFB p99 at relayConcurrency.
	relayConcurrentTTFBBudgetMS = 3.0
	// relayCPUBudgetMS is the CPU time a demo message may add, measured
	// over relayCPURounds rounds of relayConcurrency messages.
	relayCPUBudgetMS = 1.5
	relayCPURounds   = 40
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
	// Anthropic has no key here: its connection is the demo model, which
	// streams as fast as the upstream does.
	cfg.Chat.DemoDelay = relayGap
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
	var demoConn struct {
		ID   string `json:"id"`
		Demo bool   `json:"demo"`
	}
	if err := postJSON(ctx, client, ours.URL+"/api/v1/mcp-connections/anthropic", reg.AccessToken, map[string]string{"model": "claude-3-5-sonnet"}, &demoConn); err != nil {
		return rig, fmt.Errorf("connect the demo model: %w", err)
	}
	if !demoConn.Demo {
		return rig, fmt.Errorf("the anthropic connection is not the demo model")
	}
	var conv struct {
		ID string `json:"id"`
	}
	if err := postJSON(ctx, client, ours.URL+routes.ChatConversationsPath, reg.AccessToken, map[string]string{"provider": "openai", "model": "gpt-4o-mini"}, &conv); err != nil {
		return rig, fmt.Errorf("conversation: %w", err)
	}
	// An agent of the marketplace, free and on sale, on the same model,
	// without tools: its turn differs from a plain one by its instructions
	// and its reads (the agent, the user's access).
	agent := domain.Agent{ID: fmt.Sprintf("a-%012x", id&0xffffffffffff), Name: "Bench agent", Description: "Answers briefly.",
		Instructions: strings.Repeat("Answer briefly and plainly, as a careful assistant would. ", 40), Provider: "openai", Model: "gpt-4o-mini",
		CategoryID: "business", CreatorID: "bench-creator", State: domain.PromptPublished, Version: 1, Published: 1,
		CreatedAt: time.Now().UTC(), UpdatedAt: time.Now().UTC()}
	if err := st.PutAgent(ctx, agent); err != nil {
		return rig, fmt.Errorf("agent: %w", err)
	}
	// relayedIn streams one message; with a conversation id it is kept
	// with that conversation (saved as it streams), with an agent id it
	// runs as that agent.
	relayedIn := func(connID, convID string, chunks int, agentID ...string) streamTimer {
		return func() (time.Duration, []time.Duration, error) {
			in := map[string]string{"connection_id": connID, "message": "Say something."}
			if convID != "" {
				in["conversation_id"] = convID
			}
			if len(agentID) > 0 {
				in["agent_id"] = agentID[0]
			}
			body, _ := json.Marshal(in)
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ours.URL+routes.ChatPath, bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+reg.AccessToken)
			return timeStream(client, req, `data: {"content"`, chunks)
		}
	}
	directOf := func(chunks int) streamTimer {
		return func() (time.Duration, []time.Duration, error) {
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, fmt.Sprintf("%s/v1/chat/completions?chunks=%d", upstream.URL, chunks),
				strings.NewReader(`{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Say something."}],"stream":true}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer sk-bench")
			return timeStream(client, req, `data: {"id"`, chunks)
		}
	}
	rig.client, rig.store = client, st
	rig.relayed, rig.kept, rig.direct = relayedIn(conn.ID, "", relayChunks), relayedIn(conn.ID, conv.ID, relayChunks), directOf(relayChunks)
	rig.agent, rig.agentChars = relayedIn(conn.ID, "", relayChunks, agent.ID), len(agent.Instructions)
	// The demo reply's length is the demo model's: counted once, the direct
	// read it is compared with streams as many chunks.
	n, err := countFrames(relayedIn(demoConn.ID, "", 1))
	if err != nil {
		return rig, fmt.Errorf("demo message: %w", err)
	}
	rig.demo, rig.demoDirect, rig.demoChunks = relayedIn(demoConn.ID, "", n), directOf(n), n
	return rig, nil
}

// countFrames runs one stream of timer and answers how many content frames
// it had (timer wants at least one).
func countFrames(timer streamTimer) (int, error) {
	_, gaps, err := timer()
	return len(gaps) + 1, err
}

// relayRig is the relay part's set-up: the upstream, our stack in front of
// it, a client, and a stream timer through each.
type relayRig struct {
	upstream        string
	client          *http.Client
	relayed, direct streamTimer
	// kept streams a message kept with a conversation; agent one run as
	// a marketplace agent.
	kept, agent streamTimer
	agentChars  int
	// demo streams a message of the demo model, demoChunks content frames,
	// and demoDirect reads as many chunks from the upstream directly.
	demo, demoDirect streamTimer
	demoChunks       int
	// store is the stack's table client, for the cost of one call.
	store   *store.Store
	closers []func()
}

func (r *relayRig) close() {
	for i := len(r.closers) - 1; i >= 0; i-- {
		r.closers[i]()
	}
}

// relay measures our relay against the upstream read directly, one stream
// at a time and relayConcurrency at once, and the CPU a demo message costs.
func (b *bench) relay(ctx context.Context) error {
	rig, err := b.startRelay(ctx)
	if err != nil {
		return err
	}
	defer rig.close()
	var upstreamCPU relayFigures // every concurrency's messages, for a note
	var edges engineEdges
	for _, conc := range []int{1, relayConcurrency} {
		f, err := measureRelay(conc, roundsAt(conc), rig.relayed, rig.direct, b.engineClock())
		if err != nil {
			return err
		}
		at, ttfbBudget := "", relayBudgetMS
		if conc > 1 {
			at, ttfbBudget = fmt.Sprintf(", concurrency %d", conc), relayConcurrentTTFBBudgetMS
		}
		b.rows = append(b.rows,
			addedRow("chat relay TTFB p99"+at, ms(percentile(f.ttfbOurs, 99)), ms(percentile(f.ttfbRef, 99)), "ms", ttfbBudget),
			addedRow("chat relay per-chunk p99"+at, ms(percentile(f.gapOurs, 99)), ms(percentile(f.gapRef, 99)), "ms", relayBudgetMS),
		)
		b.note("chat relay%s: %d rounds of %d chunks %s apart; TTFB p50 %.3f ms relayed, %.3f ms direct; CPU per message %.3f ms ours + %.3f ms the table engine's (dynalite, on the same cores), %.3f ms direct",
			at, roundsAt(conc), relayChunks, relayGap, ms(percentile(f.ttfbOurs, 50)), ms(percentile(f.ttfbRef, 50)),
			f.perMessage(f.cpuOurs), f.perMessage(f.engineOurs-f.engineRef), f.perMessage(f.cpuRef))
		if conc > 1 {
			// Where in a stream the slow gaps are: at its start and end run
			// its table calls (the checks, the usage), beside the other
			// streams' chunks on the same two cores.
			edges = newEngineEdges(len(b.rows)-1, conc, f)
			b.note("chat relay%s, per-chunk p99 by place in the stream (ours / direct): first %d gaps %.3f / %.3f ms, the middle %.3f / %.3f ms, last %d gaps %.3f / %.3f ms",
				at, edgeGaps, edges.ours[0], edges.ref[0], edges.ours[1], edges.ref[1], edgeGaps, edges.ours[2], edges.ref[2])
		}
		upstreamCPU.add(f)
	}
	// CPU time does not grow with a busy machine the way wall time does: a
	// regression of our code shows here even when the wall-clock rows are
	// noise. DESIGN §10: per demo message (our own work: the checks, the
	// table calls, the frames), minus a direct upstream read of as many chunks.
	demo, err := measureRelay(relayConcurrency, relayCPURounds, rig.demo, rig.demoDirect, b.engineClock())
	if err != nil {
		return fmt.Errorf("demo messages: %w", err)
	}
	cpuRow := addedRow("chat relay CPU per message", demo.perMessage(demo.cpuOurs), demo.perMessage(demo.cpuRef), "ms", relayCPUBudgetMS)
	b.rows = append(b.rows, cpuRow)
	edges.apply(b, cpuRow.ok)
	b.note("chat relay CPU: user+sys of the process serving (the bench runs our handlers in-process, as the devserver does) per demo message of %d chunks, over %d messages, against as many direct reads of %d chunks; the table engine (dynalite) spent %.3f ms more per message",
		rig.demoChunks, demo.messages, rig.demoChunks, demo.perMessage(demo.engineOurs-demo.engineRef))
	if per, err := tableCallCPU(ctx, rig.store); err == nil {
		b.note("one table call (a GetItem through the store's SDK client) costs this process %.3f ms of CPU here; a demo message makes %d (the session; the limits' meter counting it and taking its slot; its end giving the slot back with its usage; its connection is read once)",
			per, demoTableCalls)
	}
	b.note("chat relay CPU through the OpenAI-shaped upstream (its reading and decoding included): %.3f ms per message, %.3f ms the direct read, over %d messages",
		upstreamCPU.perMessage(upstreamCPU.cpuOurs), upstreamCPU.perMessage(upstreamCPU.cpuRef), upstreamCPU.messages)
	// A message kept with its conversation, against the same
	// message not kept: what storing it adds before its first content.
	kept, err := measureRelay(1, roundsAt(1), rig.kept, rig.relayed, noClock)
	if err != nil {
		return err
	}
	b.rows = append(b.rows, addedRow("conversation save TTFB p99", ms(percentile(kept.ttfbOurs, 99)), ms(percentile(kept.ttfbRef, 99)), "ms", relayBudgetMS))
	b.note("conversation save: %d rounds kept with a conversation against the same message not kept; TTFB p50 %.3f ms kept, %.3f ms not",
		roundsAt(1), ms(percentile(kept.ttfbOurs, 50)), ms(percentile(kept.ttfbRef, 50)))
	// A message run as an agent, against the same message without one:
	// what the agent (its reads, its instructions) adds before the first
	// content.
	ag, err := measureRelay(1, roundsAt(1), rig.agent, rig.relayed, noClock)
	if err != nil {
		return fmt.Errorf("agent messages: %w", err)
	}
	b.rows = append(b.rows, addedRow("chat agent turn overhead p99", ms(percentile(ag.ttfbOurs, 99)), ms(percentile(ag.ttfbRef, 99)), "ms", relayBudgetMS))
	b.note("chat agent turn: %d rounds of a message with agent_id (a free agent on the same model, %d characters of instructions, no tools) against the same message without; time to first content p50 %.3f ms with the agent, %.3f ms without",
		roundsAt(1), rig.agentChars, ms(percentile(ag.ttfbOurs, 50)), ms(percentile(ag.ttfbRef, 50)))
	return nil
}

// roundsAt is the rounds of conc streams that give relayTTFBSamples
// streams, and at least relayRounds.
func roundsAt(conc int) int {
	return max(relayRounds, (relayTTFBSamples+conc-1)/conc)
}

// edgeGaps is how many chunk gaps at a stream's start and at its end
// gapsByPlace sets apart from its middle.
const edgeGaps = 5

// gapsByPlace splits measureRelay's gaps (each stream's relayChunks-1 gaps
// in order, stream after stream) into a stream's first edgeGaps, its
// middle and its last edgeGaps.
func gapsByPlace(gaps []time.Duration) [3][]time.Duration {
	var out [3][]time.Duration
	per := relayChunks - 1
	for i, g := range gaps {
		place := 1
		switch k := i % per; {
		case k < edgeGaps:
			place = 0
		case k >= per-edgeGaps:
			place = 2
		}
		out[place] = append(out[place], g)
	}
	return out
}

// demoTableCalls is how many table calls a demo message makes once its
// connection is known (the chat engine's admission and its end).
const demoTableCalls = 3

// tableCallCPU answers this process's CPU per GetItem through st's client,
// over 300 calls after a warm-up.
func tableCallCPU(ctx context.Context, st *store.Store) (float64, error) {
	const warmup, rounds = 20, 300
	var cpu time.Duration
	for i := range warmup + rounds {
		start := cpuTime()
		if _, err := st.ChatTokensOn(ctx, "bench-table-call", time.Now()); err != nil {
			return 0, err
		}
		if i >= warmup {
			cpu += cpuTime() - start
		}
	}
	return ms(cpu) / rounds, nil
}

// relayFigures are the measured rounds of one measureRelay: ours and the
// reference's TTFBs, chunk gaps and CPU time, over messages streams each.
type relayFigures struct {
	ttfbOurs, ttfbRef, gapOurs, gapRef []time.Duration
	cpuOurs, cpuRef                    time.Duration
	// engineOurs and engineRef are dynalite's CPU time meanwhile: it runs
	// on the same cores, beside the server.
	engineOurs, engineRef time.Duration
	messages              int
}

// add counts g's messages and CPU time in f.
func (f *relayFigures) add(g relayFigures) {
	f.cpuOurs, f.cpuRef, f.messages = f.cpuOurs+g.cpuOurs, f.cpuRef+g.cpuRef, f.messages+g.messages
	f.engineOurs, f.engineRef = f.engineOurs+g.engineOurs, f.engineRef+g.engineRef
}

// perMessage is d (a CPU time of f's rounds) per message, in ms.
func (f relayFigures) perMessage(d time.Duration) float64 {
	if f.messages == 0 {
		return 0
	}
	return ms(d) / float64(f.messages)
}

// cpuTime is this process's user+sys time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// streamTimer times one stream: its TTFB and the gaps between its chunks.
type streamTimer func() (time.Duration, []time.Duration, error)

// measureRelay runs relayWarmup+rounds rounds, each conc relayed streams
// at once and then conc direct ones, and answers the measured rounds'
// figures.
func measureRelay(conc, rounds int, relayed, direct streamTimer, engine cpuClock) (f relayFigures, err error) {
	batch := func(timer streamTimer) ([]time.Duration, []time.Duration, time.Duration, time.Duration, error) {
		ttfbs := make([]time.Duration, conc)
		gaps := make([][]time.Duration, conc)
		errs := make([]error, conc)
		// The engine's clock reads /proc (~0.2 ms of this process's CPU):
		// read outside the window this process's CPU is counted in.
		eng := engine()
		cpu := cpuTime()
		var wg sync.WaitGroup
		for i := range conc {
			wg.Go(func() { ttfbs[i], gaps[i], errs[i] = timer() })
		}
		wg.Wait()
		cpu, eng = cpuTime()-cpu, engine()-eng
		if err := errors.Join(errs...); err != nil {
			return nil, nil, 0, 0, err
		}
		return ttfbs, slices.Concat(gaps...), cpu, eng, nil
	}
	for i := range relayWarmup + rounds {
		t1, g1, c1, e1, err := batch(relayed)
		if err != nil {
			return f, fmt.Errorf("relayed stream: %w", err)
		}
		t2, g2, c2, e2, err := batch(direct)
		if err != nil {
			return f, fmt.Errorf("direct stream: %w", err)
		}
		if i >= relayWarmup {
			f.ttfbOurs, f.ttfbRef = append(f.ttfbOurs, t1...), append(f.ttfbRef, t2...)
			f.gapOurs, f.gapRef = append(f.gapOurs, g1...), append(f.gapRef, g2...)
			f.cpuOurs, f.cpuRef, f.messages = f.cpuOurs+c1, f.cpuRef+c2, f.messages+conc
			f.engineOurs, f.engineRef = f.engineOurs+e1, f.engineRef+e2
		}
	}
	return f, nil
}

// cpuClock reads a CPU time that only grows (a process's user+sys).
type cpuClock func() time.Duration

// noClock is the clock of a process that is not measured.
func noClock() time.Duration { return 0 }

// engineClock reads dynalite's CPU time (0 where /proc cannot tell it).
func (b *bench) engineClock() cpuClock {
	if b.engine == nil {
		return noClock
	}
	return func() time.Duration {
		d, err := b.engine.CPUTime()
		if err != nil {
			return 0
		}
		return d
	}
}

// timeStream sends req and answers the time to the first line starting with
// prefix and the gaps between the first want such lines; it checks at least
// want arrived (want 1: any number, every gap).
func timeStream(client *http.Client, req *http.Request, prefix string, want int) (time.Duration, []time.Duration, error) {
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
	if n < want || n == 0 {
		return 0, nil, fmt.Errorf("got %d content frames of %d", n, want)
	}
	if want > 1 { // a usage chunk after the content is not a content gap
		gaps = gaps[:want-1]
	}
	return ttfb, gaps, nil
}

// fakeOpenAI streams relayChunks chat.completion.chunk frames relayGap
// apart, the finish reason, a usage frame and [DONE], as OpenAI's Chat
// Completions API does.
func fakeOpenAI(w http.ResponseWriter, r *http.Request) {
	if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		http.NotFound(w, r)
		return
	}
	_, _ = io.Copy(io.Discard, r.Body)
	chunks := relayChunks
	if n, err := strconv.Atoi(r.URL.Query().Get("chunks")); err == nil && n > 0 {
		chunks = n
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	const chunk = `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{"content":"tok "},"finish_reason":null}]}` + "\n\n"
	for i := range chunks {
		if i > 0 {
			time.Sleep(relayGap)
		}
		if _, err := io.WriteString(w, chunk); err != nil {
			return
		}
		_ = rc.Flush()
	}
	_, _ = io.WriteString(w, `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\n")
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
