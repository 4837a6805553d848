package store

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"time"

	"aiwork/shared/config"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// When the table cannot be reached (the engine stopped, its port silent,
// throttling, a 5xx), a store call fails with an UnavailableError: the API
// answers 503 "The service is busy; try again in a moment." (httpx), and
// the same request succeeds once the table is back (the client dials
// again on the next call: no restart).

// UnavailableError is a store call that failed because the table could
// not be reached or refused to serve for now.
type UnavailableError struct{ Err error }

func (e *UnavailableError) Error() string { return "table unavailable: " + e.Err.Error() }
func (e *UnavailableError) Unwrap() error { return e.Err }

// Unavailable marks it for httpx (which answers 503 without importing
// the store).
func (e *UnavailableError) Unavailable() bool { return true }

// Bounds of one table call: an attempt that has no answer in attemptTimeout
// is given up (a silent port would otherwise hold the request until the
// function's own timeout), and a call makes at most maxAttempts.
const (
	DefaultAttemptTimeout = 4 * time.Second
	maxAttempts           = 3
)

// LocalAttemptTimeout is the attempt bound against a local engine
// (dynalite): it shares a developer's or CI's cores with the browser, the
// build and every other test, so a slow answer there is load, not an
// outage; DynamoDB answers in milliseconds, so 4 s there is an outage.
const LocalAttemptTimeout = 12 * time.Second

// attemptTimeout is cfg's bound: its own, else the local or AWS default.
func attemptTimeout(cfg config.Store) time.Duration {
	switch {
	case cfg.AttemptTimeout > 0:
		return cfg.AttemptTimeout
	case cfg.Endpoint != "":
		return LocalAttemptTimeout
	}
	return DefaultAttemptTimeout
}

// unavailableCodes are the service's own "not now" answers.
var unavailableCodes = map[string]bool{
	"ThrottlingException": true, "ProvisionedThroughputExceededException": true, "RequestLimitExceeded": true,
	"InternalServerError": true, "ServiceUnavailable": true, "ServiceUnavailableException": true,
}

// isUnavailable reports whether err (from a call whose own context is still
// live) means the table cannot serve now.
func isUnavailable(ctx context.Context, err error) bool {
	if err == nil || ctx.Err() != nil {
		return false // the caller gave up: not the table's fault
	}
	var netErr net.Error
	var send *smithyhttp.RequestSendError
	var api smithy.APIError
	var status *awshttp.ResponseError
	switch {
	case errors.As(err, &netErr), errors.As(err, &send), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF),
		errors.Is(err, context.DeadlineExceeded):
		return true
	case errors.As(err, &api) && unavailableCodes[api.ErrorCode()]:
		return true
	case errors.As(err, &status) && status.HTTPStatusCode() >= 500:
		return true
	}
	return false
}

// markUnavailable wraps every table call's error that means the table
// cannot serve now in an UnavailableError.
func markUnavailable(stack *middleware.Stack) error {
	return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("markUnavailable",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			out, md, err := next.HandleInitialize(ctx, in)
			if isUnavailable(ctx, err) {
				err = &UnavailableError{Err: err}
			}
			return out, md, err
		}), middleware.Before)
}

// idleConnections is how many connections to the table stay open between
// calls. The SDK keeps 10 per host: one process serving many users at once
// (the devserver; a chat message makes several calls at once) then closed
// and dialled connections on every burst, which cost it and the engine CPU.
// A Lambda instance serves one request at a time and never reaches either.
const idleConnections = 64

// clientOptions bounds each call (attemptTimeout per attempt, the answer's
// body included; maxAttempts), keeps idleConnections open to the table,
// marks the unavailable calls, refuses numbers the table cannot hold
// (numberGuard) and meters the capacity of calls made under MeterCapacity.
func clientOptions(attemptTimeout time.Duration) func(*dynamodb.Options) {
	return func(o *dynamodb.Options) {
		o.HTTPClient = tableHTTPClient(attemptTimeout)
		o.RetryMaxAttempts = maxAttempts
		o.APIOptions = append(o.APIOptions, markUnavailable, numberGuard, meterCapacity)
	}
}

// tableHTTPClient is the SDK's HTTP client with the table's bounds: a
// connection is dialled within 10 s and kept idle up to 90 s (the SDK's
// own; the server may close it sooner, which net/http notices).
func tableHTTPClient(attemptTimeout time.Duration) *awshttp.BuildableClient {
	return awshttp.NewBuildableClient().
		WithTimeout(attemptTimeout).
		WithDialerOptions(func(d *net.Dialer) { d.Timeout = 10 * time.Second }).
		WithTransportOptions(func(t *http.Transport) {
			t.MaxIdleConns = max(t.MaxIdleConns, idleConnections)
			t.MaxIdleConnsPerHost = idleConnections
			t.IdleConnTimeout = 90 * time.Second
		})
}
