package mcp

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// cutRunes is s cut to at most n characters.
func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// classify turns a failed handshake into the *Error a user reads. It trusts
// what the observer saw on the wire over the SDK's error text, which wraps
// and flattens transport failures.
func classify(ctx context.Context, o *observer, err error, keySent bool, budget time.Duration) error {
	if errors.Is(ctx.Err(), context.Canceled) {
		return fmt.Errorf("mcp handshake: %w", context.Canceled)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	var own *Error
	for _, e := range []error{o.redirectErr, o.netErr, err} {
		if errors.As(e, &own) {
			return own
		}
	}
	if o.authStatus != 0 {
		return authError(o.authStatus, o.challenge, o.authReason, keySent)
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return timeoutError(budget, err)
	}
	if o.netErr != nil {
		return networkError(o.netErr)
	}
	switch {
	case o.tooLarge:
		return &Error{Kind: KindNotMCP, Detail: "The server's answer was too large.", cause: err}
	case o.status >= 500:
		return &Error{Kind: KindUnreachable, Detail: fmt.Sprintf("The server answered with an error (HTTP %d).", o.status), cause: err}
	case o.badType != "":
		return &Error{Kind: KindNotMCP, Detail: fmt.Sprintf("The endpoint answered with %s, not MCP: it is not an MCP server.", o.badType), cause: err}
	case o.missingPOST || o.status == 404:
		return &Error{Kind: KindNotMCP, Detail: "No MCP server was found at this endpoint (HTTP 404).", cause: err}
	}
	// The server answered as MCP (the HTTP exchange was fine), with a
	// JSON-RPC error: its own words, cut short, say why.
	var rpc *jsonrpc.Error
	if errors.As(err, &rpc) {
		return &Error{Kind: KindUnreachable, Detail: fmt.Sprintf("The server answered the handshake with an error: %s (JSON-RPC %d).",
			cutRunes(strings.TrimSpace(rpc.Message), 200), rpc.Code), cause: err}
	}
	return &Error{Kind: KindNotMCP, Detail: "The endpoint did not answer like an MCP server.", cause: err}
}

// authError: a challenge naming OAuth resource metadata (the MCP auth spec)
// means OAuth; without a key any challenge does. A key that meets a plain
// 401/403 was refused. A 403 without a challenge is a refusal for some
// other reason (a host check, an address list), told in the server's own
// words when it gave some: "requires authentication" is only for a 401 or
// a challenge.
func authError(status int, challenge, reason string, keySent bool) *Error {
	cause := fmt.Errorf("HTTP %d", status)
	if status == 403 && strings.Contains(strings.ToLower(challenge), "insufficient_scope") {
		return &Error{Kind: KindInsufficientScope, Detail: "The server needs wider access than this sign-in gave; sign in again.",
			Scope: challengeParam(challenge, "scope"), cause: cause}
	}
	oauth := strings.Contains(strings.ToLower(challenge), "resource_metadata") || (!keySent && challenge != "")
	switch {
	case oauth:
		return &Error{Kind: KindOAuth, Detail: "This server requires sign-in with the server's OAuth: use Sign in in the MCP Registry.",
			Scope: challengeParam(challenge, "scope"), cause: cause}
	case keySent && status == 403 && reason != "":
		return &Error{Kind: KindKeyRefused, Detail: "The server refused the API key: " + reason, cause: cause}
	case keySent:
		return &Error{Kind: KindKeyRefused, Detail: "The server refused the API key.", cause: cause}
	case status == 403 && challenge == "" && reason != "":
		return &Error{Kind: KindForbidden, Detail: "The server refused the connection: " + reason, cause: cause}
	case status == 403 && challenge == "":
		return &Error{Kind: KindForbidden, Detail: "The server refused the connection (HTTP 403).", cause: cause}
	}
	return &Error{Kind: KindAuthRequired, Detail: "The server requires authentication.", cause: cause}
}

func timeoutError(budget time.Duration, cause error) *Error {
	secs := int(math.Ceil(budget.Seconds()))
	unit := "seconds"
	if secs == 1 {
		unit = "second"
	}
	return &Error{Kind: KindTimeout, Detail: fmt.Sprintf("The server did not answer within %d %s.", secs, unit), cause: cause}
}

func networkError(err error) *Error {
	var (
		dnsErr  *net.DNSError
		netErr  net.Error
		certErr *tls.CertificateVerificationError
		unkAuth x509.UnknownAuthorityError
		hostErr x509.HostnameError
		recErr  tls.RecordHeaderError
	)
	detail := "Could not connect to the server."
	switch {
	case errors.As(err, &dnsErr):
		detail = "The server's host name could not be found."
	case errors.Is(err, syscall.ECONNREFUSED):
		detail = "The server refused the connection."
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET):
		detail = "The server closed the connection before the handshake finished."
	case errors.As(err, &certErr), errors.As(err, &unkAuth), errors.As(err, &hostErr):
		detail = "The server's TLS certificate is not valid."
	case errors.As(err, &recErr):
		detail = "The server did not answer with TLS."
	case errors.As(err, &netErr) && netErr.Timeout():
		return &Error{Kind: KindTimeout, Detail: "The server did not answer in time.", cause: err}
	}
	return &Error{Kind: KindUnreachable, Detail: detail, cause: err}
}

// challengeParam reads one auth-param of a WWW-Authenticate challenge
// (name="value" or name=token); "" when absent.
func challengeParam(challenge, name string) string {
	lower := strings.ToLower(challenge)
	for from := 0; ; {
		i := strings.Index(lower[from:], name+"=")
		if i < 0 {
			return ""
		}
		i += from
		if i > 0 && !strings.ContainsRune(" ,\t", rune(lower[i-1])) {
			from = i + len(name) + 1
			continue
		}
		rest := challenge[i+len(name)+1:]
		if strings.HasPrefix(rest, `"`) {
			if end := strings.IndexByte(rest[1:], '"'); end >= 0 {
				return rest[1 : 1+end]
			}
			return ""
		}
		if end := strings.IndexAny(rest, ", "); end >= 0 {
			return rest[:end]
		}
		return rest
	}
}
