// Package lambdalocal runs the real function binaries (each functions/<name>
// bootstrap) the way Lambda does, on this machine: every process gets its
// own Runtime API (invocation/next, response, error, init/error, and the
// streaming response mode with its error trailers), one invocation at a
// time; a Function starts another process when all of its are busy, up to
// a cap, so cold starts happen and are timed. Gateway puts API Gateway's
// REST proxy integration in front of them, routed by shared/routes.
// `make run-lambda` serves the product through it, and `make bench` times
// each function's cold start with it.
package lambdalocal

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Runtime API paths (https://docs.aws.amazon.com/lambda/latest/dg/runtimes-api.html).
const (
	apiVersion = "/2018-06-01"
	// streamingContentType is what aws-lambda-go posts for an
	// events.APIGatewayProxyStreamingResponse: a JSON prelude, eight NUL
	// bytes, then the body.
	streamingContentType = "application/vnd.awslambda.http-integration-response"
	trailerErrorType     = "Lambda-Runtime-Function-Error-Type"
	trailerErrorBody     = "Lambda-Runtime-Function-Error-Body"
	// maxBufferedResponse is Lambda's limit on a buffered response (6 MB).
	maxBufferedResponse = 6 << 20
)

// invocation is one event handed to a process and what it answered.
type invocation struct {
	id       string
	payload  []byte
	deadline time.Time
	answered chan answer // one answer; buffered
}

// answer is a process's reply to one invocation: a buffered payload, the
// head of a stream (its prelude, with the body still arriving), or an
// error.
type answer struct {
	payload []byte
	stream  *stream
	err     *FunctionError
	at      time.Time
}

// stream is a streamed response: the prelude, then the body as the function
// writes it; err is set (before body ends) when the function reported an
// error through its trailers.
type stream struct {
	prelude []byte
	body    *io.PipeReader
	done    chan struct{} // closed when the function's body has ended
	errMu   sync.Mutex
	err     *FunctionError
}

// fail records the stream's error; the first one stays (a timeout's, say,
// over the broken body it causes).
func (s *stream) fail(fe *FunctionError) {
	s.errMu.Lock()
	defer s.errMu.Unlock()
	if s.err == nil {
		s.err = fe
	}
}

// Err is the error the function reported at the end of its stream, if any
// (read it once the body is drained).
func (s *stream) Err() *FunctionError {
	s.errMu.Lock()
	defer s.errMu.Unlock()
	return s.err
}

// FunctionError is what a function reported instead of a response
// (invocation error, init error, a crash, a timeout).
type FunctionError struct {
	Type    string `json:"errorType"`
	Message string `json:"errorMessage"`
}

func (e *FunctionError) Error() string { return e.Type + ": " + e.Message }

// instance is one execution environment: a process and its Runtime API.
type instance struct {
	fn      *Function
	cmd     *exec.Cmd
	srv     *http.Server
	addr    string
	started time.Time

	next   chan *invocation // the invocation to hand out on the next "next"
	ready  chan struct{}    // closed at the first "next": init is over
	exited chan struct{}    // closed when the process has exited
	logs   *tailBuffer

	mu       sync.Mutex
	current  *invocation
	initErr  *FunctionError
	initTook time.Duration
}

// startInstance starts bin with env and its own Runtime API on loopback.
func startInstance(fn *Function) (*instance, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	in := &instance{fn: fn, addr: ln.Addr().String(), next: make(chan *invocation),
		ready: make(chan struct{}), exited: make(chan struct{}), logs: newTailBuffer(16 << 10)}
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+apiVersion+"/runtime/invocation/next", in.handleNext)
	mux.HandleFunc("POST "+apiVersion+"/runtime/invocation/{id}/response", in.handleResponse)
	mux.HandleFunc("POST "+apiVersion+"/runtime/invocation/{id}/error", in.handleError)
	mux.HandleFunc("POST "+apiVersion+"/runtime/init/error", in.handleInitError)
	in.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = in.srv.Serve(ln) }()

	cmd := exec.Command(fn.Binary)
	cmd.Env = append(fn.environ(), "AWS_LAMBDA_RUNTIME_API="+in.addr)
	cmd.Dir = fn.Dir
	out := io.MultiWriter(in.logs, fn.logWriter())
	cmd.Stdout, cmd.Stderr = out, out
	setDeathSignal(cmd)
	in.mu.Lock()
	in.cmd = cmd
	in.started = time.Now()
	err = cmd.Start()
	in.mu.Unlock()
	if err != nil {
		_ = in.srv.Close()
		return nil, fmt.Errorf("start %s: %w", fn.Name, err)
	}
	go func() {
		_ = cmd.Wait()
		close(in.exited)
		_ = in.srv.Close()
	}()
	return in, nil
}

