// Package httpx holds the HTTP plumbing every route group shares: the error
// type with its status table, JSON bodies in and out, and request limits.
package httpx

import (
	"context"
	"errors"
	"fmt"
	"net/http"
)

// Code is a machine-readable error class; each maps to one HTTP status.
type Code string

const (
	CodeInvalid      Code = "invalid"
	CodeUnauthorized Code = "unauthorized"
	CodeForbidden    Code = "forbidden"
	CodeNotFound     Code = "not_found"
	CodeConflict     Code = "conflict"
	CodeTooLarge     Code = "too_large"
	CodeRateLimited  Code = "rate_limited"
	CodeUnavailable  Code = "unavailable"
	CodeUpstream     Code = "upstream"
	CodeTimeout      Code = "timeout"
	CodeInternal     Code = "internal"
)

// Specific codes where the client must branch; each keeps its class's status.
const (
	// CodeEmailUnverified: the action needs a confirmed email address (403).
	CodeEmailUnverified Code = "email_unverified"
	// CodeLinkInvalid, CodeLinkUsed, CodeLinkExpired: a mailed single-use
	// link (email verification, password reset) was refused (400).
	CodeLinkInvalid Code = "link_invalid"
	CodeLinkUsed    Code = "link_used"
	CodeLinkExpired Code = "link_expired"
	// CodeFreeUseAvailable: a checkout for a prompt the user may still use
	// free (400); the client makes the free-use call instead.
	CodeFreeUseAvailable Code = "free_use_available"
	// CodeAccountDisabled: an admin disabled the account; sign-in is
	// refused (403).
	CodeAccountDisabled Code = "account_disabled"
	// CodeUnprocessable: what a server sent cannot be used as it is (an
	// MCP App view the chat will not render) (422).
	CodeUnprocessable Code = "unprocessable"
	// CodeApprovalRequired: a tool call waits for the user's approval
	// (409); the client asks, then sends it again approved.
	CodeApprovalRequired Code = "approval_required"
)

var statusByCode = map[Code]int{
	CodeInvalid:      http.StatusBadRequest,
	CodeUnauthorized: http.StatusUnauthorized,
	CodeForbidden:    http.StatusForbidden,
	CodeNotFound:     http.StatusNotFound,
	CodeConflict:     http.StatusConflict,
	CodeTooLarge:     http.StatusRequestEntityTooLarge,
	CodeRateLimited:  http.StatusTooManyRequests,
	CodeUnavailable:  http.StatusServiceUnavailable,
	CodeUpstream:     http.StatusBadGateway,
	CodeTimeout:      http.StatusGatewayTimeout,
	CodeInternal:     http.StatusInternalServerError,

	CodeEmailUnverified: http.StatusForbidden,
	CodeLinkInvalid:     http.StatusBadRequest,
	CodeLinkUsed:        http.StatusBadRequest,
	CodeLinkExpired:     http.StatusBadRequest,

	CodeFreeUseAvailable: http.StatusBadRequest,

	CodeAccountDisabled: http.StatusForbidden,

	CodeUnprocessable:    http.StatusUnprocessableEntity,
	CodeApprovalRequired: http.StatusConflict,
}

// Error is an error meant for the client: its Detail is shown to people.
type Error struct {
	Code   Code
	Detail string
	// RetryAfterSeconds, when set, becomes a Retry-After header.
	RetryAfterSeconds int
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Code, e.Detail) }

// Status is the HTTP status for the error's code.
func (e *Error) Status() int {
	if s, ok := statusByCode[e.Code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// Errorf builds a client-facing error.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Detail: fmt.Sprintf(format, args...)}
}

func Invalid(detail string) *Error      { return &Error{Code: CodeInvalid, Detail: detail} }
func Unauthorized(detail string) *Error { return &Error{Code: CodeUnauthorized, Detail: detail} }
func Forbidden(detail string) *Error    { return &Error{Code: CodeForbidden, Detail: detail} }
func NotFound(detail string) *Error     { return &Error{Code: CodeNotFound, Detail: detail} }
func Conflict(detail string) *Error     { return &Error{Code: CodeConflict, Detail: detail} }

// MsgUnavailable is what a request is told when a service it needs (the
// table) cannot serve now: the same request works once it is back.
const MsgUnavailable = "The service is busy; try again in a moment."

// Unavailable is the 503 of a service that cannot serve now (an error in
// the chain with Unavailable() true becomes it: the store's
// UnavailableError).
func Unavailable() *Error {
	return &Error{Code: CodeUnavailable, Detail: MsgUnavailable, RetryAfterSeconds: 2}
}

// AsClientError finds the client-facing error in err's chain. Anything else is
// internal and is reported as "Internal error." without details; a service
// that cannot serve now is 503 (Unavailable); a value the table cannot hold
// is 400 with its InvalidDetail; a cancelled context is the
// client going away, not a server fault.
func AsClientError(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	var u interface{ Unavailable() bool }
	if errors.As(err, &u) && u.Unavailable() {
		return Unavailable(), true
	}
	// A value the client sent that the table cannot hold (the store's
	// NumberRangeError) is the client's mistake, told as it is.
	var inv interface{ InvalidDetail() string }
	if errors.As(err, &inv) {
		return Invalid(inv.InvalidDetail()), true
	}
	if errors.Is(err, context.Canceled) {
		return &Error{Code: CodeInvalid, Detail: "Request cancelled."}, true
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return &Error{Code: CodeTimeout, Detail: "The request timed out."}, true
	}
	return nil, false
}
