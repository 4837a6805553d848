package mcp

import (
	"errors"

	"aiwork/shared/mcp/outbound"
)

// Kind classifies why talking to an MCP server failed; the API maps each
// kind to an HTTP status (refused → 400, timeout → 504, the rest → 502).
type Kind string

const (
	KindRefused      Kind = "refused"       // the outbound rules refuse the URL or address
	KindUnreachable  Kind = "unreachable"   // DNS, TCP, TLS failed or the server answered 5xx
	KindNotMCP       Kind = "not_mcp"       // it answered, but not as an MCP server
	KindKeyRefused   Kind = "key_refused"   // 401/403 although a key was sent
	KindOAuth        Kind = "oauth"         // 401/403 with an OAuth challenge
	KindAuthRequired Kind = "auth_required" // 401, or 403 with a challenge, and no key was sent
	KindForbidden    Kind = "forbidden"     // 403 without a challenge or key: refused for another reason
	KindTimeout      Kind = "timeout"       // no complete answer before the deadline
	// KindInsufficientScope: 403 insufficient_scope, the token lacks a
	// scope the request needs (Error.Scope names it when the server did).
	KindInsufficientScope Kind = "insufficient_scope"
)

// ErrRefusedAddress is matched (errors.Is) by every *Error of KindRefused
// that is about the address, whether caught up front or at dial time.
var ErrRefusedAddress = outbound.ErrRefusedAddress

// Error is a failure to show to a user: Detail is a plain sentence that never
// contains an API key. The underlying cause is kept for logs via Unwrap.
type Error struct {
	Kind   Kind
	Detail string
	// Scope is the scope a challenge asked for (a 403 insufficient_scope,
	// or an OAuth 401 naming one).
	Scope string
	cause error
}

// Rejected reports whether the server refused the credentials sent with
// the request (a token it no longer accepts, or one without the scope).
func (e *Error) Rejected() bool {
	switch e.Kind {
	case KindKeyRefused, KindOAuth, KindAuthRequired, KindInsufficientScope:
		return true
	}
	return false
}

func (e *Error) Error() string { return e.Detail }

// Unwrap gives the cause (for logs); it never carries the key either, since
// keys travel only in request headers.
func (e *Error) Unwrap() error { return e.cause }

// refusedAddress is a dial the rules refuse, in the words of an up-front
// refusal (outbound.AddressDetail).
func refusedAddress(cause error) *Error {
	return &Error{Kind: KindRefused, Detail: outbound.AddressDetail, cause: errors.Join(ErrRefusedAddress, cause)}
}
