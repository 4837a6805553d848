package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// observer sits under the SDK and records what the HTTP exchanges looked
// like. The SDK flattens many transport failures into strings, so the
// status codes, headers and network errors seen here are what tells a 401
// from a dead host from an HTML page.
type observer struct {
	ctx           context.Context // the handshake's: once done, only the session close may go out
	base          http.RoundTripper
	checkRedirect func(*http.Request, []*http.Request) error

	// key is the credential sent, kept out of what a server's answer says.
	key string

	mu          sync.Mutex
	authStatus  int    // last 401 or 403
	challenge   string // its WWW-Authenticate
	authReason  string // its body's short reason, if it gave one
	missingPOST bool   // a POST answered 404 or 405: not a streamable endpoint
	initPOST    int    // the status of the initialize POST
	status      int    // last other non-2xx status
	badType     string // a 2xx answer that is neither JSON nor an event stream
	netErr      error  // last transport error (dial, DNS, TLS, header timeout)
	redirectErr error
	tooLarge    bool
}

// strictClient stands in for a nil client: never the unguarded default one.
var strictClient = sync.OnceValue(func() *http.Client { return Policy{}.Client() })

func newObserver(ctx context.Context, hc *http.Client) *observer {
	if hc == nil {
		hc = strictClient()
	}
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	return &observer{ctx: ctx, base: base, checkRedirect: hc.CheckRedirect}
}

// client is the per-handshake client: the key (if any) on top, the observer
// under it, the caller's policy-bound transport at the bottom.
func (o *observer) client(t Target) *http.Client {
	o.key = t.APIKey
	var rt http.RoundTripper = o
	if t.APIKey != "" {
		rt = newKeyTransport(o, t)
	}
	return &http.Client{Transport: rt, CheckRedirect: o.redirect}
}

func (o *observer) redirect(req *http.Request, via []*http.Request) error {
	var err error
	if o.checkRedirect != nil {
		err = o.checkRedirect(req, via)
	} else if len(via) >= 10 {
		err = errors.New("too many redirects")
	}
	if err != nil {
		o.mu.Lock()
		o.redirectErr = err
		o.mu.Unlock()
	}
	return err
}

// errHandshakeOver refuses requests the SDK sends after the deadline (the
// best-effort notifications/cancelled): the SDK's Close waits for them, and
// a server that hangs would hold Handshake past its bound.
var errHandshakeOver = errors.New("mcp: handshake over")

func (o *observer) RoundTrip(req *http.Request) (*http.Response, error) {
	if o.ctx.Err() != nil && req.Method != http.MethodDelete {
		return nil, errHandshakeOver
	}
	var stop context.CancelFunc
	if req.Method == http.MethodDelete {
		// Only the session close sends DELETE: give it its own short bound.
		var ctx context.Context
		ctx, stop = context.WithTimeout(req.Context(), closeTimeout)
		req = req.WithContext(ctx)
	}
	resp, err := o.base.RoundTrip(req)
	o.mu.Lock()
	defer o.mu.Unlock()
	if err != nil {
		if stop != nil {
			stop()
		}
		o.netErr = err
		return nil, err
	}
	if req.Method == http.MethodPost && o.initPOST == 0 && isInitialize(req) {
		o.initPOST = resp.StatusCode
	}
	switch code := resp.StatusCode; {
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		o.authStatus, o.challenge = code, resp.Header.Get("WWW-Authenticate")
		o.authReason = peekReason(resp, o.key)
	case req.Method == http.MethodPost && (code == http.StatusNotFound || code == http.StatusMethodNotAllowed):
		o.missingPOST = true
	case code < 200 || code > 299:
		o.status = code
	default:
		if ct := contentType(resp); ct != "" && ct != "application/json" && ct != "text/event-stream" {
			o.badType = ct
		}
	}
	resp.Body = &observedBody{ReadCloser: resp.Body, o: o, stop: stop}
	return resp, nil
}

// isInitialize reports whether req (a POST) carries the initialize
// request. The SDK may first ask server/discover, which a server older
// than MCP 2026-07-28 refuses with a 400 that says nothing about the
// transport; a body that cannot be read again counts as the initialize,
// as the first POST always was before server/discover.
func isInitialize(req *http.Request) bool {
	if req.GetBody == nil {
		return true
	}
	body, err := req.GetBody()
	if err != nil {
		return true
	}
	defer body.Close()
	var msg struct {
		Method string `json:"method"`
	}
	if err := json.NewDecoder(io.LimitReader(body, 1<<20)).Decode(&msg); err != nil {
		return true
	}
	return msg.Method == "initialize"
}

func contentType(resp *http.Response) string {
	mt, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if err != nil {
		return strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Type")))
	}
	return mt
}

// postMissing reports whether a POST met 404 or 405 (no streamable endpoint).
func (o *observer) postMissing() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.missingPOST
}

// initializeRefused reports whether the initialize POST met a 4xx that is
// not about credentials: the MCP spec's sign to try the older SSE transport
// (a 404 or 405, or a 400 such as an SSE server's "Missing sessionId").
// 401 and 403 say who may connect, not how, and are reported as they are.
func (o *observer) initializeRefused() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	code := o.initPOST
	return code >= 400 && code < 500 && code != http.StatusUnauthorized && code != http.StatusForbidden && o.authStatus == 0
}

// observedBody notes a body over the size cap and ends a DELETE's bound.
type observedBody struct {
	io.ReadCloser
	o    *observer
	stop context.CancelFunc
}

func (b *observedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if errors.Is(err, ErrResponseTooLarge) {
		b.o.mu.Lock()
		b.o.tooLarge = true
		b.o.mu.Unlock()
	}
	return n, err
}

func (b *observedBody) Close() error {
	err := b.ReadCloser.Close()
	if b.stop != nil {
		b.stop()
	}
	return err
}

// keyTransport adds the API key to requests for the target's own origin
// only: a redirect or an SSE message endpoint on another host (or a
// downgrade to http) never receives the key.
type keyTransport struct {
	base          http.RoundTripper
	scheme, host  string
	header, value string
}

func newKeyTransport(base http.RoundTripper, t Target) *keyTransport {
	k := &keyTransport{base: base, header: "Authorization", value: "Bearer " + t.APIKey}
	if h := strings.TrimSpace(t.KeyHeader); h != "" && !strings.EqualFold(h, "Authorization") {
		k.header, k.value = h, t.APIKey
	}
	if u, err := url.Parse(t.Endpoint); err == nil {
		k.scheme, k.host = strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	}
	return k
}

func (k *keyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if k.host == "" || strings.ToLower(req.URL.Scheme) != k.scheme || strings.ToLower(req.URL.Host) != k.host {
		return k.base.RoundTrip(req)
	}
	req = req.Clone(req.Context())
	req.Header.Set(k.header, k.value)
	return k.base.RoundTrip(req)
}

// checkKey refuses a key or header name that cannot travel in a header,
// before anything is sent (net/http would fail later with a vaguer error).
func checkKey(t Target) error {
	if t.APIKey == "" {
		return nil
	}
	for _, r := range t.APIKey {
		if r < 0x20 || r == 0x7f || r > 0x7e {
			return &Error{Kind: KindKeyRefused, Detail: "The API key contains characters that cannot be sent to the server."}
		}
	}
	for _, r := range t.KeyHeader {
		if r <= 0x20 || r >= 0x7f || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r) {
			return &Error{Kind: KindKeyRefused, Detail: fmt.Sprintf("The server's key header name %q is not valid.", t.KeyHeader)}
		}
	}
	return nil
}
