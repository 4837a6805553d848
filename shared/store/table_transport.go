package store

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
)

// tableClient makes each HTTP/1.1 exchange with the table on the calling
// goroutine, over a pooled keep-alive connection. net/http's Transport hands
// every request to a connection's writer goroutine and takes the answer
// from its reader goroutine; for the table's short request–answer calls
// those hand-offs cost more CPU than the exchange itself (measured here:
// 0.116 → 0.036 ms of CPU per bare call, 0.233 → 0.171 ms per SDK call;
// issue 27). The table speaks plain HTTP/1.1 with keep-alive (DynamoDB over
// TLS, dynalite without), which is all this does: the request is written by
// http.Request.Write and the answer read by http.ReadResponse. It is the
// SDK's HTTPClient (Do); requests that must go through a proxy take the
// SDK's own client.
type tableClient struct {
	dialer   net.Dialer
	tls      *tls.Config // for https endpoints; ServerName is set per host
	fallback interface {
		Do(*http.Request) (*http.Response, error)
	}
	// attempt bounds one exchange, the answer's body included.
	attempt time.Duration
	maxIdle int
	// idleFor is how long a connection may wait for its next call (the
	// SDK's own idle timeout). A server may close it sooner (Node's, so
	// dynalite's, keep-alive is 5 s): take checks it is still open (alive).
	idleFor time.Duration

	mu   sync.Mutex
	idle map[string][]*tableConn // by scheme and address, the newest last
}

type tableConn struct {
	net.Conn
	br       *bufio.Reader
	bw       *bufio.Writer
	idleFrom time.Time
}

func newTableClient(attempt time.Duration) *tableClient {
	return &tableClient{
		dialer:   net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second},
		tls:      &tls.Config{MinVersion: tls.VersionTLS12, NextProtos: []string{"http/1.1"}},
		fallback: awshttp.NewBuildableClient().WithTimeout(attempt),
		attempt:  attempt,
		maxIdle:  idleConnections,
		idleFor:  90 * time.Second,
		idle:     map[string][]*tableConn{},
	}
}

func (t *tableClient) Do(req *http.Request) (*http.Response, error) {
	if proxy, err := http.ProxyFromEnvironment(req); err != nil || proxy != nil {
		return t.fallback.Do(req)
	}
	addr := canonicalAddr(req)
	key := req.URL.Scheme + "://" + addr
	ctx, cancel := context.WithTimeout(req.Context(), t.attempt)
	c := t.take(key)
	if c == nil {
		var err error
		if c, err = t.dial(ctx, req.URL.Scheme, addr, req.URL.Hostname()); err != nil {
			cancel()
			closeBody(req)
			return nil, err
		}
	}
	// The context's end (the attempt's time up, a caller gone) cuts the
	// exchange off wherever it is.
	stop := context.AfterFunc(ctx, func() { _ = c.SetDeadline(time.Unix(1, 0)) })
	fail := func(err error) (*http.Response, error) {
		stop()
		c.Close()
		defer cancel()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	if err := req.Write(c.bw); err != nil {
		return fail(err)
	}
	if err := c.bw.Flush(); err != nil {
		return fail(err)
	}
	res, err := http.ReadResponse(c.br, req)
	if err != nil {
		return fail(err)
	}
	reusable := !res.Close && !req.Close
	res.Body = &tableBody{body: res.Body, done: func(drained bool) {
		// A connection is kept only when its context never cut it off and
		// the whole answer was read.
		defer cancel()
		if stop() && drained && reusable {
			t.put(key, c)
			return
		}
		c.Close()
	}}
	return res, nil
}

// dial opens a connection to addr, over TLS for https.
func (t *tableClient) dial(ctx context.Context, scheme, addr, host string) (*tableConn, error) {
	nc, err := t.dialer.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	if scheme == "https" {
		cfg := t.tls.Clone()
		cfg.ServerName = host
		tc := tls.Client(nc, cfg)
		if err := tc.HandshakeContext(ctx); err != nil {
			nc.Close()
			return nil, err
		}
		nc = tc
	}
	return &tableConn{Conn: nc, br: bufio.NewReader(nc), bw: bufio.NewWriter(nc)}, nil
}

// take answers the newest idle connection for key that is still open and
// has not waited too long (closing the others), or nil.
func (t *tableClient) take(key string) *tableConn {
	t.mu.Lock()
	defer t.mu.Unlock()
	conns := t.idle[key]
	for len(conns) > 0 {
		c := conns[len(conns)-1]
		conns = conns[:len(conns)-1]
		if time.Since(c.idleFrom) < t.idleFor && alive(c.Conn) {
			t.idle[key] = conns
			return c
		}
		c.Close()
	}
	delete(t.idle, key)
	return nil
}

func (t *tableClient) put(key string, c *tableConn) {
	c.idleFrom = time.Now()
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.idle[key]) >= t.maxIdle {
		c.Close()
		return
	}
	t.idle[key] = append(t.idle[key], c)
}

// CloseIdleConnections closes every idle connection.
func (t *tableClient) CloseIdleConnections() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for key, conns := range t.idle {
		for _, c := range conns {
			c.Close()
		}
		delete(t.idle, key)
	}
}

// tableBody hands its connection back (done) once, when the answer was read
// to its end or closed.
type tableBody struct {
	body io.ReadCloser
	once sync.Once
	done func(drained bool)
}

func (b *tableBody) Read(p []byte) (int, error) {
	n, err := b.body.Read(p)
	if err != nil {
		b.once.Do(func() { b.done(errors.Is(err, io.EOF)) })
	}
	return n, err
}

// maxDrain is how much of an unread answer Close reads to keep its
// connection; a larger rest closes it.
const maxDrain = 64 << 10

func (b *tableBody) Close() error {
	b.once.Do(func() {
		n, err := io.CopyN(io.Discard, b.body, maxDrain+1)
		b.done(errors.Is(err, io.EOF) && n <= maxDrain)
	})
	return b.body.Close()
}

// canonicalAddr is req's host:port, the scheme's port when it names none.
func canonicalAddr(req *http.Request) string {
	port := req.URL.Port()
	switch {
	case port != "":
	case req.URL.Scheme == "https":
		port = "443"
	default:
		port = "80"
	}
	return net.JoinHostPort(req.URL.Hostname(), port)
}

func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}
