package lambdalocal

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"aiwork/shared/api/apitest"
)

// The runtime emulator against a real aws-lambda-go function
// (testdata/fn), built once per test binary.

// bound is how long a test waits for something that should happen at once:
// a failure bound on a busy machine, never a pause.
const bound = 60 * time.Second

// client is the tests' HTTP client: a response that never comes fails
// the test within bound.
var client = &http.Client{Timeout: bound}

var (
	binDir    string
	buildOnce sync.Once
	buildErr  error
	buildOut  []byte
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "lambdalocal-test-")
	if err != nil {
		panic(err)
	}
	binDir = dir
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// testBinary builds testdata/fn (in the shared module, where aws-lambda-go
// resolves) the way the functions are built.
func testBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(binDir, "fn")
	buildOnce.Do(func() {
		cmd := exec.Command("go", "build", "-trimpath", "-tags", "lambda.norpc", "-o", bin, "./testdata/fn")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		buildOut, buildErr = cmd.CombinedOutput()
	})
	if buildErr != nil {
		t.Fatalf("go build ./testdata/fn: %v\n%s", buildErr, buildOut)
	}
	return bin
}

// newFunction is a Function running testdata/fn, stopped when the test ends.
func newFunction(t *testing.T, name string, change func(*Function)) *Function {
	t.Helper()
	logs := &apitest.LogBuffer{}
	f := &Function{Name: name, Binary: testBinary(t), Log: logs, MaxInstances: 2, Timeout: bound}
	if change != nil {
		change(f)
	}
	t.Cleanup(func() {
		f.Stop()
		if t.Failed() {
			t.Logf("output of %s's processes:\n%s", name, logs.String())
		}
	})
	return f
}

// gate is an HTTP endpoint a function GETs and blocks on until the test
// opens it: the test knows the function is there (Arrived) and decides
// when it goes on.
type gate struct {
	t       *testing.T
	srv     *httptest.Server
	arrived chan struct{}
	count   atomic.Int32
	release chan struct{}
	once    sync.Once
}

func newGate(t *testing.T) *gate {
	g := &gate{t: t, arrived: make(chan struct{}, 64), release: make(chan struct{})}
	g.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g.count.Add(1)
		g.arrived <- struct{}{}
		select {
		case <-g.release:
			_, _ = io.WriteString(w, "go on")
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() {
		g.open()
		g.srv.Close()
	})
	return g
}

func (g *gate) URL() string { return g.srv.URL + "/wait" }

func (g *gate) open() { g.once.Do(func() { close(g.release) }) }

// waitArrival waits until one more function has reached the gate.
func (g *gate) waitArrival(what string) {
	g.t.Helper()
	select {
	case <-g.arrived:
	case <-time.After(bound):
		g.t.Fatalf("%s: the function never reached the gate", what)
	}
}

func payload(t *testing.T, v map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func invoke(t *testing.T, f *Function, p []byte) *Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	res, err := f.Invoke(ctx, p)
	if err != nil {
		t.Fatalf("%s: Invoke(%s): %v", f.Name, p, err)
	}
	return res
}

// echoed is what testdata/fn's echo answers in its body.
type echoed struct {
	PID          int             `json:"pid"`
	RequestID    string          `json:"request_id"`
	ARN          string          `json:"arn"`
	FunctionName string          `json:"function_name"`
	DeadlineMS   int64           `json:"deadline_ms"`
	Event        json.RawMessage `json:"event"`
}

func echoOf(t *testing.T, f *Function, res *Result) (events.APIGatewayProxyResponse, echoed) {
	t.Helper()
	if res.Err != nil {
		t.Fatalf("%s: function error %v", f.Name, res.Err)
	}
	var resp events.APIGatewayProxyResponse
	if err := json.Unmarshal(res.Payload, &resp); err != nil {
		t.Fatalf("%s: payload %s: %v", f.Name, res.Payload, err)
	}
	var e echoed
	if err := json.Unmarshal([]byte(resp.Body), &e); err != nil || e.PID == 0 {
		t.Fatalf("%s: echo body %s: %v", f.Name, resp.Body, err)
	}
	return resp, e
}

