package mcp_test

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"aiwork/shared/mcp"
)

// loopback is the policy every test against a local server uses.
var loopback = mcp.Policy{AllowLoopback: true}

// startEverything runs the reference server in mode ("streamableHttp" or
// "sse") with an empty environment, waits for its port and answers its base
// URL. The process group is killed when the test ends.
func startEverything(t *testing.T, mode string) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	bin := filepath.Join(filepath.Dir(file), "../../webapp/node_modules/.bin/mcp-server-everything")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("reference server not installed (run npm ci in webapp): %v", err)
	}
	port := freePort(t)
	cmd := exec.Command(bin, mode)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "PORT=" + port}
	// Own process group, so cleanup kills everything it starts; and killed
	// with the test binary if that dies before cleanup runs.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	out := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	})
	addr := "127.0.0.1:" + port
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return "http://" + addr
		}
		select {
		case <-exited:
			t.Fatalf("reference server %s exited: %s", mode, out.String())
		case <-time.After(50 * time.Millisecond): // poll interval, not a wait for an outcome
		}
		if time.Now().After(deadline) {
			t.Fatalf("reference server %s not listening on %s after 30 s: %s", mode, addr, out.String())
		}
	}
}

// freePort answers a loopback port that was free a moment ago.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// deadPort answers a loopback URL nobody listens on.
func deadPort(t *testing.T) string {
	t.Helper()
	return "http://127.0.0.1:" + freePort(t) + "/mcp"
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
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

func timeout(t *testing.T, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// wantKind fails unless err is an *mcp.Error of kind want.
func wantKind(t *testing.T, err error, want mcp.Kind) *mcp.Error {
	t.Helper()
	var e *mcp.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v (%T), want *mcp.Error of kind %s", err, err, want)
	}
	if e.Kind != want {
		t.Fatalf("kind = %s (%q), want %s", e.Kind, e.Detail, want)
	}
	if e.Detail == "" {
		t.Fatalf("kind %s has no detail", e.Kind)
	}
	return e
}
