package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/mcp"
	"aiwork/shared/testbed/mcptest"
)

// countingServer is a go-sdk server over streamable HTTP whose handler can
// be replaced (a restart: the old sessions are unknown to the new one); it
// counts the initialize requests it gets (a handshake).
type countingServer struct {
	url   string
	inits atomic.Int32
	mu    sync.Mutex
	h     http.Handler
	// The "wait" tool's calls: started, then ended by a cancellation.
	waiting, cancelled chan struct{}
}

func newCountingServer(t *testing.T) *countingServer {
	t.Helper()
	cs := &countingServer{waiting: make(chan struct{}, 8), cancelled: make(chan struct{}, 8)}
	cs.restart()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			var msg struct{ Method string }
			if json.Unmarshal(body, &msg) == nil && msg.Method == "initialize" {
				cs.inits.Add(1)
			}
		}
		cs.mu.Lock()
		h := cs.h
		cs.mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	cs.url = srv.URL
	return cs
}

func (cs *countingServer) restart() {
	s := sdk.NewServer(&sdk.Implementation{Name: "pool-test", Version: "1"}, nil)
	s.AddTool(&sdk.Tool{Name: "twice", InputSchema: map[string]any{"type": "object"}}, func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		var args struct{ N float64 }
		_ = json.Unmarshal(req.Params.Arguments, &args)
		b, _ := json.Marshal(args.N * 2)
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}}, nil
	})
	s.AddTool(&sdk.Tool{Name: "wait", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, _ *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		cs.waiting <- struct{}{}
		<-ctx.Done()
		cs.cancelled <- struct{}{}
		return nil, ctx.Err()
	})
	cs.mu.Lock()
	cs.h = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)
	cs.mu.Unlock()
}

// The pool keeps one session per owner and target: calls after the first
// cost no handshake; a server that forgot the session (restarted) gets a
// new one, and the call still succeeds; another owner never shares it.
func TestPoolReusesAndRenewsSessions(t *testing.T) {
	t.Parallel()
	srv := newCountingServer(t)
	pool := mcp.NewPool(mcp.Policy{AllowLoopback: true}.Client(), time.Minute, 8)
	t.Cleanup(pool.Close)
	target := mcp.Target{Endpoint: srv.url}
	call := func(owner string, n float64) string {
		t.Helper()
		res, err := pool.Call(timeout(t, 10*time.Second), owner, target, "twice", map[string]any{"n": n}, 5*time.Second, 5*time.Second)
		if err != nil {
			t.Fatalf("call: %v", err)
		}
		return res.Content[0].(*sdk.TextContent).Text
	}
	for i := range 3 {
		if got := call("alice/c1", float64(i)); got != strconv.Itoa(2*i) {
			t.Errorf("call %d = %q", i, got)
		}
	}
	if n := srv.inits.Load(); n != 1 {
		t.Errorf("%d handshakes for 3 calls, want 1", n)
	}
	call("bob/c2", 1)
	if n := srv.inits.Load(); n != 2 {
		t.Errorf("%d handshakes after another owner's call, want 2", n)
	}
	srv.restart()
	if got := call("alice/c1", 4); got != "8" {
		t.Errorf("after a restart: %q, want 8", got)
	}
	if n := srv.inits.Load(); n != 3 {
		t.Errorf("%d handshakes after the restart, want 3", n)
	}
	tools, err := pool.Tools(timeout(t, 10*time.Second), "alice/c1", target, 5*time.Second)
	if err != nil || len(tools) != 2 || tools[0].Name != "twice" {
		t.Errorf("tools = %+v, %v", tools, err)
	}
}