// waitFor waits until cond holds (checked often, bounded).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(bound)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// processGone reports whether process pid has ended (and been waited for).
func processGone(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return true
	}
	return p.Signal(syscall.Signal(0)) != nil
}

func (f *Function) processes() (running, tracked int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.running, len(f.all)
}

// chunks reads r in the background: each read's bytes as they arrive, then
// the read's end (nil at EOF).
type chunks struct {
	data chan []byte
	done chan error
}

func readChunks(r io.Reader) *chunks {
	c := &chunks{data: make(chan []byte, 64), done: make(chan error, 1)}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := r.Read(buf)
			if n > 0 {
				c.data <- bytes.Clone(buf[:n])
			}
			if err != nil {
				close(c.data)
				if errors.Is(err, io.EOF) {
					err = nil
				}
				c.done <- err
				return
			}
		}
	}()
	return c
}

// until reads until the bytes read so far end with want.
func (c *chunks) until(t *testing.T, what, want string) string {
	t.Helper()
	var got []byte
	timeout := time.After(bound)
	for !bytes.HasSuffix(got, []byte(want)) {
		select {
		case b, ok := <-c.data:
			if !ok {
				t.Fatalf("%s: the body ended after %q, want %q", what, got, want)
			}
			got = append(got, b...)
		case <-timeout:
			t.Fatalf("%s: read %q, still waiting for %q", what, got, want)
		}
	}
	return string(got)
}

// rest reads to the end: the bytes and how the body ended.
func (c *chunks) rest(t *testing.T, what string) (string, error) {
	t.Helper()
	var got []byte
	timeout := time.After(bound)
	for {
		select {
		case b, ok := <-c.data:
			if !ok {
				return string(got), <-c.done
			}
			got = append(got, b...)
		case <-timeout:
			t.Fatalf("%s: read %q, the body never ended", what, got)
		}
	}
}

