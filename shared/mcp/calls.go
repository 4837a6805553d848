package mcp

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// CallRequest is one tools/call and what hears the server while it runs.
type CallRequest struct {
	Name string
	Args map[string]any
	// InputResponses and RequestState retry a call the server answered
	// with an input-required result (SEP-2322, multi round-trip requests):
	// the user's answers by the server's request ids, and its state echoed
	// exactly as it was sent ("" when it sent none).
	InputResponses mcp.InputResponseMap
	RequestState   string
	Hooks          *CallHooks
}

// CallHooks hear what a server sends while one of its tool calls runs:
// its progress notifications (sent with the call's own progress token),
// its log messages, and the questions it asks the user. Each is called
// from the session's own goroutines; nil hooks ignore the kind.
type CallHooks struct {
	Progress func(p Progress)
	Log      func(level string, data json.RawMessage)
	// Ask puts a server's question (elicitation/create, or a URL
	// elicitation a -32042 error asks for) to the user and answers the
	// user's reply. It blocks until then; completed closes when the server
	// says a URL elicitation of this question completed (nil for a form).
	// An error is sent back to the server as the request's error.
	Ask func(ctx context.Context, q *mcp.ElicitParams, completed <-chan struct{}) (*mcp.ElicitResult, error)
}

// Progress is one notifications/progress of a call.
type Progress struct {
	Progress float64
	Total    float64 // 0: unknown
	Message  string
}

// calls are the tool calls running on a session, by progress token, and
// the URL elicitations waiting for the server's completion notice.
type calls struct {
	mu       sync.Mutex
	byToken  map[string]*CallHooks
	complete map[string]chan struct{}
	// pending counts notifications read and not yet handled (settle).
	pending atomic.Int64
	handled chan struct{}
	// schemas are the forms of the server's questions as it wrote them.
	schemas rawSchemas
}

func newCalls() *calls { return &calls{handled: make(chan struct{}, 1)} }

func newProgressToken() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return "aiwork-" + hex.EncodeToString(b)
}

func (c *calls) add(token string, h *CallHooks) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byToken == nil {
		c.byToken = map[string]*CallHooks{}
	}
	c.byToken[token] = h
}

func (c *calls) remove(token string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.byToken, token)
}

func (c *calls) byProgressToken(tok any) *CallHooks {
	s, ok := tok.(string)
	if !ok {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.byToken[s]
}

// running is every call's hooks.
func (c *calls) running() []*CallHooks {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]*CallHooks, 0, len(c.byToken))
	for _, h := range c.byToken {
		out = append(out, h)
	}
	return out
}

// awaitComplete registers a waiter for a URL elicitation's completion
// notice; done forgets it.
func (c *calls) awaitComplete(id string) (ch <-chan struct{}, done func()) {
	if id == "" {
		return nil, func() {}
	}
	w := make(chan struct{})
	c.mu.Lock()
	if c.complete == nil {
		c.complete = map[string]chan struct{}{}
	}
	c.complete[id] = w
	c.mu.Unlock()
	return w, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.complete[id] == w {
			delete(c.complete, id)
		}
	}
}

func (c *calls) completed(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if w, ok := c.complete[id]; ok {
		close(w)
		delete(c.complete, id)
	}
}

// ErrNoCallAsking refuses a question no running call of the session can
// put to its user: none runs (the reply ended), or several do and the
// question names none of them.
var ErrNoCallAsking = errors.New("no tool call of this session is waiting for an answer from its user")

// chatCapabilities are what a chat session declares: it answers a
// server's questions (elicitation, form and URL), and it renders the views
// of MCP Apps (the io.modelcontextprotocol/ui extension). A handshake
// declares the same (open), so the tools a server lists at connect are the
// ones it lists to the chat: some list their asking tools only to a client
// that can answer, and their views only to a host that renders them.
func chatCapabilities() *mcp.ClientCapabilities {
	c := &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{
		Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}}}
	c.AddExtension(UIExtension, map[string]any{"mimeTypes": []string{UIMimeType}})
	return c
}

// clientOptions are a chat session's: it declares elicitation (form and
// URL) and routes what the server sends to the call it belongs to. Multi
// round-trip requests are left to the caller (a reply pauses for them
// rather than hold its instance).
func (c *calls) clientOptions() *mcp.ClientOptions {
	return &mcp.ClientOptions{
		Capabilities:   chatCapabilities(),
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			var asking []*CallHooks
			for _, h := range c.running() {
				if h.Ask != nil {
					asking = append(asking, h)
				}
			}
			if len(asking) != 1 {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: ErrNoCallAsking.Error()}
			}
			return c.ask(ctx, asking[0], c.schemas.put(req.Params))
		},
		ElicitationCompleteHandler: func(_ context.Context, req *mcp.ElicitationCompleteNotificationRequest) {
			if req.Params != nil {
				c.completed(req.Params.ElicitationID)
			}
		},
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			defer c.delivered()
			if p := req.Params; p != nil {
				if h := c.byProgressToken(p.ProgressToken); h != nil && h.Progress != nil {
					h.Progress(Progress{Progress: p.Progress, Total: p.Total, Message: p.Message})
				}
			}
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			defer c.delivered()
			p := req.Params
			if p == nil {
				return
			}
			data, err := json.Marshal(p.Data)
			if err != nil {
				return
			}
			// A log message names no request: it goes to the calls running.
			for _, h := range c.running() {
				if h.Log != nil {
					h.Log(string(p.Level), data)
				}
			}
		},
	}
}

