package lambdalocal

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"aiwork/shared/config"
)

// Function is one Lambda function: its bootstrap binary, its configuration
// (environment variables, as the stack sets them) and its execution
// environments, each a process serving one invocation at a time.
type Function struct {
	Name   string
	Binary string // the bootstrap, built for this machine
	Dir    string // working directory ("" : the caller's)
	// Env is the function's configuration, KEY=VALUE; the Lambda runtime's
	// own variables (AWS_LAMBDA_*, AWS_REGION, _HANDLER, ...) are added.
	Env []string
	// Region is AWS_REGION (default us-east-1).
	Region string
	// MemoryMB is AWS_LAMBDA_FUNCTION_MEMORY_SIZE (default 512).
	MemoryMB int
	// MaxInstances caps the processes (default 4): a request finding them
	// all busy waits for one.
	MaxInstances int
	// Timeout is the function's timeout: an invocation running longer is
	// ended with its process, as Lambda does (default 30 s).
	Timeout time.Duration
	// InitTimeout bounds init, Lambda's 10 s (default).
	InitTimeout time.Duration
	// Log receives every process's output (nil: dropped).
	Log io.Writer

	mu      sync.Mutex
	idle    []*instance
	running int
	changed chan struct{} // closed (and replaced) when an instance frees up or ends
	stopped bool
	all     map[*instance]bool
	stats   Stats
}

// Stats are a function's invocations as timed here.
type Stats struct {
	Cold, Warm int
	// LastCold is the last cold start: process start → first event asked
	// (Init) and event handed → answer (Took).
	LastCold Timing
	// LastWarm is the last invocation of a process already running.
	LastWarm Timing
}

// Timing is one invocation's durations.
type Timing struct {
	Init time.Duration
	Took time.Duration
}

// Result is one invocation's outcome: a buffered Payload, a Stream, or the
// function's Err (its error, a crash, a timeout, a failed init).
type Result struct {
	Function string
	Cold     bool
	Timing   Timing
	Payload  []byte
	Stream   *Stream
	Err      *FunctionError
}

// Stream is a streamed response: Prelude (its JSON head), then Body as the
// function writes it. Err, read once Body is drained, is the error the
// function reported in its trailers (the stream was cut short).
type Stream struct {
	Prelude []byte
	Body    io.ReadCloser
	s       *stream
}

// Err is the function's error at the end of the stream, if any.
func (s *Stream) Err() *FunctionError { return s.s.Err() }

func (f *Function) defaults() {
	if f.Region == "" {
		f.Region = "us-east-1"
	}
	if f.MemoryMB == 0 {
		f.MemoryMB = 512
	}
	if f.MaxInstances <= 0 {
		f.MaxInstances = 4
	}
	if f.Timeout <= 0 {
		f.Timeout = 30 * time.Second
	}
	if f.InitTimeout <= 0 {
		f.InitTimeout = 10 * time.Second
	}
}

// ARN is the function's local ARN.
func (f *Function) ARN() string {
	return "arn:aws:lambda:" + f.Region + ":000000000000:function:" + f.Name
}

// environ is the process environment: the runtime's variables, then Env
// (Env cannot override the reserved ones, as in Lambda).
func (f *Function) environ() []string {
	env := append([]string{}, f.Env...)
	return append(env,
		"AWS_LAMBDA_FUNCTION_NAME="+f.Name,
		"AWS_LAMBDA_FUNCTION_VERSION=$LATEST",
		"AWS_LAMBDA_FUNCTION_MEMORY_SIZE="+strconv.Itoa(f.MemoryMB),
		"AWS_LAMBDA_LOG_GROUP_NAME=/aws/lambda/"+f.Name,
		"AWS_LAMBDA_LOG_STREAM_NAME=local",
		"AWS_LAMBDA_INITIALIZATION_TYPE=on-demand",
		"AWS_EXECUTION_ENV=AWS_Lambda_provided.al2023",
		"AWS_REGION="+f.Region,
		"AWS_DEFAULT_REGION="+f.Region,
		"_HANDLER=bootstrap",
		"TZ=:UTC",
		// Marks the emulator for the one rule that differs (config.inLambda).
		config.LocalLambdaVar+"=true",
	)
}

func (f *Function) logWriter() io.Writer {
	if f.Log == nil {
		return io.Discard
	}
	return f.Log
}

// Invoke hands payload to an idle process, or to a new one (a cold start)
// when all are busy and the cap allows; else it waits for one. It answers
// the function's reply; a Result.Err is the function's failure, an error
// is the caller's (ctx ended, the function stopped). A Result's Stream must
// be read to its end or closed.
func (f *Function) Invoke(ctx context.Context, payload []byte) (*Result, error) {
	for {
		in, cold, err := f.acquire(ctx)
		if err != nil {
			return nil, err
		}
		res := &Result{Function: f.Name, Cold: cold}
		if cold {
			if err := in.waitReady(ctx, f.InitTimeout); err != nil {
				in.stop()
				var fe *FunctionError
				if errors.As(err, &fe) {
					res.Err = fe
					return res, nil
				}
				return nil, err
			}
			res.Timing.Init = in.initTook
		}
		inv := &invocation{id: newRequestID(), payload: payload, deadline: time.Now().Add(f.Timeout), answered: make(chan answer, 1)}
		select {
		case in.next <- inv:
		case <-in.exited:
			continue // an idle process that had ended: take another
		case <-ctx.Done():
			f.release(in)
			return nil, ctx.Err()
		}
		handed := time.Now()
		err = f.await(ctx, in, inv, res)
		res.Timing.Took = time.Since(handed)
		// Counted also when the caller gave up: the invocation was made (and
		// runs on), and its process's start happened; Took is then the time
		// until the caller left.
		f.count(res)
		if err != nil {
			return nil, err
		}
		return res, nil
	}
}