// A buffered answer: the first invocation starts a process (cold, init
// timed), which sees the Runtime API's headers (request id, ARN, deadline)
// and the Lambda environment; the second reuses it (warm).
func TestBufferedResponse(t *testing.T) {
	f := newFunction(t, "echo-fn", func(f *Function) { f.Timeout = 45 * time.Second })
	p := payload(t, map[string]any{"mode": "echo", "n": 1})
	before := time.Now()
	res := invoke(t, f, p)
	resp, first := echoOf(t, f, res)
	if !res.Cold || res.Timing.Init <= 0 || res.Timing.Took <= 0 || res.Stream != nil || res.Function != f.Name {
		t.Errorf("first invocation: cold %v, init %v, took %v, stream %v, function %q; want a cold, timed, buffered answer of %s",
			res.Cold, res.Timing.Init, res.Timing.Took, res.Stream != nil, res.Function, f.Name)
	}
	if resp.StatusCode != 200 || resp.Headers["X-Single"] != "single" || len(resp.MultiValueHeaders["Set-Cookie"]) != 2 {
		t.Errorf("proxy response = %+v", resp)
	}
	if first.ARN != f.ARN() || first.FunctionName != f.Name || first.RequestID == "" {
		t.Errorf("the process saw ARN %q, name %q, request id %q; want %q, %q and an id", first.ARN, first.FunctionName, first.RequestID, f.ARN(), f.Name)
	}
	if dl := time.UnixMilli(first.DeadlineMS); dl.Before(before.Add(44*time.Second)) || dl.After(time.Now().Add(46*time.Second)) {
		t.Errorf("deadline %v, want about now + the 45 s timeout", dl)
	}
	if !jsonEqual(first.Event, p) {
		t.Errorf("event %s, want the payload %s", first.Event, p)
	}

	res = invoke(t, f, payload(t, map[string]any{"mode": "echo", "n": 2}))
	_, second := echoOf(t, f, res)
	if res.Cold || res.Timing.Init != 0 || second.PID != first.PID || second.RequestID == first.RequestID {
		t.Errorf("second invocation: cold %v, init %v, pid %d (first %d), request id %q (first %q); want the same process, warm, a new request id",
			res.Cold, res.Timing.Init, second.PID, first.PID, second.RequestID, first.RequestID)
	}
	if s := f.Stats(); s.Cold != 1 || s.Warm != 1 || s.LastCold.Init <= 0 {
		t.Errorf("stats = %+v, want 1 cold (init timed) and 1 warm", s)
	}
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

// A streamed answer reaches the caller piece by piece: its prelude, then
// the first piece while the function is still blocked (at the gate), then
// the rest once the test lets it go on.
func TestStreamedResponseArrivesInPieces(t *testing.T) {
	f := newFunction(t, "stream-fn", nil)
	g := newGate(t)
	res := invoke(t, f, payload(t, map[string]any{"mode": "stream", "wait": g.URL()}))
	if res.Err != nil || res.Stream == nil {
		t.Fatalf("stream-fn: result err %v, stream %v; want a stream", res.Err, res.Stream != nil)
	}
	defer res.Stream.Body.Close()
	var prelude streamPrelude
	if err := json.Unmarshal(res.Stream.Prelude, &prelude); err != nil || prelude.StatusCode != 201 ||
		len(prelude.Cookies) != 2 || prelude.Headers["Content-Type"] != "text/plain; charset=utf-8" {
		t.Errorf("prelude %s (%v), want status 201, its Content-Type and 2 cookies", res.Stream.Prelude, err)
	}
	body := readChunks(res.Stream.Body)
	if got := body.until(t, "stream-fn before the gate opens", "first\n"); got != "first\n" {
		t.Errorf("before the gate opens, read %q, want %q", got, "first\n")
	}
	g.waitArrival("stream-fn")
	// The function is blocked at the gate, and its first piece is here.
	g.open()
	rest, err := body.rest(t, "stream-fn after the gate opened")
	if rest != "second\n" || err != nil {
		t.Errorf("after the gate opened, read %q (end: %v), want %q and a clean end", rest, err, "second\n")
	}
	if fe := res.Stream.Err(); fe != nil {
		t.Errorf("Stream.Err() = %v, want none", fe)
	}
}

// A stream the function ends with an error: the body read so far ends,
// then Stream.Err() is the error of the trailers; the Gateway cuts the
// client's response, which is therefore incomplete.
func TestStreamEndedByError(t *testing.T) {
	f := newFunction(t, "chat", nil)
	res := invoke(t, f, payload(t, map[string]any{"mode": "stream-error"}))
	if res.Err != nil || res.Stream == nil {
		t.Fatalf("chat: result err %v, stream %v; want a stream", res.Err, res.Stream != nil)
	}
	got, err := io.ReadAll(res.Stream.Body)
	if string(got) != "first\n" || err != nil {
		t.Errorf("body = %q (%v), want %q", got, err, "first\n")
	}
	fe := res.Stream.Err()
	if fe == nil || fe.Type != "errorString" || fe.Message != "boom mid-stream" {
		t.Fatalf("Stream.Err() = %v, want errorString: boom mid-stream (the trailers)", fe)
	}

	srv := serveGateway(t, &Gateway{Functions: map[string]*Function{"chat": f}, Log: testLog(t)})
	r, err := client.Post(srv.URL+"/api/v1/mcp-connections/message", "application/json", strings.NewReader(`{"mode":"stream-error"}`))
	if err != nil {
		t.Fatalf("chat: POST /api/v1/mcp-connections/message: %v", err)
	}
	defer r.Body.Close()
	if r.StatusCode != 201 || len(r.Cookies()) != 2 {
		t.Errorf("chat: POST /api/v1/mcp-connections/message = %d, cookies %v; want the prelude's 201 and 2 cookies", r.StatusCode, r.Cookies())
	}
	got, err = io.ReadAll(r.Body)
	if err == nil {
		t.Errorf("chat: POST /api/v1/mcp-connections/message: the response ended cleanly after %q; want it cut (the function failed mid-stream)", got)
	} else if string(got) != "first\n" {
		t.Errorf("chat: POST /api/v1/mcp-connections/message: read %q before the cut, want %q", got, "first\n")
	}
}

// serveGateway serves gw on a loopback port. At the end its functions
// are stopped first: a handler still relaying a stream ends, and the
// server can close.
func serveGateway(t *testing.T, gw *Gateway) *httptest.Server {
	srv := httptest.NewServer(gw)
	t.Cleanup(func() {
		for _, f := range gw.Functions {
			f.Stop()
		}
		srv.Close()
	})
	return srv
}

func testLog(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(t.Output(), nil))
}