// A call its caller cancels (the user closed the tab) is cancelled on the
// server too, and the session stays: the SDK tells the server on it after
// the call returns, so the pool must not close it then (the notice was
// lost that way, and the tool ran on forever).
func TestCancelledCallIsCancelledOnTheServerAndKeepsTheSession(t *testing.T) {
	t.Parallel()
	srv := newCountingServer(t)
	pool := mcp.NewPool(mcp.Policy{AllowLoopback: true}.Client(), time.Minute, 8)
	t.Cleanup(pool.Close)
	target := mcp.Target{Endpoint: srv.url}
	ctx, cancel := context.WithCancel(timeout(t, 30*time.Second))
	done := make(chan error, 1)
	go func() {
		_, err := pool.Call(ctx, "alice/c1", target, "wait", nil, 5*time.Second, 20*time.Second)
		done <- err
	}()
	select {
	case <-srv.waiting:
	case <-time.After(20 * time.Second):
		t.Fatal("the tool never started")
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call: %v, want context.Canceled", err)
	}
	select {
	case <-srv.cancelled:
	case <-time.After(20 * time.Second):
		t.Fatal("the server's tool call was never cancelled")
	}
	res, err := pool.Call(timeout(t, 10*time.Second), "alice/c1", target, "twice", map[string]any{"n": 2}, 5*time.Second, 5*time.Second)
	if err != nil || res.Content[0].(*sdk.TextContent).Text != "4" {
		t.Fatalf("the next call: %+v, %v", res, err)
	}
	if n := srv.inits.Load(); n != 1 {
		t.Errorf("%d handshakes, want 1: the cancelled call's session is kept", n)
	}
}

// An idle session is closed by the pool's own timer (its DELETE reaches the
// server with no further call), never while a request runs on it: a call
// longer than the idle time keeps its session.
func TestPoolClosesIdleSessionsButNotBusyOnes(t *testing.T) {
	t.Parallel()
	var inits, deletes atomic.Int32
	s := sdk.NewServer(&sdk.Implementation{Name: "idle-test", Version: "1"}, nil)
	s.AddTool(&sdk.Tool{Name: "slow", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, _ *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		select {
		case <-time.After(400 * time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "done"}}}, nil
	})
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)
	srv := mcptest.Serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodDelete:
			deletes.Add(1)
		case http.MethodPost:
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			if bytes.Contains(body, []byte(`"initialize"`)) {
				inits.Add(1)
			}
		}
		h.ServeHTTP(w, r)
	}))
	pool := mcp.NewPool(mcp.Policy{AllowLoopback: true}.Client(), 100*time.Millisecond, 8)
	t.Cleanup(pool.Close)
	target := mcp.Target{Endpoint: srv.URL}
	for range 2 {
		res, err := pool.Call(timeout(t, 10*time.Second), "alice/c1", target, "slow", nil, 5*time.Second, 5*time.Second)
		if err != nil || res.Content[0].(*sdk.TextContent).Text != "done" {
			t.Fatalf("call: %+v, %v", res, err)
		}
	}
	if n := inits.Load(); n != 1 {
		t.Errorf("%d handshakes for 2 calls longer than the idle time, want 1 (a busy session was closed)", n)
	}
	deadline := time.Now().Add(10 * time.Second)
	for deletes.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the idle session was never closed")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestPoolOpensAgainWhenTheServerDropsTheConnection: a server that closes
// the connection under the first initialize (as one closing an idle
// kept-alive connection just as it is reused) is asked again once, on a new
// connection, and the call runs.
func TestPoolOpensAgainWhenTheServerDropsTheConnection(t *testing.T) {
	t.Parallel()
	s := sdk.NewServer(&sdk.Implementation{Name: "drop-test", Version: "1"}, nil)
	s.AddTool(&sdk.Tool{Name: "hello", InputSchema: map[string]any{"type": "object"}}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "hello"}}}, nil
	})
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)
	var dropped atomic.Bool
	srv := mcptest.Serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if r.Method == http.MethodPost && bytes.Contains(body, []byte(`"method":"initialize"`)) && dropped.CompareAndSwap(false, true) {
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				conn.Close() // no answer at all
			}
			return
		}
		h.ServeHTTP(w, r)
	}))
	pool := mcp.NewPool(mcp.Policy{AllowLoopback: true}.Client(), time.Minute, 8)
	t.Cleanup(pool.Close)
	res, err := pool.Call(timeout(t, 10*time.Second), "alice/c1", mcp.Target{Endpoint: srv.URL}, "hello", nil, 5*time.Second, 5*time.Second)
	if err != nil || res.Content[0].(*sdk.TextContent).Text != "hello" {
		t.Fatalf("call after a dropped connection: %+v, %v", res, err)
	}
	if !dropped.Load() {
		t.Fatal("the server never dropped a connection")
	}
}
