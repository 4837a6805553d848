// Package chattest holds what the tests of the chat's HTTP route groups
// (chatapi, conversationsapi) share: model providers played by fakes (an
// LLM provider is the one thing a test cannot reach) and the reading of
// an SSE stream, frame by frame. Only tests import it.
package chattest

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"aiwork/shared/llm"
)

// Patience bounds a wait for something that normally takes milliseconds:
// generous, so a busy machine never fails a test that would pass; waits end
// as soon as their condition holds, so it costs nothing when all is well.
const Patience = 30 * time.Second

// Upstream is a fake LLM provider: its script plays each call's reply. It
// records each request and closes Ended when a call's context is
// cancelled during the call.
type Upstream struct {
	script func(ctx context.Context, req llm.Request, emit func(string) error) (llm.Usage, error)
	events func(ctx context.Context, req llm.Request, emit func(llm.Event) error) (llm.Usage, error)
	// Ended is closed once a call's context was cancelled while it ran.
	Ended chan struct{}
	mu    sync.Mutex
	reqs  []llm.Request
	once  sync.Once
}

var _ llm.Provider = (*Upstream)(nil)

// NewUpstream plays script, which emits text deltas.
func NewUpstream(script func(ctx context.Context, req llm.Request, emit func(string) error) (llm.Usage, error)) *Upstream {
	return &Upstream{script: script, Ended: make(chan struct{})}
}

// NewEventUpstream plays events, which emits any events (tool calls).
func NewEventUpstream(events func(ctx context.Context, req llm.Request, emit func(llm.Event) error) (llm.Usage, error)) *Upstream {
	return &Upstream{events: events, Ended: make(chan struct{})}
}

func (u *Upstream) Stream(ctx context.Context, req llm.Request, emit func(llm.Event) error) (llm.Usage, error) {
	u.mu.Lock()
	u.reqs = append(u.reqs, req)
	u.mu.Unlock()
	end := func() { u.once.Do(func() { close(u.Ended) }) }
	stop := context.AfterFunc(ctx, end)
	var usage llm.Usage
	var err error
	if u.events != nil {
		usage, err = u.events(ctx, req, emit)
	} else {
		usage, err = u.script(ctx, req, func(s string) error { return emit(llm.Event{Text: s}) })
	}
	// The engine cancels the context once the call is over: only a
	// cancel seen during the call counts.
	stop()
	if ctx.Err() != nil {
		end()
	}
	return usage, err
}

// Requests answers the requests made so far.
func (u *Upstream) Requests() []llm.Request {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]llm.Request(nil), u.reqs...)
}

// Replies is an upstream that emits the deltas and answers the usage.
func Replies(usage llm.Usage, deltas ...string) *Upstream {
	return NewUpstream(func(ctx context.Context, _ llm.Request, emit func(string) error) (llm.Usage, error) {
		for _, d := range deltas {
			if err := emit(d); err != nil {
				return llm.Usage{}, err
			}
		}
		return usage, nil
	})
}

// Fails is an upstream that emits the deltas, then fails with err.
func Fails(err error, deltas ...string) *Upstream {
	return NewUpstream(func(ctx context.Context, _ llm.Request, emit func(string) error) (llm.Usage, error) {
		for _, d := range deltas {
			if err := emit(d); err != nil {
				return llm.Usage{}, err
			}
		}
		return llm.Usage{}, err
	})
}

// Holds is an upstream that emits first, then waits for release (or for
// its context to end), then emits rest.
func Holds(release <-chan struct{}, first string, rest ...string) *Upstream {
	return NewUpstream(func(ctx context.Context, _ llm.Request, emit func(string) error) (llm.Usage, error) {
		if err := emit(first); err != nil {
			return llm.Usage{}, err
		}
		select {
		case <-release:
		case <-ctx.Done():
			return llm.Usage{}, ctx.Err()
		}
		for _, d := range rest {
			if err := emit(d); err != nil {
				return llm.Usage{}, err
			}
		}
		return llm.Usage{InputTokens: 10, OutputTokens: 3}, nil
	})
}

// Frames splits an SSE body into its frames, each with its final blank line.
func Frames(body string) []string {
	var out []string
	for body != "" {
		i := strings.Index(body, "\n\n")
		if i < 0 {
			out = append(out, body)
			break
		}
		out = append(out, body[:i+2])
		body = body[i+2:]
	}
	return out
}

// ReadFrame reads one SSE frame, failing the test after timeout: a server
// that buffers its stream fails instead of hanging.
func ReadFrame(t *testing.T, r *bufio.Reader, timeout time.Duration) string {
	t.Helper()
	type result struct {
		frame string
		err   error
	}
	ch := make(chan result, 1)
	go func() {
		var b strings.Builder
		for {
			line, err := r.ReadString('\n')
			b.WriteString(line)
			if err != nil {
				ch <- result{b.String(), err}
				return
			}
			if line == "\n" {
				ch <- result{b.String(), nil}
				return
			}
		}
	}()
	select {
	case res := <-ch:
		if res.err != nil && res.err != io.EOF {
			t.Fatalf("read frame: %v (got %q)", res.err, res.frame)
		}
		return res.frame
	case <-time.After(timeout):
		t.Fatalf("no frame within %v: the stream is buffered", timeout)
		return ""
	}
}

// ReadData reads the next frame that is not a comment (": …" keep-alives).
func ReadData(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	for {
		if f := ReadFrame(t, r, Patience); !strings.HasPrefix(f, ":") {
			return f
		}
	}
}

// ReadToEnd reads data frames up to the stream's end ([DONE] or an error
// frame) and answers them.
func ReadToEnd(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	var all strings.Builder
	for {
		f := ReadData(t, r)
		all.WriteString(f)
		if f == DoneFrame || strings.HasPrefix(f, "event: error") {
			return all.String()
		}
	}
}

// ContentFrame is the frame of one delta of text.
func ContentFrame(text string) string {
	b, _ := json.Marshal(map[string]string{"content": text})
	return "data: " + string(b) + "\n\n"
}

// ErrorFrame is the frame that ends a stream with an error.
func ErrorFrame(detail string) string {
	b, _ := json.Marshal(map[string]string{"detail": detail})
	return "event: error\ndata: " + string(b) + "\n\n"
}

// DoneFrame ends a complete reply.
const DoneFrame = "data: [DONE]\n\n"
