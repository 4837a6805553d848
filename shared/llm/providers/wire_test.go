package providers_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"aiwork/shared/llm"
)

// patience bounds a wait for something that normally takes milliseconds:
// generous, so a busy machine never fails a test that would pass; waits end
// as soon as their condition holds, so it costs nothing when all is well.
const patience = 30 * time.Second

// The adapters are tested against httptest servers that speak each
// provider's documented streaming wire format: the SDK, the HTTP exchange
// and our mapping are all real; only the provider is played by the test.

const testKey = "sk-test-SECRET-0123456789"

// wire is one provider's streaming format as the test server speaks it.
type wire struct {
	label       string
	model       string // the API model id sent
	keyless     bool   // signs with AWS credentials: no API key to leak
	contentType string
	// newProvider builds the adapter on the test server, without retries.
	newProvider func(t *testing.T, serverURL string) llm.Provider
	// open is the frames before the first delta, delta a text delta's
	// frame, close the frames after the last one (with the usage).
	open  func() [][]byte
	delta func(text string) []byte
	close func(u llm.Usage) [][]byte
	// fail is the in-stream error frame, and midStatus the status it maps to.
	fail      func(message string) []byte
	midStatus int
	// httpError answers a refused request the way the provider does.
	httpError func(w http.ResponseWriter, status int, message string)
	// checkRequest checks the request of testConversation.
	checkRequest func(t *testing.T, r *http.Request, body []byte)
	// script is the whole stream of a scripted reply (tools_test.go).
	script func(r scripted) [][]byte
	// checkToolRequest checks the body of toolRequest's request.
	checkToolRequest func(t *testing.T, body []byte)
}

// begin sends the headers and the opening frames.
func (wf wire) begin(s *sender) {
	s.w.Header().Set("Content-Type", wf.contentType)
	s.w.WriteHeader(http.StatusOK)
	for _, f := range wf.open() {
		s.frame(f)
	}
}

// testConversation has every role, so the mapping of each shows.
var testConversation = []llm.Message{
	{Role: "system", Content: "Answer briefly."},
	{Role: "user", Content: "Hello there."},
	{Role: "assistant", Content: "Hi! How can I help?"},
	{Role: "user", Content: "Say hello in French."},
}

// sender writes frames and flushes each at once.
type sender struct {
	w      http.ResponseWriter
	r      *http.Request
	gate   <-chan struct{} // released when the client has the first delta
	deltas int
	held   atomic.Bool // the gate timed out: the first delta was not emitted alone
}

func (s *sender) frame(b []byte) {
	_, _ = s.w.Write(b)
	http.NewResponseController(s.w).Flush()
}

// delta writes a frame carrying a text delta. After the first, it waits
// until the client has emitted it, so a client that buffers is caught.
func (s *sender) delta(b []byte) {
	s.frame(b)
	s.deltas++
	if s.deltas == 1 && s.gate != nil {
		select {
		case <-s.gate:
		case <-s.r.Context().Done():
		case <-time.After(patience):
			s.held.Store(true)
		}
	}
}

// upstream is a test server recording the requests it got.
type upstream struct {
	*httptest.Server
	mu    sync.Mutex
	reqs  []*http.Request
	body  [][]byte
	count atomic.Int32
}

func newUpstream(t *testing.T, answer func(w http.ResponseWriter, r *http.Request)) *upstream {
	t.Helper()
	u := &upstream{}
	u.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		u.mu.Lock()
		u.reqs, u.body = append(u.reqs, r), append(u.body, b)
		u.mu.Unlock()
		u.count.Add(1)
		answer(w, r)
	}))
	t.Cleanup(u.Close)
	return u
}

func (u *upstream) first(t *testing.T) (*http.Request, []byte) {
	t.Helper()
	u.mu.Lock()
	defer u.mu.Unlock()
	if len(u.reqs) == 0 {
		t.Fatal("the server got no request")
	}
	return u.reqs[0], u.body[0]
}

func request(model string) llm.Request {
	return llm.Request{Model: model, Messages: testConversation, MaxTokens: 321}
}