// handleNext hands out the next invocation; the first call ends init.
func (in *instance) handleNext(w http.ResponseWriter, r *http.Request) {
	in.mu.Lock()
	select {
	case <-in.ready:
	default:
		in.initTook = time.Since(in.started)
		close(in.ready)
	}
	in.mu.Unlock()
	var inv *invocation
	select {
	case inv = <-in.next:
	case <-r.Context().Done():
		return // the process went away (or the server is closing)
	}
	in.mu.Lock()
	in.current = inv
	in.mu.Unlock()
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Lambda-Runtime-Aws-Request-Id", inv.id)
	h.Set("Lambda-Runtime-Deadline-Ms", strconv.FormatInt(inv.deadline.UnixMilli(), 10))
	h.Set("Lambda-Runtime-Invoked-Function-Arn", in.fn.ARN())
	h.Set("Lambda-Runtime-Trace-Id", "Root=1-"+strconv.FormatInt(time.Now().Unix(), 16)+"-"+strings.ReplaceAll(inv.id, "-", "")[:24]+";Sampled=0")
	_, _ = w.Write(inv.payload)
}

// invocationFor answers the current invocation when id names it.
func (in *instance) invocationFor(w http.ResponseWriter, id string) (*invocation, bool) {
	in.mu.Lock()
	inv := in.current
	in.mu.Unlock()
	if inv == nil || inv.id != id {
		writeRuntimeError(w, http.StatusBadRequest, "InvalidRequestID", "no invocation "+id+" is in progress")
		return nil, false
	}
	return inv, true
}

// finish ends inv: its answer is complete, so the process is free for
// the next invocation (handed over when it asks for it, which it does a
// moment later; a caller in between waits for that, not for a new process).
func (in *instance) finish(inv *invocation) {
	in.mu.Lock()
	mine := in.current == inv
	if mine {
		in.current = nil
	}
	in.mu.Unlock()
	if mine {
		in.fn.release(in)
	}
}

// handleResponse takes a buffered response, or streams one
// (streamingContentType), to the invocation's caller.
func (in *instance) handleResponse(w http.ResponseWriter, r *http.Request) {
	inv, ok := in.invocationFor(w, r.PathValue("id"))
	if !ok {
		return
	}
	if strings.HasPrefix(r.Header.Get("Content-Type"), streamingContentType) {
		defer in.finish(inv) // once the stream is over
		in.relayStream(w, r, inv)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBufferedResponse+1))
	// Free before answering: the caller's next invocation finds this
	// process idle (it takes it as soon as the process asks).
	in.finish(inv)
	switch {
	case err != nil:
		inv.answer(answer{err: &FunctionError{Type: "Runtime.ResponseReadFailed", Message: err.Error()}})
	case len(body) > maxBufferedResponse:
		inv.answer(answer{err: &FunctionError{Type: "Function.ResponseSizeTooLarge",
			Message: fmt.Sprintf("Response payload size exceeded maximum allowed payload size (%d bytes).", maxBufferedResponse)}})
		writeRuntimeError(w, http.StatusRequestEntityTooLarge, "RequestEntityTooLarge", "response too large")
		return
	default:
		inv.answer(answer{payload: body})
	}
	w.WriteHeader(http.StatusAccepted)
}

// relayStream reads the prelude up to its eight NUL bytes, hands the head
// to the caller, then copies the body through a pipe as it arrives; the
// error trailers, when set, end the stream with the function's error.
func (in *instance) relayStream(w http.ResponseWriter, r *http.Request, inv *invocation) {
	br := bufio.NewReader(r.Body)
	prelude, err := readPrelude(br)
	if err != nil {
		inv.answer(answer{err: &FunctionError{Type: "Runtime.InvalidStreamingPrelude", Message: err.Error()}})
		_, _ = io.Copy(io.Discard, br)
		w.WriteHeader(http.StatusAccepted)
		return
	}
	pr, pw := io.Pipe()
	st := &stream{prelude: prelude, body: pr, done: make(chan struct{})}
	defer close(st.done)
	inv.answer(answer{stream: st})
	buf := make([]byte, 32<<10)
	var rerr error
	for {
		var n int
		n, rerr = br.Read(buf)
		if n > 0 {
			if _, werr := pw.Write(buf[:n]); werr != nil {
				// The caller went away: drain what the function still sends.
				_, rerr = io.Copy(io.Discard, br)
				if rerr == nil {
					rerr = io.EOF
				}
				break
			}
		}
		if rerr != nil {
			break
		}
	}
	switch t := r.Trailer.Get(trailerErrorType); {
	case t != "":
		fe := &FunctionError{Type: t}
		if b, err := decodeBase64(r.Trailer.Get(trailerErrorBody)); err == nil {
			var body FunctionError
			if json.Unmarshal(b, &body) == nil {
				fe.Message = body.Message
			}
		}
		st.fail(fe)
	case rerr != io.EOF:
		// The body broke off: the process died (or was ended at its
		// timeout) in the middle of its stream. The stream ends once it
		// is gone, as the invocation does in Lambda.
		st.fail(&FunctionError{Type: "Runtime.ExitError", Message: "the process exited in the middle of its streamed response"})
		select {
		case <-in.exited:
		case <-time.After(5 * time.Second):
		}
	}
	_ = pw.Close() // the reader sees EOF; Stream.Err tells how it ended
	w.WriteHeader(http.StatusAccepted)
}

