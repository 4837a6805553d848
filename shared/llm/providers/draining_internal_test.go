package providers

import (
	"io"
	"strings"
	"testing"
	"time"
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
