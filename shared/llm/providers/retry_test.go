package providers_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"aiwork/shared/llm"
	"aiwork/shared/llm/providers"
)

// The OpenAI, Gemini and Anthropic adapters' requests, as their SDKs send
// them: retries, the waits providers ask for, errors, cancellation.
// (Bedrock's have their own tests in bedrock_call_test.go.)

var httpWires = []wire{openaiWire, googleWire, anthropicWire}

// withRetries builds wf's adapter on the test server with n retries.
func withRetries(wf wire, url string, n int) llm.Provider {
	o := providers.Options{APIKey: testKey, MaxRetries: n}
	switch wf.label {
	case providers.LabelOpenAI:
		o.BaseURL = url + "/v1/"
		return providers.NewOpenAI(o)
	case providers.LabelGoogle:
		o.BaseURL = url + "/v1beta/openai/"
		return providers.NewGoogle(o)
	}
	o.BaseURL = url
	return providers.NewAnthropic(o)
}

var bonjour = scripted{parts: []part{text("Bon", "jour")}, stop: llm.StopEnd}

// dropConnection ends the exchange without an answer, or cuts a stream.
func dropConnection(w http.ResponseWriter) { panic(http.ErrAbortHandler) }

// texts streams request on p and returns the text deltas.
func texts(ctx context.Context, p llm.Provider, model string) ([]string, error) {
	var got []string
	_, err := p.Stream(ctx, request(model), llm.TextOnly(func(d string) error {
		got = append(got, d)
		return nil
	}))
	return got, err
}

func TestRetries(t *testing.T) {
	t.Parallel()
	// refuse answers the attempts before the last; the last streams bonjour.
	cases := []struct {
		name     string
		refuse   func(w http.ResponseWriter, wf wire)
		attempts int32 // requests the server gets
		status   int   // the error's, 0 for success
	}{
		{"429 then success", func(w http.ResponseWriter, wf wire) {
			w.Header().Set("Retry-After-Ms", "1")
			wf.httpError(w, http.StatusTooManyRequests, "Slow down.")
		}, 2, 0},
		{"503 twice then success", func(w http.ResponseWriter, wf wire) {
			w.Header().Set("Retry-After", "0")
			wf.httpError(w, http.StatusServiceUnavailable, "Try later.")
		}, 3, 0},
		{"connection dropped then success", func(w http.ResponseWriter, wf wire) { dropConnection(w) }, 2, 0},
		{"401 is not retried", func(w http.ResponseWriter, wf wire) {
			wf.httpError(w, http.StatusUnauthorized, "Bad key.")
		}, 1, http.StatusUnauthorized},
		{"400 is not retried", func(w http.ResponseWriter, wf wire) {
			wf.httpError(w, http.StatusBadRequest, "Bad request.")
		}, 1, http.StatusBadRequest},
		{"a wait beyond the cap is not waited", func(w http.ResponseWriter, wf wire) {
			w.Header().Set("Retry-After", "3600")
			wf.httpError(w, http.StatusTooManyRequests, "Come back in an hour.")
		}, 1, http.StatusTooManyRequests},
		{"x-should-retry false", func(w http.ResponseWriter, wf wire) {
			w.Header().Set("X-Should-Retry", "false")
			wf.httpError(w, http.StatusInternalServerError, "Broken.")
		}, 1, http.StatusInternalServerError},
	}
	for _, wf := range httpWires {
		for _, tc := range cases {
			t.Run(wf.label+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				var up *upstream
				up = newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
					if tc.status != 0 || up.count.Load() < tc.attempts {
						tc.refuse(w, wf)
						return
					}
					play(w, wf, wf.script(bonjour))
				})
				got, err := texts(t.Context(), withRetries(wf, up.URL, 2), wf.model)
				if tc.status != 0 {
					wantUpstream(t, err, wf.label, tc.status)
				} else if err != nil || !slices.Equal(got, []string{"Bon", "jour"}) {
					t.Errorf("got %q, %v; want the reply of the last attempt", got, err)
				}
				if got, want := up.count.Load(), tc.attempts; got != want {
					t.Errorf("requests = %d, want %d", got, want)
				}
			})
		}
		t.Run(wf.label+"/retries run out", func(t *testing.T) {
			t.Parallel()
			up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Retry-After-Ms", "0")
				wf.httpError(w, http.StatusTooManyRequests, "Slow down.")
			})
			_, err := texts(t.Context(), withRetries(wf, up.URL, 2), wf.model)
			wantUpstream(t, err, wf.label, http.StatusTooManyRequests)
			if got, want := up.count.Load(), int32(3); got != want {
				t.Errorf("requests = %d, want %d", got, want)
			}
		})
	}
}