// runWire runs every case on one provider's wire format.
func runWire(t *testing.T, wf wire) {
	t.Run("stream", func(t *testing.T) {
		t.Parallel()
		deltas := []string{"Bon", "jour", " tout", " le monde", " !"}
		usage := llm.Usage{InputTokens: 31, OutputTokens: 7}
		gate := make(chan struct{})
		var s *sender
		up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
			s = &sender{w: w, r: r, gate: gate}
			wf.begin(s)
			for _, d := range deltas {
				s.delta(wf.delta(d))
			}
			for _, f := range wf.close(usage) {
				s.frame(f)
			}
		})
		var got []string
		u, err := wf.newProvider(t, up.URL).Stream(context.Background(), request(wf.model), llm.TextOnly(func(d string) error {
			got = append(got, d)
			if len(got) == 1 {
				close(gate)
			}
			return nil
		}))
		if err != nil {
			t.Fatalf("Stream: %v", err)
		}
		if s.held.Load() {
			t.Error("the first delta was not emitted until more of the stream came: buffered")
		}
		if !slices.Equal(got, deltas) {
			t.Errorf("deltas = %q, want %q", got, deltas)
		}
		if u != usage {
			t.Errorf("usage = %+v, want %+v", u, usage)
		}
		r, body := up.first(t)
		wf.checkRequest(t, r, body)
		wantNoTools(t, body)
	})

	t.Run("mid-stream error", func(t *testing.T) {
		t.Parallel()
		up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
			s := &sender{w: w, r: r}
			wf.begin(s)
			s.delta(wf.delta("Bon"))
			s.frame(wf.fail("The model is overloaded right now."))
		})
		var got []string
		_, err := wf.newProvider(t, up.URL).Stream(context.Background(), request(wf.model), llm.TextOnly(func(d string) error {
			got = append(got, d)
			return nil
		}))
		ue := wantUpstream(t, err, wf.label, wf.midStatus)
		if !strings.Contains(ue.Detail, "The model is overloaded right now.") {
			t.Errorf("detail = %q, want the provider's message", ue.Detail)
		}
		if !slices.Equal(got, []string{"Bon"}) {
			t.Errorf("deltas before the error = %q, want [Bon]", got)
		}
	})

	t.Run("stall then cancel", func(t *testing.T) {
		t.Parallel()
		sawCancel := make(chan struct{})
		up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
			// The opening and one delta, then nothing: hold the stream open.
			s := &sender{w: w, r: r}
			wf.begin(s)
			s.delta(wf.delta("Bon"))
			select {
			case <-r.Context().Done():
				close(sawCancel)
			case <-time.After(patience):
			}
		})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		firstDelta := make(chan struct{})
		done := make(chan error, 1)
		go func() {
			_, err := wf.newProvider(t, up.URL).Stream(ctx, request(wf.model), llm.TextOnly(func(d string) error {
				if d == "Bon" {
					close(firstDelta)
				}
				return nil
			}))
			done <- err
		}()
		select {
		case <-firstDelta:
		case <-time.After(patience):
			t.Fatal("the first delta never came")
		}
		cancel()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v, want context.Canceled", err)
			}
		case <-time.After(patience):
			t.Fatal("Stream did not return after the cancel")
		}
		select {
		case <-sawCancel:
		case <-time.After(patience):
			t.Error("the server never saw its request end: the HTTP request was not aborted")
		}
	})

	t.Run("ended before its last event", func(t *testing.T) {
		t.Parallel()
		// The body ends cleanly after a delta: nothing says the reply is
		// whole, so it was cut (the SDKs end such a stream quietly).
		up := newUpstream(t, bonThen(wf, func(*sender) {}))
		got, err := texts(t.Context(), wf.newProvider(t, up.URL), wf.model)
		if kind := errorKind(err); kind != kindCut {
			t.Errorf("err = %v, shown as %q; want a cut stream", err, kind)
		}
		wantBonTriedOnce(t, up, got)
	})

	for _, status := range []int{http.StatusUnauthorized, http.StatusTooManyRequests} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			t.Parallel()
			msg := "Refused for test: key " + testKey + " is not valid here."
			if wf.keyless {
				msg = "Refused for test: not allowed here."
			}
			up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) { wf.httpError(w, status, msg) })
			_, err := wf.newProvider(t, up.URL).Stream(context.Background(), request(wf.model), func(llm.Event) error {
				t.Error("emit called on a refused request")
				return nil
			})
			ue := wantUpstream(t, err, wf.label, status)
			if !strings.Contains(ue.Detail, "Refused for test") {
				t.Errorf("detail = %q, want the provider's message", ue.Detail)
			}
			if strings.Contains(ue.Detail, testKey) || strings.Contains(err.Error(), testKey) {
				t.Errorf("the API key leaks into the error: %q", ue.Detail)
			}
			if n := up.count.Load(); n != 1 {
				t.Errorf("requests = %d, want 1 (no retries configured)", n)
			}
		})
	}
}

func wantUpstream(t *testing.T, err error, label string, status int) *llm.UpstreamError {
	t.Helper()
	var ue *llm.UpstreamError
	if !errors.As(err, &ue) {
		t.Fatalf("err = %v (%T), want *llm.UpstreamError", err, err)
	}
	if ue.Provider != label {
		t.Errorf("provider = %q, want %q", ue.Provider, label)
	}
	if ue.Status != status {
		t.Errorf("status = %d, want %d", ue.Status, status)
	}
	return ue
}

// What the chat engine (shared/chat) shows of a provider's error that is
// not an *llm.UpstreamError ("" for one): it tells a cut stream
// (io.ErrUnexpectedEOF, io.EOF, a net.Error) from an unreadable one (a JSON
// syntax or type error); anything else is a failure to answer.
const (
	kindCut        = "cut"
	kindUnreadable = "unreadable"
	kindOther      = "other"
)

func errorKind(err error) string {
	var ue *llm.UpstreamError
	var syntax *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	var netErr net.Error
	switch {
	case errors.As(err, &ue):
		return ""
	case errors.As(err, &syntax), errors.As(err, &typeErr):
		return kindUnreadable
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF), errors.As(err, &netErr):
		return kindCut
	}
	return kindOther
}
