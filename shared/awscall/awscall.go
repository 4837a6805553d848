// Package awscall makes single AWS API calls over plain HTTP, signed
// (SigV4) with the configuration's credentials, for the functions that make
// one or two calls to a service: the SDK's service clients build endpoint
// tables at package init, ~0.1 ms and ~90 KB of every cold start each
// (DESIGN §10 Lambda init).
package awscall

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// MaxAnswer bounds an answer's body: Lambda's synchronous payload limit
// (6 MB) and then some; the other calls answer far less.
const MaxAnswer = 7 << 20

// Client signs and sends calls for one region.
type Client struct {
	http   *http.Client
	signer *Signer
}

// New is a client with the configuration's region and credentials; timeout
// bounds each call (contexts may end it sooner).
func New(cfg aws.Config, timeout time.Duration) *Client {
	return &Client{http: &http.Client{Timeout: timeout}, signer: NewSigner(cfg)}
}

// Endpoint is where the service is reached: AWS_ENDPOINT_URL_<envName> when
// set (make run-lambda's stand-ins), else https://<host>.<region>.<suffix>.
func Endpoint(region, host, envName string) string {
	if u := strings.TrimSpace(os.Getenv("AWS_ENDPOINT_URL_" + envName)); u != "" {
		return strings.TrimSuffix(u, "/")
	}
	return "https://" + host + "." + region + "." + dnsSuffix(region)
}

// dnsSuffix is the domain of AWS endpoints in region's partition: China's
// regions have their own; the functions run in no other special partition.
func dnsSuffix(region string) string {
	if strings.HasPrefix(region, "cn-") {
		return "amazonaws.com.cn"
	}
	return "amazonaws.com"
}

// PathLabel escapes s for one segment of a REST API's path as the AWS SDKs
// send it: every byte but RFC 3986's unreserved ones, so a Bedrock model
// id's ":" and an inference profile ARN's "/" go as %3A and %2F (Go's
// url.PathEscape would leave ":" bare). The signer escapes the path once
// more for its canonical request, as the service expects.
func PathLabel(s string) string {
	const hexDigits = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hexDigits[c>>4])
		b.WriteByte(hexDigits[c&15])
	}
	return b.String()
}

// Request is one call: Service is the signing name (secretsmanager,
// lambda, ses).
type Request struct {
	Service string
	Method  string
	URL     string
	Header  http.Header
	Body    []byte
}

// Answer is the service's answer, whatever its status.
type Answer struct {
	Status int
	Header http.Header
	Body   []byte
}

// ErrNoCredentials: the configuration has none to sign with.
var ErrNoCredentials = errors.New("no AWS credentials (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)")

// Do signs and sends req and reads the answer, whatever its status (see
// Answer.Err). An error is the call's own: no credentials, or a
// *SendError when no complete answer came.
func (c *Client) Do(ctx context.Context, req Request) (*Answer, error) {
	hr, err := http.NewRequestWithContext(ctx, cmpMethod(req.Method), req.URL, bytes.NewReader(req.Body))
	if err != nil {
		return nil, err
	}
	for k, vs := range req.Header {
		hr.Header[k] = vs
	}
	if err := c.signer.Sign(ctx, hr, req.Service, req.Body); err != nil {
		return nil, err
	}
	resp, err := c.http.Do(hr)
	if err != nil {
		return nil, &SendError{err: err}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, MaxAnswer))
	if err != nil {
		return nil, &SendError{err: fmt.Errorf("read answer: %w", err), Answered: true}
	}
	return &Answer{Status: resp.StatusCode, Header: resp.Header, Body: raw}, nil
}

func cmpMethod(m string) string {
	if m == "" {
		return http.MethodPost
	}
	return m
}

// SendError is a call that got no complete answer (Answered: the status
// came, the body did not).
type SendError struct {
	err      error
	Answered bool
}

func (e *SendError) Error() string { return e.err.Error() }
func (e *SendError) Unwrap() error { return e.err }

// Error is an error the service answered, such as
// ResourceNotFoundException.
type Error struct {
	Status  int
	Code    string
	Message string
}

func (e *Error) Error() string { return fmt.Sprintf("%s (%d): %s", e.Code, e.Status, e.Message) }

// Err is the service's error in a, read as the JSON protocols (JSON 1.0/1.1
// and REST-JSON) give it: a code in __type (maybe namespaced
// "com.amazonaws...#Code") or the X-Amzn-ErrorType header, a message or
// Message. A 2xx answer is no error (nil).
func (a *Answer) Err() *Error {
	if a.Status >= 200 && a.Status < 300 {
		return nil
	}
	var e struct {
		Type     string `json:"__type"`
		Message  string `json:"message"`
		Message2 string `json:"Message"`
	}
	_ = json.Unmarshal(a.Body, &e)
	code := e.Type[strings.LastIndex(e.Type, "#")+1:]
	if code == "" {
		code, _, _ = strings.Cut(a.Header.Get("X-Amzn-ErrorType"), ":")
	}
	if e.Message == "" {
		e.Message = e.Message2
	}
	return &Error{Status: a.Status, Code: code, Message: e.Message}
}

// Retryable reports whether the same call may succeed later: the service
// failed or throttled.
func (e *Error) Retryable() bool {
	return e.Status >= 500 || e.Code == "ThrottlingException" || e.Code == "TooManyRequestsException"
}

// DoRetrying is Do for calls safe to repeat: tried up to attempts times,
// waiting a little longer each time, while no complete answer came or the
// service answered an error it may not repeat (Retryable), as the SDK's
// standard retryer does. It answers the last answer or error.
func (c *Client) DoRetrying(ctx context.Context, req Request, attempts int) (*Answer, error) {
	for attempt := 1; ; attempt++ {
		ans, err := c.Do(ctx, req)
		var se *SendError
		retry := err == nil && ans.Err() != nil && ans.Err().Retryable() || errors.As(err, &se) && ctx.Err() == nil
		if !retry || attempt >= attempts {
			return ans, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(attempt) * 100 * time.Millisecond):
		}
	}
}