// The wait a provider asks for is waited before the retry. Each is longer
// than the SDK's own first backoff (at most 0.5 s), so only a client that
// read the header waits that long.
func TestRetryAfterHonoured(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		header func() (string, string)
		want   time.Duration // at least
	}{
		{"Retry-After seconds", func() (string, string) { return "Retry-After", "1" }, time.Second},
		{"retry-after-ms", func() (string, string) { return "Retry-After-Ms", "1100" }, 1100 * time.Millisecond},
		{"Retry-After date", func() (string, string) {
			// Whole seconds: the wait is between 1 and 2 s.
			return "Retry-After", time.Now().Add(2 * time.Second).UTC().Format(http.TimeFormat)
		}, time.Second},
	}
	for _, wf := range []wire{openaiWire, anthropicWire} { // Gemini sends no such header
		for _, tc := range cases {
			t.Run(wf.label+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				var mu sync.Mutex
				var arrived []time.Time
				up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
					mu.Lock()
					arrived = append(arrived, time.Now())
					first := len(arrived) == 1
					mu.Unlock()
					if first {
						k, v := tc.header()
						w.Header().Set(k, v)
						wf.httpError(w, http.StatusTooManyRequests, "Slow down.")
						return
					}
					play(w, wf, wf.script(bonjour))
				})
				if _, err := texts(t.Context(), withRetries(wf, up.URL, 1), wf.model); err != nil {
					t.Fatalf("Stream: %v", err)
				}
				mu.Lock()
				defer mu.Unlock()
				if len(arrived) != 2 {
					t.Fatalf("requests = %d, want 2", len(arrived))
				}
				if got := arrived[1].Sub(arrived[0]); got < tc.want {
					t.Errorf("retried after %s, want at least %s", got, tc.want)
				}
			})
		}
	}
}

// Once a reply has begun, a failure is the caller's: the request is not
// sent again (the user saw part of a reply; a second one would follow it).
func TestNoRetryOnceOutputStarted(t *testing.T) {
	t.Parallel()
	for _, wf := range httpWires {
		t.Run(wf.label, func(t *testing.T) {
			t.Parallel()
			up := newUpstream(t, bonThen(wf, func(s *sender) { dropConnection(s.w) }))
			got, err := texts(t.Context(), withRetries(wf, up.URL, 2), wf.model)
			if err == nil {
				t.Error("Stream: no error for a cut stream")
			}
			wantBonTriedOnce(t, up, got)
		})
	}
}

// bonThen answers with wf's opening and the delta "Bon", then does then.
func bonThen(wf wire, then func(s *sender)) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		s := &sender{w: w, r: r}
		wf.begin(s)
		s.delta(wf.delta("Bon"))
		then(s)
	}
}

// wantBonTriedOnce checks a reply that failed after its first delta: that
// delta was emitted, and the request was not sent again.
func wantBonTriedOnce(t *testing.T, up *upstream, got []string) {
	t.Helper()
	if !slices.Equal(got, []string{"Bon"}) {
		t.Errorf("deltas = %q, want [Bon]", got)
	}
	if n := up.count.Load(); n != 1 {
		t.Errorf("requests = %d, want 1", n)
	}
}

// A refused key's error says who refused it, and the provider's message.
func TestUnauthorizedErrorText(t *testing.T) {
	t.Parallel()
	for _, wf := range httpWires {
		t.Run(wf.label, func(t *testing.T) {
			t.Parallel()
			up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
				wf.httpError(w, http.StatusUnauthorized, "Incorrect API key provided: "+testKey+".")
			})
			_, err := texts(t.Context(), withRetries(wf, up.URL, 2), wf.model)
			if got, want := errorText(err), wf.label+" answered 401: Incorrect API key provided: [redacted]."; got != want {
				t.Errorf("error = %q, want %q", got, want)
			}
		})
	}
}

