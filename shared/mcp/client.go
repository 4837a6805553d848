package mcp

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// Limits bound each outbound request. Zero fields take the defaults.
type Limits struct {
	Dial           time.Duration // TCP connect; default 3 s
	TLSHandshake   time.Duration // default 10 s
	ResponseHeader time.Duration // from request sent to headers; default 10 s
	MaxBodyBytes   int64         // per response body, streams included; default 4 MiB
	MaxRedirects   int           // default 3
}

// Defaults for Limits.
const (
	DefaultDialTimeout    = 3 * time.Second
	DefaultTLSTimeout     = 10 * time.Second
	DefaultHeaderTimeout  = 10 * time.Second
	DefaultMaxBodyBytes   = 4 << 20
	DefaultMaxRedirects   = 3
	maxResponseHeaderSize = 64 << 10

	// idleConnTimeout drops a kept-alive connection before the server does.
	// Node's HTTP server, which most MCP servers run on, closes one idle for
	// 5 s; a JSON-RPC POST sent as it closes fails with EOF, and a POST is
	// rightly never replayed. Closing ours at 4 s (undici's default, for the
	// same reason) leaves that race to servers with shorter timeouts.
	idleConnTimeout = 4 * time.Second
)

// ErrResponseTooLarge is the read error past Limits.MaxBodyBytes.
var ErrResponseTooLarge = errors.New("mcp: response body too large")

func (l Limits) withDefaults() Limits {
	if l.Dial <= 0 {
		l.Dial = DefaultDialTimeout
	}
	if l.TLSHandshake <= 0 {
		l.TLSHandshake = DefaultTLSTimeout
	}
	if l.ResponseHeader <= 0 {
		l.ResponseHeader = DefaultHeaderTimeout
	}
	if l.MaxBodyBytes <= 0 {
		l.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if l.MaxRedirects <= 0 {
		l.MaxRedirects = DefaultMaxRedirects
	}
	return l
}

// Client is ClientWithLimits with the default limits.
func (p Policy) Client() *http.Client { return p.ClientWithLimits(Limits{}) }

// ClientWithLimits builds the only HTTP client MCP requests may use. The
// address check runs in net.Dialer.Control, on the address actually being
// dialled after DNS resolution, so a name that resolves (or re-resolves, DNS
// rebinding) to a refused address is stopped before any packet leaves.
// There is no proxy: a proxy would make the dialled address meaningless.
// The client has no overall timeout because SSE streams are long-lived:
// callers bound each use with a context.
func (p Policy) ClientWithLimits(l Limits) *http.Client {
	l = l.withDefaults()
	dialer := &net.Dialer{
		Timeout:   l.Dial,
		KeepAlive: 30 * time.Second,
		Control: func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return refusedAddress(fmt.Errorf("unparsable dial address %q", address))
			}
			if !p.AddrAllowed(ap.Addr()) {
				return refusedAddress(fmt.Errorf("dial %s", ap.Addr()))
			}
			return nil
		},
	}
	tr := &http.Transport{
		Proxy:                  nil,
		DialContext:            dialer.DialContext,
		ForceAttemptHTTP2:      true, // a custom dialer turns HTTP/2 off otherwise
		MaxIdleConns:           64,
		MaxIdleConnsPerHost:    8,
		IdleConnTimeout:        idleConnTimeout,
		TLSHandshakeTimeout:    l.TLSHandshake,
		ResponseHeaderTimeout:  l.ResponseHeader,
		ExpectContinueTimeout:  time.Second,
		MaxResponseHeaderBytes: maxResponseHeaderSize,
	}
	return &http.Client{
		Transport: &guard{policy: p, base: tr, max: l.MaxBodyBytes},
		CheckRedirect: func(_ *http.Request, via []*http.Request) error {
			// Each hop is a new request through guard, which judges its URL.
			if len(via) > l.MaxRedirects {
				return &Error{Kind: KindNotMCP, Detail: fmt.Sprintf("The endpoint redirected more than %d times.", l.MaxRedirects)}
			}
			return nil
		},
	}
}

// guard judges every request's URL (the first and each redirect hop) with
// CheckURL before anything is dialled, so https-only and literal addresses
// hold whoever builds the request; and it limits every response body, so a
// server cannot make us buffer more than max bytes for one answer (gzip is
// already undone at this point).
type guard struct {
	policy Policy
	base   http.RoundTripper
	max    int64
}

func (t *guard) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := t.policy.CheckURL(req.URL.String()); err != nil {
		if req.Body != nil {
			req.Body.Close() // a RoundTripper must close the body, even on error
		}
		return nil, err
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	resp.Body = &cappedBody{rc: resp.Body, left: t.max}
	return resp, nil
}

type cappedBody struct {
	rc   io.ReadCloser
	left int64
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// At the cap: any further byte means the body is too large.
		var one [1]byte
		n, err := b.rc.Read(one[:])
		if n > 0 {
			return 0, ErrResponseTooLarge
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }
