package providers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// streamClient posts a request to a provider's streaming endpoint and hands
// back the event stream of its answer. It is the whole HTTP side of the
// OpenAI-shaped and Anthropic adapters: their SDKs cost the chat function
// more package init than the rest of it (DESIGN §10, Lambda init). Bedrock
// shares its retries (postRetrying), signing each attempt.
type streamClient struct {
	http    *http.Client
	url     string
	header  http.Header // authentication and API version
	retries int
	label   string // names the provider in errors users read
	key     string // cut out of any error detail
}

// newStreamClient posts to path below o.BaseURL, or below base when o has
// none; either may end in a slash or not.
func newStreamClient(o Options, base, path, label string, header http.Header) *streamClient {
	if o.BaseURL != "" {
		base = o.BaseURL
	}
	header.Set("Content-Type", "application/json")
	header.Set("Accept", "text/event-stream")
	return &streamClient{http: o.httpClient(), url: strings.TrimRight(base, "/") + "/" + path, header: header,
		retries: o.MaxRetries, label: label, key: o.APIKey}
}

// Retry timing: exponential backoff from retryBase up to retryMax, unless
// the provider says how long to wait. A wait it asks for beyond
// maxRetryAfter is not waited: the chat's stall timeout (30 s) would end
// the reply first, so the refusal goes to the user at once.
const (
	retryBase     = 500 * time.Millisecond
	retryMax      = 8 * time.Second
	maxRetryAfter = 10 * time.Second
	// maxErrorBody bounds the read of a refusal's body.
	maxErrorBody = 64 << 10
)

// open sends body and returns the event stream of a 2xx answer; the caller
// closes it. A refusal is an *llm.UpstreamError with the provider's message.
func (c *streamClient) open(ctx context.Context, body any) (*sseStream, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	res, err := postRetrying(ctx, c.http, c.retries, func() (*http.Request, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(b))
		if err != nil {
			return nil, err
		}
		for k, v := range c.header {
			req.Header[k] = v
		}
		return req, nil
	}, c.failure)
	if err != nil {
		return nil, err
	}
	return &sseStream{sseReader: newSSEReader(res.Body), body: res.Body}, nil
}

// postRetrying sends the request newRequest makes (a new one each attempt:
// a signed request carries its time) and returns the 2xx answer, whose
// body the caller closes. A refusal or a send error is tried again while
// retryWait allows it and retries remain; failure makes the error of the
// last one (reading and closing a refusal's body). newRequest's error ends
// it at once. Retries happen here only, so never once any output was read.
func postRetrying(ctx context.Context, hc *http.Client, retries int, newRequest func() (*http.Request, error),
	failure func(*http.Response, error) error) (*http.Response, error) {
	for attempt := 0; ; attempt++ {
		req, err := newRequest()
		if err != nil {
			return nil, err
		}
		res, err := hc.Do(req)
		if ctx.Err() != nil {
			if err == nil {
				_ = res.Body.Close()
			}
			return nil, ctx.Err()
		}
		if err == nil && res.StatusCode < 300 {
			return res, nil
		}
		failed := failure(res, err)
		wait, again := retryWait(res, attempt)
		if !again || attempt >= retries {
			return nil, failed
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

// failure is the error of a refused request (its body read and closed) or
// of one that got no answer.
func (c *streamClient) failure(res *http.Response, err error) error {
	if err != nil {
		return fmt.Errorf("%s stream: %w", c.label, err)
	}
	body, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
	_ = res.Body.Close()
	return upstreamError(c.label, res.StatusCode, errorMessage(body), c.key)
}

// eventError is the error of an error event inside a 2xx stream, with the
// status its provider's code or type stands for (0: none known).
func (c *streamClient) eventError(status int, data []byte) error {
	return upstreamError(c.label, status, errorMessage(data), c.key)
}

// readFailed is the error of a stream that broke after it began: the
// context's if it ended, else the read or decoding error, kept wrapped so
// chatapi tells a cut stream from an unreadable one.
func (c *streamClient) readFailed(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return fmt.Errorf("%s stream: %w", c.label, err)
}

// retryWait says whether a failed attempt may be tried again and after how
// long: a connection failure, 408, 409, 429 and 5xx may, unless the
// provider's x-should-retry says otherwise.
func retryWait(res *http.Response, attempt int) (time.Duration, bool) {
	backoff := min(retryBase<<min(attempt, 5), retryMax)
	backoff -= rand.N(backoff / 4) // jitter, so clients refused together do not return together
	if res == nil {
		return backoff, true
	}
	switch res.Header.Get("X-Should-Retry") {
	case "true":
		return backoff, true
	case "false":
		return 0, false
	}
	s := res.StatusCode
	if s != http.StatusRequestTimeout && s != http.StatusConflict && s != http.StatusTooManyRequests && s < 500 {
		return 0, false
	}
	if d, ok := retryAfter(res.Header, time.Now()); ok {
		return d, d <= maxRetryAfter
	}
	return backoff, true
}

// retryAfter reads the wait a provider asks for: retry-after-ms (OpenAI's
// and Anthropic's, in milliseconds), else Retry-After in seconds or as an
// HTTP date.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil {
		return duration(ms / 1000)
	}
	v := h.Get("Retry-After")
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		return duration(s)
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// duration converts a header's seconds, kept below an hour so that no
// value (NaN, Inf, 1e300) overflows; a negative one is not a wait.
func duration(seconds float64) (time.Duration, bool) {
	if !(seconds >= 0) {
		return 0, false
	}
	return time.Duration(min(seconds, 3600) * float64(time.Second)), true
}

// sseStream is an answer's events and the body to close after them.
type sseStream struct {
	*sseReader
	body io.Closer
}

func (s *sseStream) close() { _ = s.body.Close() }
