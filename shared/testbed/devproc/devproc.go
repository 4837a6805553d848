// Package devproc runs the devserver binary as `make run` does, on a free
// loopback port with a throw-away data directory, for the programs that
// drive the whole product from outside (the bench, the MCP conformance run).
package devproc

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"aiwork/shared/local/devstack"
	"aiwork/shared/testbed/localproc"
)

// Options say which devserver to start and how.
type Options struct {
	Bin  string // the devserver binary
	Root string // the repository root: its working directory (webapp/dist is served from there)
	// Dynamo is a running DynamoDB engine's URL; empty: the devserver starts
	// its own, as under `make run`.
	Dynamo string
	Env    []string // more environment, after the defaults
}

// Devserver is a started devserver.
type Devserver struct {
	Base string // http://127.0.0.1:<port>
	cmd  *exec.Cmd
	logs *lockedBuffer
	done chan struct{}
	dir  string
}

// startWithin bounds the wait for health and the start-up jobs.
const startWithin = 60 * time.Second

// Start runs the devserver and waits until it is healthy and its start-up
// jobs (the MCP registry's import and probe) are over: they run in their
// own function in AWS, so they must not share what is measured or tested.
func Start(ctx context.Context, o Options) (*Devserver, error) {
	if _, err := os.Stat(o.Bin); err != nil {
		return nil, fmt.Errorf("devserver binary: %w (run `make .bin/devserver`)", err)
	}
	port, err := localproc.FreePort()
	if err != nil {
		return nil, err
	}
	dataDir, err := os.MkdirTemp("", "devserver-data-")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(o.Bin)
	cmd.Dir = o.Root
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	cmd.Env = append(os.Environ(),
		"PORT="+strconv.Itoa(port),
		// Links it hands out (OAuth's redirect, checkout pages) name the
		// address its callers use, so a client's cookies go with them.
		"PUBLIC_URL="+base,
		"DATA_DIR="+dataDir,
		"STATIC_DIR="+filepath.Join(o.Root, "webapp", "dist"),
		"AWS_ENDPOINT_URL_DYNAMODB="+o.Dynamo,
		"TABLE_NAME=aiwork",
		"AWS_REGION=us-east-1",
	)
	cmd.Env = append(cmd.Env, o.Env...)
	d := &Devserver{Base: base, cmd: cmd, logs: &lockedBuffer{}, done: make(chan struct{}), dir: dataDir}
	cmd.Stdout, cmd.Stderr = d.logs, d.logs
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dataDir)
		return nil, err
	}
	go func() { _ = cmd.Wait(); close(d.done) }()
	deadline := time.Now().Add(startWithin)
	for {
		select {
		case <-d.done:
			os.RemoveAll(dataDir)
			return nil, fmt.Errorf("devserver exited at start:\n%s", d.logs.String())
		case <-ctx.Done():
			d.Stop()
			return nil, ctx.Err()
		default:
		}
		if res, err := http.Get(d.Base + "/api/v1/auth/health"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK && strings.Contains(d.logs.String(), devstack.StartupJobsDone) {
				return d, nil
			}
		}
		if time.Now().After(deadline) {
			d.Stop()
			return nil, fmt.Errorf("devserver not healthy, or its start-up jobs not done, within %s:\n%s", startWithin, d.logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Stop ends the devserver (SIGTERM, then SIGKILL after 8 s) and removes
// its data directory.
func (d *Devserver) Stop() {
	_ = d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-d.done:
	case <-time.After(8 * time.Second):
		_ = d.cmd.Process.Kill()
		<-d.done
	}
	os.RemoveAll(d.dir)
}

// lockedBuffer collects a process's output while it is read.
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
