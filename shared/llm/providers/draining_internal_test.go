package providers

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"aiwork/shared/llm"
)

// trackedBody is a response body that records how much of it was read and
// whether it was closed.
type trackedBody struct {
	io.Reader
	read   int
	closed chan struct{}
}

func (b *trackedBody) Read(p []byte) (int, error) {
	n, err := b.Reader.Read(p)
	b.read += n
	return n, err
}

func (b *trackedBody) Close() error {
	select {
	case <-b.closed:
	default:
		close(b.closed)
	}
	return nil
}

// Closing a stream's body reads what is left of it first (the chunked
// body's end after the last event), so net/http can reuse the connection.
func TestClosingADrainingBodyReadsTheRest(t *testing.T) {
	rest := "0\r\n\r\n"
	body := &trackedBody{Reader: strings.NewReader(rest), closed: make(chan struct{})}
	if err := (&drainingBody{ReadCloser: body}).Close(); err != nil {
		t.Fatal(err)
	}
	if body.read != len(rest) {
		t.Errorf("read %d bytes of the %d left before closing", body.read, len(rest))
	}
}

// A body that never ends is cut off: closing waits at most drainMaxTime.
func TestClosingADrainingBodyIsBounded(t *testing.T) {
	pr, pw := io.Pipe() // nothing is ever written: a read blocks until close
	defer pw.Close()
	done := make(chan struct{})
	go func() {
		_ = (&drainingBody{ReadCloser: pr}).Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(30 * drainMaxTime):
		t.Fatalf("Close still waits for a body that never ends, %s after", 30*drainMaxTime)
	}
}

// pipeTransport answers every request with a stream the test writes.
type pipeTransport struct{ body *io.PipeReader }

func (p pipeTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusOK, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: p.body, Request: r}, nil
}

// A provider's stream is read to its end when the adapter is done with it:
// the SDK stops at [DONE], and what follows (the chunked body's end) must
// still be read, or net/http cannot reuse the connection. The pipe makes it
// exact: writing the end succeeds only if someone reads it, and fails at
// once if the body is closed unread.
func TestStreamsAreReadToTheirEnd(t *testing.T) {
	if _, ok := (Options{}).httpClient().Transport.(drainingTransport); !ok {
		t.Fatal("the providers' shared client does not drain bodies")
	}
	pr, pw := io.Pipe()
	client := &http.Client{Transport: drainingTransport{pipeTransport{body: pr}}}
	p := NewOpenAI(Options{APIKey: "sk-test", BaseURL: "http://upstream.test/v1/", HTTPClient: client})
	wrote := make(chan error, 1)
	go func() {
		chunk := `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}` + "\n\n"
		if _, err := io.WriteString(pw, chunk+"data: [DONE]\n\n"); err != nil {
			wrote <- err
			return
		}
		_, err := io.WriteString(pw, "the stream's end\r\n") // read by the drain, or refused
		_ = pw.Close()
		wrote <- err
	}()
	if _, err := p.Stream(context.Background(), llm.Request{Model: "m", Messages: []llm.Message{{Role: "user", Content: "x"}}}, func(llm.Event) error { return nil }); err != nil {
		t.Fatalf("Stream: %v", err)
	}
	select {
	case err := <-wrote:
		if err != nil {
			t.Errorf("the bytes after [DONE] were not read before the body was closed: %v", err)
		}
	case <-time.After(30 * drainMaxTime):
		t.Fatal("the stream's end was neither read nor refused")
	}
}
