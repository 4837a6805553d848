package main

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// A request the product answers 503 (busy) is sent again, as a user would,
// up to busyTries times; its body goes again whole.
func TestSendTriesAgainWhenBusy(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		if b := make([]byte, 64); r.ContentLength > 0 {
			k, _ := r.Body.Read(b)
			if string(b[:k]) != `{"a":1}` {
				t.Errorf("try %d: body %q", n, b[:k])
			}
		}
		if n < 3 {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	a := &adapter{api: srv.URL, http: srv.Client()}
	res, err := a.send(t.Context(), http.MethodPost, "/x", map[string]int{"a": 1})
	if err != nil || res.StatusCode != http.StatusOK || calls.Load() != 3 {
		t.Fatalf("status %v, err %v, %d calls; want 200 after 3", res, err, calls.Load())
	}
	res.Body.Close()

	calls.Store(-10) // busy for good: the last 503 is the answer
	res, err = a.send(t.Context(), http.MethodGet, "/x", nil)
	if err != nil || res.StatusCode != http.StatusServiceUnavailable || calls.Load() != -10+busyTries {
		t.Fatalf("status %v, err %v, calls %d; want 503 after %d tries", res, err, calls.Load(), busyTries)
	}
	res.Body.Close()
}