// readPrelude reads the JSON prelude and the eight NUL bytes after it.
func readPrelude(br *bufio.Reader) ([]byte, error) {
	var prelude []byte
	zeros := 0
	for zeros < 8 {
		b, err := br.ReadByte()
		if err != nil {
			return nil, fmt.Errorf("streamed response ended before its prelude's 8 NUL bytes: %w", err)
		}
		if b == 0 {
			zeros++
			continue
		}
		if zeros > 0 {
			return nil, errors.New("streamed response has fewer than 8 NUL bytes after its prelude")
		}
		if len(prelude) > 64<<10 {
			return nil, errors.New("streamed response prelude is longer than 64 KiB")
		}
		prelude = append(prelude, b)
	}
	return prelude, nil
}

func (in *instance) handleError(w http.ResponseWriter, r *http.Request) {
	inv, ok := in.invocationFor(w, r.PathValue("id"))
	if !ok {
		return
	}
	fe := readFunctionError(r, "Function.Error")
	in.finish(inv)
	inv.answer(answer{err: fe})
	w.WriteHeader(http.StatusAccepted)
}

func (in *instance) handleInitError(w http.ResponseWriter, r *http.Request) {
	in.mu.Lock()
	in.initErr = readFunctionError(r, "Runtime.InitError")
	in.mu.Unlock()
	w.WriteHeader(http.StatusAccepted)
}

func readFunctionError(r *http.Request, fallback string) *FunctionError {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	fe := &FunctionError{}
	if json.Unmarshal(body, fe) != nil || fe.Type == "" {
		fe.Type = fallback
		if fe.Message == "" {
			fe.Message = strings.TrimSpace(string(body))
		}
	}
	if t := r.Header.Get("Lambda-Runtime-Function-Error-Type"); t != "" {
		fe.Type = t
	}
	return fe
}

func decodeBase64(s string) ([]byte, error) { return base64.StdEncoding.DecodeString(s) }

func writeRuntimeError(w http.ResponseWriter, status int, kind, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"errorType": kind, "errorMessage": msg})
}

// answer delivers the first answer of an invocation; later ones (a
// response after an error, say) are dropped.
func (inv *invocation) answer(a answer) {
	a.at = time.Now()
	select {
	case inv.answered <- a:
	default:
	}
}

// waitReady waits until the process asked for its first event (init is
// over), failed its init, or exited.
func (in *instance) waitReady(ctx context.Context, limit time.Duration) error {
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case <-in.ready:
		return nil
	case <-in.exited:
		return in.deathError("Runtime.ExitError", "the process exited during init")
	case <-t.C:
		return &FunctionError{Type: "Runtime.InitTimeout", Message: fmt.Sprintf("init did not finish within %s", limit)}
	case <-ctx.Done():
		return ctx.Err()
	}
}

// deathError describes a process that ended: its init error when it posted
// one, else kind with its last output.
func (in *instance) deathError(kind, what string) *FunctionError {
	in.mu.Lock()
	initErr := in.initErr
	in.mu.Unlock()
	if initErr != nil {
		return initErr
	}
	msg := what
	if code := in.exitCode(); code != "" {
		msg += " (" + code + ")"
	}
	if tail := strings.TrimSpace(in.logs.String()); tail != "" {
		if len(tail) > 2000 {
			tail = "…" + tail[len(tail)-2000:]
		}
		msg += "; last output: " + tail
	}
	return &FunctionError{Type: kind, Message: msg}
}

func (in *instance) exitCode() string {
	if in.cmd == nil || in.cmd.ProcessState == nil {
		return ""
	}
	return in.cmd.ProcessState.String()
}

// stop ends the process and its Runtime API.
func (in *instance) stop() {
	if in.cmd != nil && in.cmd.Process != nil {
		_ = in.cmd.Process.Kill()
		<-in.exited
	}
	_ = in.srv.Close()
}

// tailBuffer keeps the last n bytes written (a process's last output, for
// error messages).
type tailBuffer struct {
	mu  sync.Mutex
	n   int
	buf []byte
}

func newTailBuffer(n int) *tailBuffer { return &tailBuffer{n: n} }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.n; over > 0 {
		t.buf = bytes.Clone(t.buf[over:])
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