// An invocation error (the handler's error, posted to /error) is the
// Result's Err; the process lives on and serves the next one warm.
func TestInvocationError(t *testing.T) {
	f := newFunction(t, "error-fn", nil)
	res := invoke(t, f, payload(t, map[string]any{"mode": "error"}))
	if res.Err == nil || res.Err.Type != "errorString" || res.Err.Message != "invocation failed on purpose" || res.Payload != nil || res.Stream != nil {
		t.Fatalf("error-fn: result err %v, payload %q; want errorString: invocation failed on purpose", res.Err, res.Payload)
	}
	res = invoke(t, f, payload(t, map[string]any{"mode": "echo"}))
	echoOf(t, f, res)
	if res.Cold {
		t.Error("the invocation after an error started another process; want the same one, warm")
	}
}

// A process that exits before asking for its first event fails the
// invocation with Runtime.ExitError and its last output; the next
// invocation starts a fresh process.
func TestInitFailure(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "init-ok")
	f := newFunction(t, "init-fn", func(f *Function) { f.Env = []string{"INIT_OK_FILE=" + marker} })
	res := invoke(t, f, payload(t, map[string]any{"mode": "echo"}))
	if res.Err == nil || res.Err.Type != "Runtime.ExitError" || !res.Cold ||
		!strings.Contains(res.Err.Message, "init failed: marker file missing") || !strings.Contains(res.Err.Message, "exit status 3") {
		t.Fatalf("init-fn: result %+v, err %v; want a cold Runtime.ExitError with the exit status and the last output", res, res.Err)
	}
	waitFor(t, "init-fn's failed process is uncounted", func() bool { r, n := f.processes(); return r == 0 && n == 0 })

	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	res = invoke(t, f, payload(t, map[string]any{"mode": "echo"}))
	echoOf(t, f, res)
	if !res.Cold {
		t.Error("init-fn: the invocation after a failed init was warm; want a fresh process")
	}
}

// An invocation running past the function's timeout ends with
// Sandbox.Timedout and its process is killed, as Lambda does; the next
// invocation starts a new process.
func TestFunctionTimeout(t *testing.T) {
	f := newFunction(t, "slow-fn", func(f *Function) { f.Timeout = time.Second })
	pidFile := filepath.Join(t.TempDir(), "pid")
	res := invoke(t, f, payload(t, map[string]any{"mode": "hang", "pid_file": pidFile}))
	if res.Err == nil || res.Err.Type != "Sandbox.Timedout" || res.Err.Message != "Task timed out after 1.00 seconds" {
		t.Fatalf("slow-fn: result err %v, payload %q; want Sandbox.Timedout", res.Err, res.Payload)
	}
	raw, err := os.ReadFile(pidFile)
	pid, _ := strconv.Atoi(string(raw))
	if err != nil || pid == 0 {
		t.Fatalf("slow-fn wrote no pid: %v", err)
	}
	if !processGone(pid) {
		t.Errorf("slow-fn's process %d still runs after the timeout, want it killed", pid)
	}
	res = invoke(t, f, payload(t, map[string]any{"mode": "echo"}))
	_, e := echoOf(t, f, res)
	if !res.Cold || e.PID == pid {
		t.Errorf("slow-fn after a timeout: cold %v, pid %d (timed out: %d); want a new process", res.Cold, e.PID, pid)
	}
}