func errorText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// Anthropic's error events inside a 200 stream: the status each type
// stands for and the message, after the text already emitted.
func TestAnthropicErrorEvents(t *testing.T) {
	t.Parallel()
	cases := []struct {
		typ  string
		want string
	}{
		{"overloaded_error", "Anthropic answered 529: Overloaded"},
		{"rate_limit_error", "Anthropic answered 429: Overloaded"},
		{"api_error", "Anthropic answered 500: Overloaded"},
		{"a_new_error", "Anthropic: Overloaded"},
	}
	for _, tc := range cases {
		t.Run(tc.typ, func(t *testing.T) {
			t.Parallel()
			up := newUpstream(t, bonThen(anthropicWire, func(s *sender) {
				s.frame(sseEvent("error", `{"type":"error","error":{"type":"`+tc.typ+`","message":"Overloaded"}}`))
				s.delta(anthropicWire.delta("jour")) // never read
			}))
			got, err := texts(t.Context(), withRetries(anthropicWire, up.URL, 2), anthropicWire.model)
			if errorText(err) != tc.want {
				t.Errorf("error = %q, want %q", errorText(err), tc.want)
			}
			wantBonTriedOnce(t, up, got)
		})
	}
}

// Cancelling stops the request wherever it is: waiting for the answer's
// headers, or waiting to retry.
func TestCancelStopsTheRequest(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		// answer gets the first request; it closes sawCancel once it knows
		// the request is over.
		answer func(w http.ResponseWriter, r *http.Request, sawCancel chan<- struct{})
		// answered: cancel once the client has the answer, else once the
		// server has the request.
		answered bool
		// within: Stream must return sooner, here before the retry is due.
		within time.Duration
	}{
		{"before the answer", func(w http.ResponseWriter, r *http.Request, sawCancel chan<- struct{}) {
			select {
			case <-r.Context().Done():
				close(sawCancel)
			case <-time.After(patience):
			}
		}, false, patience},
		{"waiting to retry", func(w http.ResponseWriter, r *http.Request, sawCancel chan<- struct{}) {
			close(sawCancel) // nothing to abort: the request was answered
			w.Header().Set("Retry-After", "9")
			openaiWire.httpError(w, http.StatusTooManyRequests, "Slow down.")
		}, true, 8 * time.Second},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			arrived, sawCancel := make(chan struct{}), make(chan struct{})
			var once sync.Once
			up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
				once.Do(func() { close(arrived) })
				tc.answer(w, r, sawCancel)
			})
			answered := &signalTransport{done: make(chan struct{})}
			p := providers.NewOpenAI(providers.Options{APIKey: testKey, BaseURL: up.URL + "/v1/", MaxRetries: 2,
				HTTPClient: &http.Client{Transport: answered}})
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			done := make(chan error, 1)
			go func() {
				_, err := texts(ctx, p, "gpt-4o")
				done <- err
			}()
			ready := arrived
			if tc.answered {
				ready = answered.done
			}
			wait(t, ready, "the request was neither sent nor answered")
			cancel()
			select {
			case err := <-done:
				if !errors.Is(err, context.Canceled) {
					t.Errorf("err = %v, want context.Canceled", err)
				}
			case <-time.After(tc.within):
				t.Fatalf("Stream did not return within %s of the cancel", tc.within)
			}
			wait(t, sawCancel, "the server never saw its request end")
			if n := up.count.Load(); n != 1 {
				t.Errorf("requests = %d, want 1", n)
			}
		})
	}
}

// signalTransport closes done when its first round trip has returned.
type signalTransport struct {
	once sync.Once
	done chan struct{}
}

func (s *signalTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := http.DefaultTransport.RoundTrip(r)
	s.once.Do(func() { close(s.done) })
	return res, err
}

func wait(t *testing.T, c <-chan struct{}, failure string) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(patience):
		t.Fatal(failure)
	}
}
