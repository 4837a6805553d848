package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"aiwork/shared/config"
	"aiwork/shared/local/devstack"
	"aiwork/shared/store"
	"aiwork/shared/testbed/localproc"
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
// GET /api/v1/mcp-servers/ as a visitor against the store's own Query
// (st.Prompts, st.ListMCPServers) on the same dynalite, interleaved request
// by request.
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
	prompts := func() error {
		ps, err := st.Prompts(ctx)
		if err == nil && len(ps) == 0 {
			err = fmt.Errorf("catalogue is empty (devserver did not seed it?)")
		}
		return err
	}
	servers := func() error {
		ss, err := st.ListMCPServers(ctx)
		if err == nil && len(ss) == 0 {
			err = fmt.Errorf("MCP registry is empty (devserver did not seed it?)")
		}
		return err
	}
	for _, c := range []struct {
		path  string
		query func() error
	}{{"/api/v1/prompts/", prompts}, {"/api/v1/mcp-servers/", servers}} {
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

// startDevserver runs the devserver binary from the repository root with a
// throw-away DATA_DIR, the built app and the bench's dynalite (which it
// creates and seeds), and waits for its health route.
func (b *bench) startDevserver(ctx context.Context) (string, func(), error) {
	if _, err := os.Stat(b.devserver); err != nil {
		return "", nil, fmt.Errorf("devserver binary: %w (run `make .bin/devserver`)", err)
	}
	port, err := localproc.FreePort()
	if err != nil {
		return "", nil, err
	}
	dataDir, err := os.MkdirTemp("", "bench-data-")
	if err != nil {
		return "", nil, err
	}
	cmd := exec.Command(b.devserver)
	cmd.Dir = b.root
	cmd.Env = append(os.Environ(),
		"PORT="+strconv.Itoa(port),
		"DATA_DIR="+dataDir,
		"STATIC_DIR="+filepath.Join(b.root, "webapp", "dist"),
		"AWS_ENDPOINT_URL_DYNAMODB="+b.dynamo,
		"TABLE_NAME=aiwork",
		"AWS_REGION=us-east-1",
	)
	logs := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dataDir)
		return "", nil, err
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	stop := func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(8 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
		os.RemoveAll(dataDir)
	}
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	deadline := time.Now().Add(60 * time.Second)
	for {
		select {
		case <-exited:
			os.RemoveAll(dataDir)
			return "", nil, fmt.Errorf("devserver exited at start:\n%s", logs.String())
		case <-ctx.Done():
			stop()
			return "", nil, ctx.Err()
		default:
		}
		// Healthy, and its start-up jobs (the MCP registry's import and
		// probe) over: they run in their own function in AWS, so they must
		// not share the measured seconds with the API here.
		if res, err := http.Get(base + "/api/v1/auth/health"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK && strings.Contains(logs.String(), devstack.StartupJobsDone) {
				return base, stop, nil
			}
		}
		if time.Now().After(deadline) {
			stop()
			return "", nil, fmt.Errorf("devserver not healthy, or its start-up jobs not done, within 60s:\n%s", logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// lockedBuffer collects a process's output while the bench reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
