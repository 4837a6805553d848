// Package faultproxy is a TCP proxy for tests of faults: put between a
// service and what it depends on (dynalite, stripe-mock, an MCP server, a
// provider), it passes bytes through until told to refuse connections,
// to swallow them (accept and never answer: a silent port), or to cut the
// open ones. Our own code runs unchanged against the real dependency.
package faultproxy

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// Mode is how the proxy treats connections.
type Mode int

const (
	// Pass forwards every connection.
	Pass Mode = iota
	// Refuse closes each new connection at once (as a stopped engine's
	// port would: the client reads EOF or a reset).
	Refuse
	// Silent accepts new connections and never answers (a port that
	// answers nothing).
	Silent
	// LoseAnswer passes the next connection's requests on but never its
	// answers (the work is done, the reply lost on the way: the client
	// times out and may try again); the mode is Pass again after it.
	LoseAnswer
)

// Proxy is a running proxy; Close stops it and every connection.
type Proxy struct {
	ln       net.Listener
	upstream string
	mu       sync.Mutex
	mode     Mode
	conns    map[net.Conn]struct{} // passing through
	silent   map[net.Conn]struct{} // held unanswered
	cutOn    []byte                // a request carrying it is cut (CutWhenSent)
	watches  []watch               // requests waited for (SeenSent)
	accepted int                   // connections accepted so far
	wg       sync.WaitGroup
}

// watch is a marker a test waits to see sent, and the channel it closes.
type watch struct {
	marker []byte
	seen   chan struct{}
}

// Start proxies a local address to upstream (host:port) until t ends.
func Start(t testing.TB, upstream string) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("faultproxy: %v", err)
	}
	p := &Proxy{ln: ln, upstream: upstream, conns: map[net.Conn]struct{}{}, silent: map[net.Conn]struct{}{}}
	p.wg.Go(p.accept)
	t.Cleanup(p.Close)
	return p
}

// Addr is the proxy's address (host:port).
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// URL is the proxy's address as an http:// URL.
func (p *Proxy) URL() string { return "http://" + p.Addr() }

// Set changes the mode for new connections. Any change lets go of the
// connections held silent; Refuse and Silent also cut every connection
// passing through now (a keep-alive connection must not outlive the fault).
func (p *Proxy) Set(m Mode) {
	p.mu.Lock()
	p.mode = m
	var cut []net.Conn
	for c := range p.silent {
		cut = append(cut, c)
		delete(p.silent, c)
	}
	if m != Pass {
		for c := range p.conns {
			cut = append(cut, c)
		}
	}
	p.mu.Unlock()
	for _, c := range cut {
		_ = c.Close()
	}
}

// CutWhenSent makes every HTTP request whose body or URL carries marker
// fail: its connection is cut before any of it reaches the upstream, every
// attempt, as on a network that drops it, while other requests pass (nil:
// none).
func (p *Proxy) CutWhenSent(marker []byte) {
	p.mu.Lock()
	p.cutOn = bytes.Clone(marker)
	p.mu.Unlock()
}

// SeenSent answers a channel closed once an HTTP request whose body or URL
// carries marker has passed the proxy: a test waits on it to know that a
// call was made (or, with a bound, that it was not made yet).
func (p *Proxy) SeenSent(marker []byte) <-chan struct{} {
	w := watch{marker: bytes.Clone(marker), seen: make(chan struct{})}
	p.mu.Lock()
	p.watches = append(p.watches, w)
	p.mu.Unlock()
	return w.seen
}

// sent closes the watches whose marker the request carried.
func (p *Proxy) sent(uri string, body []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	kept := p.watches[:0]
	for _, w := range p.watches {
		if carries(uri, body, w.marker) {
			close(w.seen)
			continue
		}
		kept = append(kept, w)
	}
	p.watches = kept
}

// carries reports whether a request's URI or body holds marker.
func carries(uri string, body, marker []byte) bool {
	return bytes.Contains(body, marker) || strings.Contains(uri, string(marker))
}

// Accepted answers how many connections the proxy accepted so far.
func (p *Proxy) Accepted() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.accepted
}

func (p *Proxy) marker() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cutOn
}

// Close stops the proxy and closes every connection.
func (p *Proxy) Close() {
	_ = p.ln.Close()
	p.Set(Refuse)
	p.wg.Wait()
}

func (p *Proxy) track(c net.Conn) {
	p.mu.Lock()
	p.conns[c] = struct{}{}
	p.mu.Unlock()
}

func (p *Proxy) untrack(c net.Conn) {
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
	_ = c.Close()
}

func (p *Proxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		mode := p.mode
		p.accepted++
		p.mu.Unlock()
		switch mode {
		case Refuse:
			_ = c.Close()
		case LoseAnswer:
			p.mu.Lock()
			p.mode = Pass
			p.mu.Unlock()
			p.wg.Go(func() { p.pipeTo(c, io.Discard) })
		case Silent:
			// Held open, never answered, closed when the mode changes or the proxy stops.
			p.mu.Lock()
			p.silent[c] = struct{}{}
			p.mu.Unlock()
		default:
			p.wg.Go(func() { p.pipe(c) })
		}
	}
}

func (p *Proxy) pipe(c net.Conn) { p.pipeTo(c, c) }

// pipeTo passes c's bytes to the upstream and the upstream's to answers.
func (p *Proxy) pipeTo(c net.Conn, answers io.Writer) {
	up, err := net.Dial("tcp", p.upstream)
	if err != nil {
		_ = c.Close()
		return
	}
	p.track(c)
	p.track(up)
	defer p.untrack(c)
	defer p.untrack(up)
	done := make(chan struct{}, 2)
	go func() { p.forward(up, c); done <- struct{}{} }()
	go func() { _, _ = io.Copy(answers, up); done <- struct{}{} }()
	<-done
}

// forward copies the client's bytes to the upstream until either ends. HTTP
// requests (what every dependency here speaks) are read whole before they
// are passed on, so that one carrying CutWhenSent's marker ends the
// connection before any of it reaches the upstream (the request fails
// whole, as a dropped one does); other bytes are copied as they come.
func (p *Proxy) forward(up, c net.Conn) {
	in := bufio.NewReader(c)
	if first, err := in.Peek(8); err != nil || !looksLikeHTTP(first) {
		_, _ = io.Copy(up, in)
		return
	}
	for {
		req, err := http.ReadRequest(in)
		if err != nil {
			return
		}
		body, err := io.ReadAll(req.Body)
		if err != nil {
			return
		}
		if m := p.marker(); len(m) > 0 && carries(req.RequestURI, body, m) {
			return // the deferred untracks close both sides
		}
		p.sent(req.RequestURI, body)
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength, req.TransferEncoding = int64(len(body)), nil
		if err := req.Write(up); err != nil {
			return
		}
	}
}

// looksLikeHTTP reports whether a connection's first bytes start an HTTP
// request.
func looksLikeHTTP(b []byte) bool {
	for _, method := range []string{"GET ", "POST ", "PUT ", "DELETE ", "PATCH ", "HEAD ", "OPTIONS "} {
		if strings.HasPrefix(string(b), method) {
			return true
		}
	}
	return false
}