// ask puts q to h's user, with the server's completion notice for a URL
// elicitation as another way to go on.
func (c *calls) ask(ctx context.Context, h *CallHooks, q *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	completed, done := c.awaitComplete(q.ElicitationID)
	defer done()
	return h.Ask(ctx, q, completed)
}

// urlElicitations reads the URL elicitations a -32042 error asks for.
func urlElicitations(err error) ([]*mcp.ElicitParams, bool) {
	var rpc *jsonrpc.Error
	if !errors.As(err, &rpc) || rpc.Code != mcp.CodeURLElicitationRequired {
		return nil, false
	}
	var data struct {
		Elicitations []*mcp.ElicitParams `json:"elicitations"`
	}
	if len(rpc.Data) > 0 && json.Unmarshal(rpc.Data, &data) != nil {
		return nil, false
	}
	for _, e := range data.Elicitations {
		if e == nil {
			return nil, false
		}
		if e.Mode == "" {
			e.Mode = "url"
		}
	}
	return data.Elicitations, len(data.Elicitations) > 0
}

// askURLs asks each URL elicitation of a -32042 error, as the server asked
// them in a request: all must be accepted for the call to be retried.
func (c *calls) askURLs(ctx context.Context, h *CallHooks, qs []*mcp.ElicitParams) error {
	for _, q := range qs {
		if q.Mode != "url" {
			return fmt.Errorf("a URL elicitation required error asked for a %q elicitation", q.Mode)
		}
		res, err := c.ask(ctx, h, q)
		if err != nil {
			return err
		}
		if res.Action != "accept" {
			return &urlDeclined{action: res.Action}
		}
	}
	return nil
}

// urlDeclined: the user did not go through with a URL elicitation the
// call needs.
type urlDeclined struct{ action string }

func (e *urlDeclined) Error() string {
	return "the user answered " + e.action + " to the server's request"
}

// The SDK hands a response to its caller as soon as it is read, while the
// notifications read before it wait in the session's handler queue: a
// call's last progress and log messages would reach its hooks after the
// call returned. The notifications are counted as their bytes arrive
// (noticeCounter, under the SDK), and a call that returns waits, briefly,
// for the ones counted to be handled (settle), so its frames come before
// its result.
var noticeMarks = [][]byte{[]byte(`"notifications/progress"`), []byte(`"notifications/message"`)}

// maxSettle bounds that wait (a mark inside a result's text is counted too).
const maxSettle = 250 * time.Millisecond

func (c *calls) counted() { c.pending.Add(1) }
func (c *calls) delivered() {
	c.pending.Add(-1)
	select {
	case c.handled <- struct{}{}:
	default:
	}
}

// settle waits until the notifications counted are handled.
func (c *calls) settle() {
	if c.pending.Load() <= 0 {
		return
	}
	t := time.NewTimer(maxSettle)
	defer t.Stop()
	for c.pending.Load() > 0 {
		select {
		case <-c.handled:
		case <-t.C:
			c.pending.Store(0)
			return
		}
	}
}

// noticeCounter counts the notifications in the event streams it reads.
type noticeCounter struct {
	base  http.RoundTripper
	calls *calls
}

func (n *noticeCounter) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := n.base.RoundTrip(req)
	if err != nil {
		return res, err
	}
	switch ct := res.Header.Get("Content-Type"); {
	case strings.HasPrefix(ct, "text/event-stream"):
		res.Body = &countingBody{ReadCloser: res.Body, calls: n.calls, events: sseEvents{schemas: &n.calls.schemas}}
	case strings.HasPrefix(ct, "application/json"):
		res.Body = &jsonBody{ReadCloser: res.Body, schemas: &n.calls.schemas}
	}
	return res, nil
}

// countingBody counts an event stream's notifications, and reads the
// forms of the questions in it (schemas.go).
type countingBody struct {
	io.ReadCloser
	calls  *calls
	tail   []byte
	events sseEvents
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.events.write(p[:n])
		buf := append(b.tail, p[:n]...)
		for _, m := range noticeMarks {
			for i, off := 0, 0; ; off += i + len(m) {
				i = bytes.Index(buf[off:], m)
				if i < 0 {
					break
				}
				if off+i+len(m) > len(b.tail) { // not counted with the last read
					b.calls.counted()
				}
			}
		}
		keep := min(len(buf), 32)
		b.tail = append(b.tail[:0:0], buf[len(buf)-keep:]...)
	}
	return n, err
}

// counting is hc with its event streams' notifications counted for c.
func counting(hc *http.Client, c *calls) *http.Client {
	if hc == nil {
		hc = strictClient()
	}
	out := *hc
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	out.Transport = &noticeCounter{base: base, calls: c}
	return &out
}