// await waits for inv's answer and fills res; a timeout or a crash ends
// the process, as in Lambda.
func (f *Function) await(ctx context.Context, in *instance, inv *invocation, res *Result) error {
	timeout := time.NewTimer(time.Until(inv.deadline))
	defer timeout.Stop()
	select {
	case a := <-inv.answered:
		res.Payload = a.payload
		res.Err = a.err
		if a.stream != nil {
			res.Stream = &Stream{Prelude: a.stream.prelude, Body: a.stream.body, s: a.stream}
			go f.limitStream(in, a.stream, inv.deadline)
		}
		return nil
	case <-in.exited:
		res.Err = in.deathError("Runtime.ExitError", "the process exited during the invocation")
		return nil
	case <-timeout.C:
		in.stop()
		res.Err = &FunctionError{Type: "Sandbox.Timedout", Message: fmt.Sprintf("Task timed out after %.2f seconds", f.Timeout.Seconds())}
		return nil
	case <-ctx.Done():
		// The caller gave up (API Gateway's integration timeout); the
		// invocation runs on, as in Lambda, until it answers or times out,
		// and a late stream is drained so the function can finish it.
		go func() {
			var late Result
			_ = f.await(context.Background(), in, inv, &late)
			if late.Stream != nil {
				_, _ = io.Copy(io.Discard, late.Stream.Body)
				_ = late.Stream.Body.Close()
			}
		}()
		return ctx.Err()
	}
}

// limitStream ends a stream still running at the function's timeout, with
// its process, as Lambda does.
func (f *Function) limitStream(in *instance, st *stream, deadline time.Time) {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case <-st.done:
	case <-t.C:
		st.fail(&FunctionError{Type: "Sandbox.Timedout", Message: fmt.Sprintf("Task timed out after %.2f seconds", f.Timeout.Seconds())})
		in.stop()
	}
}

func (f *Function) count(res *Result) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if res.Cold {
		f.stats.Cold++
		f.stats.LastCold = res.Timing
	} else {
		f.stats.Warm++
		f.stats.LastWarm = res.Timing
	}
}

// Stats answers the function's invocation counts and last timings.
func (f *Function) Stats() Stats {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.stats
}

// acquire takes an idle process, or starts one (cold), or waits.
func (f *Function) acquire(ctx context.Context) (*instance, bool, error) {
	f.mu.Lock()
	f.defaults()
	for {
		if f.stopped {
			f.mu.Unlock()
			return nil, false, fmt.Errorf("function %s is stopped", f.Name)
		}
		for len(f.idle) > 0 {
			in := f.idle[len(f.idle)-1]
			f.idle = f.idle[:len(f.idle)-1]
			select {
			case <-in.exited:
				continue // ended while idle; its watcher uncounts it
			default:
				f.mu.Unlock()
				return in, false, nil
			}
		}
		if f.running < f.MaxInstances {
			f.running++
			f.mu.Unlock()
			in, err := startInstance(f)
			if err != nil {
				f.mu.Lock()
				f.running--
				f.signal()
				f.mu.Unlock()
				return nil, false, err
			}
			f.track(in)
			return in, true, nil
		}
		if f.changed == nil {
			f.changed = make(chan struct{})
		}
		wait := f.changed
		f.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return nil, false, ctx.Err()
		}
		f.mu.Lock()
	}
}

// track watches a new process: when it ends it is uncounted.
func (f *Function) track(in *instance) {
	f.mu.Lock()
	if f.all == nil {
		f.all = map[*instance]bool{}
	}
	f.all[in] = true
	f.mu.Unlock()
	go func() {
		<-in.exited
		f.mu.Lock()
		defer f.mu.Unlock()
		delete(f.all, in)
		f.running--
		f.signal()
	}()
}

// release makes in idle again: it asked for its next event.
func (f *Function) release(in *instance) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopped {
		return
	}
	f.idle = append(f.idle, in)
	f.signal()
}

// signal wakes the waiters of acquire (f.mu held).
func (f *Function) signal() {
	if f.changed != nil {
		close(f.changed)
		f.changed = nil
	}
}

// Stop ends every process of the function.
func (f *Function) Stop() {
	f.mu.Lock()
	f.stopped = true
	all := make([]*instance, 0, len(f.all))
	for in := range f.all {
		all = append(all, in)
	}
	f.idle = nil
	f.signal()
	f.mu.Unlock()
	for _, in := range all {
		in.stop()
	}
}

// newRequestID is a UUID-shaped request id, as Lambda's.
func newRequestID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}