// A process that exits in the middle of an invocation fails it with
// Runtime.ExitError; the next invocation starts a new process.
func TestProcessExitDuringInvocation(t *testing.T) {
	f := newFunction(t, "crash-fn", nil)
	res := invoke(t, f, payload(t, map[string]any{"mode": "exit"}))
	if res.Err == nil || res.Err.Type != "Runtime.ExitError" || !strings.Contains(res.Err.Message, "exit status 4") ||
		!strings.Contains(res.Err.Message, "exiting in the middle of an invocation") {
		t.Fatalf("crash-fn: result err %v; want Runtime.ExitError with the exit status and the last output", res.Err)
	}
	res = invoke(t, f, payload(t, map[string]any{"mode": "echo"}))
	echoOf(t, f, res)
	if !res.Cold {
		t.Error("crash-fn: the invocation after a crash was warm; want a new process")
	}
}

// Two invocations at once: the second finds the first process busy and
// starts another (two cold starts, two processes).
func TestConcurrentInvocationsStartAnotherProcess(t *testing.T) {
	f := newFunction(t, "busy-fn", func(f *Function) { f.MaxInstances = 2 })
	g := newGate(t)
	p := payload(t, map[string]any{"mode": "wait", "wait": g.URL()})
	results := make(chan *Result, 2)
	call := func() { results <- invokeAsync(t, f, p) }
	go call()
	g.waitArrival("busy-fn, first invocation")
	// The first process is busy (at the gate): the second invocation needs
	// another.
	go call()
	g.waitArrival("busy-fn, second invocation (a second process)")
	if r, _ := f.processes(); r != 2 {
		t.Errorf("busy-fn runs %d processes, want 2", r)
	}
	g.open()
	pids := map[int]bool{}
	for range 2 {
		res := <-results
		if res == nil {
			t.FailNow()
		}
		_, e := echoOf(t, f, res)
		pids[e.PID] = true
		if !res.Cold {
			t.Error("busy-fn: an invocation was warm; want both cold (each started its process)")
		}
	}
	if len(pids) != 2 {
		t.Errorf("busy-fn: both invocations ran in process(es) %v, want two processes", pids)
	}
	if s := f.Stats(); s.Cold != 2 || s.Warm != 0 {
		t.Errorf("busy-fn stats = %+v, want 2 cold, 0 warm", s)
	}
}

// A cold invocation whose caller gives up (the browser navigated away)
// still counts as the cold start it was: the process started and runs the
// event on. /dev/lambda's figures must not depend on who waited.
func TestCallerGivingUpStillCountsTheColdStart(t *testing.T) {
	f := newFunction(t, "left-fn", nil)
	g := newGate(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := f.Invoke(ctx, payload(t, map[string]any{"mode": "wait", "wait": g.URL()}))
		done <- err
	}()
	g.waitArrival("left-fn, its invocation")
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("left-fn: Invoke after the caller left = %v, want context.Canceled", err)
	}
	g.open()
	if s := f.Stats(); s.Cold != 1 || s.Warm != 0 || s.LastCold.Init <= 0 {
		t.Errorf("left-fn stats = %+v, want the cold start counted with its init time", s)
	}
}

