package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"aiwork/shared/testbed/localproc"
)

// The peers part (`make bench-peers`, flag -peers): the relay measurement
// through Portkey's open-source gateway, beside ours, against the same
// upstream read directly. Informational rows: a peer has no budget.
const portkeyVersion = "1.15.2" // functions/bench/peers/package.json

func (b *bench) peers(ctx context.Context) error {
	gateway, stop, err := b.startPortkey(ctx)
	if err != nil {
		return err
	}
	defer stop()
	rig, err := b.startRelay(ctx)
	if err != nil {
		return err
	}
	defer rig.close()
	through := func() (time.Duration, []time.Duration, error) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, gateway+"/v1/chat/completions",
			strings.NewReader(`{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Say something."}],"stream":true}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer sk-bench")
		req.Header.Set("x-portkey-provider", "openai")
		req.Header.Set("x-portkey-custom-host", rig.upstream+"/v1")
		return timeStream(rig.client, req, `data: {"id"`, relayChunks)
	}
	for _, conc := range []int{1, relayConcurrency} {
		for _, peer := range []struct {
			name  string
			timer streamTimer
		}{{"ours", rig.relayed}, {"Portkey " + portkeyVersion, through}} {
			f, err := measureRelay(conc, relayRounds, peer.timer, rig.direct, noClock)
			if err != nil {
				return fmt.Errorf("%s: %w", peer.name, err)
			}
			b.rows = append(b.rows, peerRow(fmt.Sprintf("peers: %s TTFB p50/p99 added, concurrency %d", peer.name, conc),
				ms(percentile(f.ttfbOurs, 50)-percentile(f.ttfbRef, 50)), ms(percentile(f.ttfbOurs, 99)-percentile(f.ttfbRef, 99))))
		}
	}
	return nil
}

// peerRow is an informational row: time added over the direct call.
func peerRow(name string, p50, p99 float64) row {
	return row{name: name, ours: p50, ref: p99, unit: "ms", budget: "peer comparison (p50 | p99)", ok: true, refMissing: true}
}

// startPortkey runs the pinned gateway (npm ci in functions/bench/peers by
// `make bench-peers`) on a free port and waits until it answers.
func (b *bench) startPortkey(ctx context.Context) (string, func(), error) {
	dir := filepath.Join(b.root, "functions", "bench", "peers")
	script := filepath.Join(dir, "node_modules", "@portkey-ai", "gateway", "build", "start-server.js")
	if _, err := os.Stat(script); err != nil {
		return "", nil, fmt.Errorf("portkey gateway: %w (run `make bench-peers`)", err)
	}
	port, err := localproc.FreePort()
	if err != nil {
		return "", nil, err
	}
	cmd := exec.Command("node", script, "--port="+strconv.Itoa(port))
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	stop := func() {
		_ = cmd.Process.Kill()
		<-exited
	}
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	deadline := time.Now().Add(60 * time.Second)
	for {
		if res, err := http.Get(base + "/"); err == nil {
			res.Body.Close()
			return base, stop, nil
		}
		select {
		case <-exited:
			return "", nil, fmt.Errorf("portkey gateway exited at start")
		case <-ctx.Done():
			stop()
			return "", nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			stop()
			return "", nil, fmt.Errorf("portkey gateway not answering within 60s")
		}
	}
}
