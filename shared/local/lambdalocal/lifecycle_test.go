package lambdalocal

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// When a process is free again, and how a stream ends when its process
// does not finish it.

// Back-to-back invocations from one caller run in one warm process, as in
// Lambda: a process is free once its answer is complete, though it asks
// for its next event a moment later (an Invoke in that moment waits for
// it rather than starting another process: no spurious cold start).
func TestSequentialInvocationsReuseTheProcess(t *testing.T) {
	f := newFunction(t, "sequential-fn", func(f *Function) { f.MaxInstances = 4 })
	pids := map[int]bool{}
	for i := range 20 {
		res := invoke(t, f, payload(t, map[string]any{"mode": "echo", "n": i}))
		_, e := echoOf(t, f, res)
		pids[e.PID] = true
	}
	if s := f.Stats(); s.Cold != 1 || len(pids) != 1 {
		t.Errorf("sequential-fn: 20 invocations one after the other: %d cold starts, %d processes; want 1 and 1", s.Cold, len(pids))
	}
}

// A process that dies in the middle of a stream cuts it, as in Lambda:
// the stream ends with Runtime.ExitError (not a clean end), and the
// Gateway cuts the client's response.
func TestStreamCutWhenTheProcessExits(t *testing.T) {
	f := newFunction(t, "chat", nil)
	g := newGate(t)
	res := invoke(t, f, payload(t, map[string]any{"mode": "stream-exit", "wait": g.URL()}))
	if res.Err != nil || res.Stream == nil {
		t.Fatalf("chat: result err %v, stream %v; want a stream", res.Err, res.Stream != nil)
	}
	body := readChunks(res.Stream.Body)
	body.until(t, "chat (stream-exit)", "first\n")
	g.waitArrival("chat (stream-exit)")
	g.open() // the process exits now
	rest, err := body.rest(t, "chat (stream-exit)")
	if fe := res.Stream.Err(); fe == nil || fe.Type != "Runtime.ExitError" || rest != "" || err != nil {
		t.Errorf("chat: the process exited mid-stream: then %q (end: %v), Stream.Err() = %v; want the body ended and Runtime.ExitError", rest, err, fe)
	}
	res = invoke(t, f, payload(t, map[string]any{"mode": "echo"}))
	echoOf(t, f, res)
	if !res.Cold {
		t.Error("chat: the invocation after a process died mid-stream was warm; want a new process")
	}

	// Through the Gateway, the client's response must be cut.
	g2 := newGate(t)
	srv := serveGateway(t, &Gateway{Functions: map[string]*Function{"chat": f}, Log: testLog(t)})
	r, err := client.Post(srv.URL+"/api/v1/mcp-connections/message", "application/json",
		strings.NewReader(`{"mode":"stream-exit","wait":"`+g2.URL()+`"}`))
	if err != nil {
		t.Fatalf("chat: POST /api/v1/mcp-connections/message: %v", err)
	}
	defer r.Body.Close()
	c := readChunks(r.Body)
	c.until(t, "chat: POST /api/v1/mcp-connections/message", "first\n")
	g2.waitArrival("chat: POST /api/v1/mcp-connections/message")
	g2.open()
	if rest, err := c.rest(t, "chat: POST /api/v1/mcp-connections/message"); err == nil {
		t.Errorf("chat: POST /api/v1/mcp-connections/message: the process exited mid-stream, yet the client's response ended cleanly (then %q)", rest)
	}
}

// A stream still running at the function's timeout is ended with
// Sandbox.Timedout, and its process killed, as Lambda does.
func TestStreamEndsAtTheFunctionTimeout(t *testing.T) {
	f := newFunction(t, "chat", func(f *Function) { f.Timeout = time.Second })
	pidFile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	res, err := f.Invoke(ctx, payload(t, map[string]any{"mode": "stream-hang", "pid_file": pidFile}))
	if err != nil || res.Err != nil || res.Stream == nil {
		t.Fatalf("chat: Invoke: %v, result err %v; want a stream", err, res.Err)
	}
	defer res.Stream.Body.Close()
	body := readChunks(res.Stream.Body)
	body.until(t, "chat (stream-hang)", "first\n")
	select {
	case <-body.done:
	case <-time.After(10 * time.Second):
		t.Fatalf("chat: the stream runs on 10 s after the function's 1 s timeout")
	}
	if fe := res.Stream.Err(); fe == nil || fe.Type != "Sandbox.Timedout" {
		t.Errorf("chat: Stream.Err() = %v, want Sandbox.Timedout", fe)
	}
	raw, _ := os.ReadFile(pidFile)
	if pid, _ := strconv.Atoi(string(raw)); pid > 0 {
		if !processGone(pid) {
			t.Errorf("chat: process %d still runs after the timeout", pid)
		}
	}
}