// With MaxInstances 1 a second invocation waits for the busy process and
// then runs in it, warm.
func TestMaxInstancesQueues(t *testing.T) {
	f := newFunction(t, "single-fn", func(f *Function) { f.MaxInstances = 1 })
	g := newGate(t)
	p := payload(t, map[string]any{"mode": "wait", "wait": g.URL()})
	results := make(chan *Result, 2)
	call := func() { results <- invokeAsync(t, f, p) }
	go call()
	g.waitArrival("single-fn, first invocation")
	go call()
	// The second waits in acquire: it made the "changed" channel to wait on.
	waitFor(t, "the second invocation waits for single-fn's process", func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		return f.changed != nil
	})
	if n := g.count.Load(); n != 1 {
		t.Fatalf("single-fn: %d invocations at the gate with MaxInstances 1, want 1", n)
	}
	if r, _ := f.processes(); r != 1 {
		t.Errorf("single-fn runs %d processes, want 1", r)
	}
	g.open()
	first := <-results
	second := <-results
	if first == nil || second == nil {
		t.FailNow()
	}
	_, e1 := echoOf(t, f, first)
	_, e2 := echoOf(t, f, second)
	if !first.Cold || second.Cold || e1.PID != e2.PID {
		t.Errorf("single-fn: cold %v then %v, pids %d and %d; want the second warm in the same process", first.Cold, second.Cold, e1.PID, e2.PID)
	}
	if s := f.Stats(); s.Cold != 1 || s.Warm != 1 {
		t.Errorf("single-fn stats = %+v, want 1 cold, 1 warm", s)
	}
}

// Through the Gateway, the streaming route's body reaches the client as
// the function writes it: the first piece before the function goes on.
func TestGatewayStreamsBeforeTheFunctionReturns(t *testing.T) {
	f := newFunction(t, "chat", nil)
	g := newGate(t)
	srv := serveGateway(t, &Gateway{Functions: map[string]*Function{"chat": f}, Log: testLog(t)})
	body := `{"mode":"stream","wait":"` + g.URL() + `"}`
	r, err := client.Post(srv.URL+"/api/v1/mcp-connections/message", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatalf("chat: POST /api/v1/mcp-connections/message: %v", err)
	}
	defer r.Body.Close()
	if r.StatusCode != 201 || r.Header.Get("Content-Type") != "text/plain; charset=utf-8" ||
		strings.Join(r.Header.Values("X-Multi"), ",") != "one,two" || len(r.Cookies()) != 2 {
		t.Errorf("chat: POST /api/v1/mcp-connections/message = %d %v; want the prelude's status, headers and cookies", r.StatusCode, r.Header)
	}
	c := readChunks(r.Body)
	if got := c.until(t, "chat: POST /api/v1/mcp-connections/message, before the gate opens", "first\n"); got != "first\n" {
		t.Errorf("read %q before the gate opened, want %q", got, "first\n")
	}
	g.waitArrival("chat")
	g.open()
	if rest, err := c.rest(t, "chat: POST /api/v1/mcp-connections/message"); rest != "second\n" || err != nil {
		t.Errorf("chat: POST /api/v1/mcp-connections/message: then %q (%v), want %q and a clean end", rest, err, "second\n")
	}
}

