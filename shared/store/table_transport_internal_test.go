package store

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// countedServer is an httptest server running h that counts the
// connections it accepted.
func countedServer(t *testing.T, h http.HandlerFunc, tlsOn bool) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var accepted atomic.Int32
	ts := httptest.NewUnstartedServer(h)
	ts.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			accepted.Add(1)
		}
	}
	if tlsOn {
		ts.StartTLS()
	} else {
		ts.Start()
	}
	t.Cleanup(ts.Close)
	return ts, &accepted
}

// call posts body to url through c and answers the status and the body it
// read (readAll false: the body closed unread).
func call(t *testing.T, ctx context.Context, c *tableClient, url string, readAll bool) (int, string, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(`{"TableName":"t"}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	if !readAll {
		return res.StatusCode, "", nil
	}
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, string(b), err
}

func echo(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	w.Write(b)
}

// Calls one after another use one connection, and each gets its own
// answer whole; so do calls over TLS.
func TestTableClientReusesItsConnection(t *testing.T) {
	t.Parallel()
	for _, tlsOn := range []bool{false, true} {
		ts, accepted := countedServer(t, echo, tlsOn)
		c := newTableClient(5 * time.Second)
		if tlsOn {
			c.tls.RootCAs = ts.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
		}
		for i := range 20 {
			code, body, err := call(t, t.Context(), c, ts.URL, true)
			if err != nil || code != 200 || body != `{"TableName":"t"}` {
				t.Fatalf("tls %v, call %d: %d %q %v", tlsOn, i, code, body, err)
			}
		}
		if n := accepted.Load(); n != 1 {
			t.Errorf("tls %v: 20 calls dialled %d connections, want 1", tlsOn, n)
		}
		c.CloseIdleConnections()
	}
}

// A connection is kept only when its answer was read to the end (or the
// little left was drained on Close), the server did not close it, and it
// has not waited longer than idleFor.
func TestTableClientKeepsOnlyConnectionsReadyForTheNextCall(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", maxDrain+10)
	ts, accepted := countedServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/close":
			w.Header().Set("Connection", "close")
		case "/big":
			io.WriteString(w, big)
			return
		}
		io.WriteString(w, "small")
	}, false)
	for _, tc := range []struct {
		name    string
		path    string
		readAll bool
		idleFor time.Duration
		want    int32 // connections for two calls
	}{
		{"read to the end", "/", true, 4 * time.Second, 1},
		{"closed with a little left", "/", false, 4 * time.Second, 1},
		{"closed with much left", "/big", false, 4 * time.Second, 2},
		{"server says close", "/close", true, 4 * time.Second, 2},
		{"waited too long", "/", true, time.Nanosecond, 2},
	} {
		before := accepted.Load()
		c := newTableClient(5 * time.Second)
		c.idleFor = tc.idleFor
		for range 2 {
			if code, _, err := call(t, t.Context(), c, ts.URL+tc.path, tc.readAll); err != nil || code != 200 {
				t.Fatalf("%s: %d %v", tc.name, code, err)
			}
		}
		if n := accepted.Load() - before; n != tc.want {
			t.Errorf("%s: two calls dialled %d connections, want %d", tc.name, n, tc.want)
		}
		c.CloseIdleConnections()
	}
}

// A server that never answers is cut off at the attempt's bound, and a
// caller that goes away cuts the exchange off at once; neither connection
// is used again.
func TestTableClientCutsOffSilentServers(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	held := make(chan struct{}, 2) // a silent request is in
	ts, accepted := countedServer(t, func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // so that a client gone ends r's context
		if r.URL.Path == "/silent" {
			held <- struct{}{}
			select {
			case <-hold:
			case <-r.Context().Done():
			}
			return
		}
		io.WriteString(w, "ok")
	}, false)
	t.Cleanup(func() { close(hold) }) // before the server's Close, which waits for its handlers
	c := newTableClient(200 * time.Millisecond)
	if _, _, err := call(t, t.Context(), c, ts.URL+"/silent", true); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a silent server: %v, want the attempt's deadline", err)
	}
	<-held // the first one's
	c.attempt = time.Minute
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() {
		// Cancel once the request is in: the server then holds it.
		select {
		case <-held:
			cancel()
		case <-ctx.Done():
		}
	}()
	if _, _, err := call(t, ctx, c, ts.URL+"/silent", true); !errors.Is(err, context.Canceled) {
		t.Fatalf("a caller gone: %v, want context.Canceled", err)
	}
	if code, body, err := call(t, t.Context(), c, ts.URL+"/", true); err != nil || code != 200 || body != "ok" {
		t.Fatalf("the next call: %d %q %v", code, body, err)
	}
	if n := accepted.Load(); n != 3 {
		t.Errorf("%d connections, want 3 (none cut off reused)", n)
	}
}

// A connection its server closed while it waited (a keep-alive timeout
// shorter than ours: Node's, dynalite's, is 5 s) is not used again: the
// next call dials afresh and succeeds, over TLS as well.
func TestTableClientSkipsConnectionsTheServerClosed(t *testing.T) {
	t.Parallel()
	for _, tlsOn := range []bool{false, true} {
		closed := make(chan struct{}, 4)
		var accepted atomic.Int32
		ts := httptest.NewUnstartedServer(http.HandlerFunc(echo))
		ts.Config.IdleTimeout = 50 * time.Millisecond
		ts.Config.ConnState = func(_ net.Conn, s http.ConnState) {
			switch s {
			case http.StateNew:
				accepted.Add(1)
			case http.StateClosed:
				closed <- struct{}{}
			}
		}
		if tlsOn {
			ts.StartTLS()
		} else {
			ts.Start()
		}
		t.Cleanup(ts.Close)
		c := newTableClient(5 * time.Second)
		if tlsOn {
			c.tls.RootCAs = ts.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
		}
		if code, _, err := call(t, t.Context(), c, ts.URL, true); err != nil || code != 200 {
			t.Fatalf("tls %v, first call: %d %v", tlsOn, code, err)
		}
		select {
		case <-closed: // the server closed the idle connection
		case <-time.After(5 * time.Second):
			t.Fatalf("tls %v: the server did not close its idle connection", tlsOn)
		}
		if code, body, err := call(t, t.Context(), c, ts.URL, true); err != nil || code != 200 || body == "" {
			t.Fatalf("tls %v, the call after the server closed: %d %q %v", tlsOn, code, body, err)
		}
		if n := accepted.Load(); n != 2 {
			t.Errorf("tls %v: %d connections, want 2", tlsOn, n)
		}
		c.CloseIdleConnections()
	}
}
