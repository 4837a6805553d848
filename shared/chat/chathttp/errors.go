package chathttp

import (
	"errors"

	"aiwork/shared/chat"
	"aiwork/shared/httpx"
)

// codes is the HTTP class of each kind of the engine's refusals.
var codes = map[chat.Kind]httpx.Code{
	chat.Invalid:      httpx.CodeInvalid,
	chat.Unauthorized: httpx.CodeUnauthorized,
	chat.NotFound:     httpx.CodeNotFound,
	chat.Conflict:     httpx.CodeConflict,
	chat.RateLimited:  httpx.CodeRateLimited,
	chat.Forbidden:    httpx.CodeForbidden,

	chat.Unprocessable:    httpx.CodeUnprocessable,
	chat.ApprovalRequired: httpx.CodeApprovalRequired,
	chat.Upstream:         httpx.CodeUpstream,
	chat.Timeout:          httpx.CodeTimeout,
}

// Error is err as the API answers it: an engine's refusal (*chat.Error)
// becomes the client error of its kind, with its words and Retry-After;
// anything else is left to httpx (store unavailable, internal).
func Error(err error) error {
	e, ok := errors.AsType[*chat.Error](err)
	if !ok {
		return err
	}
	code, ok := codes[e.Kind]
	if !ok {
		return err // a kind without a class: internal
	}
	return &httpx.Error{Code: code, Detail: e.Detail, RetryAfterSeconds: e.RetryAfterSeconds}
}

// Session is the caller's session check (auth.ConfirmSession) as the
// engine takes it: an ended session's refusal becomes a *chat.Error, so
// that one told in an error frame mid-stream keeps its words.
func Session(confirm func() error) func() error {
	return func() error {
		err := confirm()
		if he, ok := errors.AsType[*httpx.Error](err); ok && he.Code == httpx.CodeUnauthorized {
			return &chat.Error{Kind: chat.Unauthorized, Detail: he.Detail}
		}
		return err
	}
}