// The Gateway's own answers and the buffered integration: the proxy
// response's headers (both Set-Cookie kept), the event the function got,
// a function error and a malformed response as 502, unknown paths and
// methods as 404, a body over 10 MB as 413 (no invocation), and the
// integration timeout as 504.
func TestGatewayBufferedAnswers(t *testing.T) {
	users := newFunction(t, "users", nil)
	gw := &Gateway{Functions: map[string]*Function{"users": users}, OriginSecret: "origin-secret", Methods: map[string]string{"/api/v1/payments/webhook": "POST"}, Log: testLog(t)}
	srv := serveGateway(t, gw)
	do := func(method, path, body string, header map[string]string) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range header {
			req.Header.Set(k, v)
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatalf("%s %s: body: %v", method, path, err)
		}
		return res, string(b)
	}

	res, body := do("POST", "/api/v1/users/activities?a=1&a=2", `{"mode":"echo"}`, map[string]string{"Cookie": "k=v; k2=v2"})
	if res.StatusCode != 200 || res.Header.Get("X-Single") != "single" || res.Header.Get("Content-Type") != "application/json" {
		t.Errorf("users: POST /api/v1/users/activities = %d %v", res.StatusCode, res.Header)
	}
	if cookies := res.Header.Values("Set-Cookie"); len(cookies) != 2 || cookies[0] != "c1=1; Path=/" || cookies[1] != "c2=2; Path=/" {
		t.Errorf("users: POST /api/v1/users/activities: Set-Cookie %q, want both of the function's", cookies)
	}
	var e echoed
	if err := json.Unmarshal([]byte(body), &e); err != nil {
		t.Fatalf("users: POST /api/v1/users/activities: body %s: %v", body, err)
	}
	var ev events.APIGatewayProxyRequest
	if err := json.Unmarshal(e.Event, &ev); err != nil {
		t.Fatalf("users: POST /api/v1/users/activities: event %s: %v", e.Event, err)
	}
	if ev.Resource != "/api/v1/users/{proxy+}" || ev.PathParameters["proxy"] != "activities" || ev.RequestContext.Path != "/prod/api/v1/users/activities" ||
		ev.Headers["Cookie"] != "k=v; k2=v2" || ev.Headers["X-Origin-Secret"] != "origin-secret" || ev.Body != `{"mode":"echo"}` ||
		ev.QueryStringParameters["a"] != "2" || len(ev.MultiValueQueryStringParameters["a"]) != 2 {
		t.Errorf("users: POST /api/v1/users/activities: the function got %s", e.Event)
	}

	for _, tc := range []struct {
		method, path, body string
		status             int
		want               string
	}{
		{"POST", "/api/v1/users/x", `{"mode":"error"}`, 502, Default5xxBody},
		{"POST", "/api/v1/users/x", `{"mode":"malformed"}`, 502, Default5xxBody},
		{"GET", "/api/v2/nothing", "", 404, NotFoundBody},
		{"GET", "/api/v1/payments/webhook", "", 404, NotFoundBody},
		{"POST", "/api/v1/users/x", strings.Repeat("x", MaxRequestBody+1), 413, TooLargeBody},
	} {
		before := users.Stats()
		res, body := do(tc.method, tc.path, tc.body, nil)
		if res.StatusCode != tc.status || body != tc.want || res.Header.Get("Content-Type") != "application/json" {
			t.Errorf("users: %s %s (%.20s) = %d %s, want %d %s", tc.method, tc.path, tc.body, res.StatusCode, body, tc.status, tc.want)
		}
		if tc.status == 413 && users.Stats() != before {
			t.Errorf("users: %s %s with %d bytes reached the function", tc.method, tc.path, len(tc.body))
		}
	}

	// The integration timeout: the function is still at the gate.
	g := newGate(t)
	slow := &Gateway{Functions: gw.Functions, Timeout: 300 * time.Millisecond, Log: testLog(t)}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/api/v1/users/slow", strings.NewReader(`{"mode":"wait","wait":"`+g.URL()+`"}`))
	slow.ServeHTTP(rec, req)
	if rec.Code != 504 || rec.Body.String() != Default5xxBody {
		t.Errorf("users: POST /api/v1/users/slow past the integration timeout = %d %s, want 504 %s", rec.Code, rec.Body, Default5xxBody)
	}
	g.open()
}

// invokeAsync is Invoke for a goroutine: an error fails the test and
// answers nil.
func invokeAsync(t *testing.T, f *Function, p []byte) *Result {
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	res, err := f.Invoke(ctx, p)
	if err != nil {
		t.Errorf("%s: Invoke: %v", f.Name, err)
	}
	return res
}
