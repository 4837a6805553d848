package store

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"aiwork/shared/config"
)

// tableServer is an httptest server running h that counts the connections
// it accepted, and a store whose table it is (attempt: each attempt's bound).
func tableServer(t *testing.T, h http.HandlerFunc, attempt time.Duration) (*Store, *atomic.Int32) {
	t.Helper()
	var accepted atomic.Int32
	ts := httptest.NewUnstartedServer(h)
	ts.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			accepted.Add(1)
		}
	}
	ts.Start()
	t.Cleanup(ts.Close)
	cfg := config.Store{TableName: "t", Endpoint: ts.URL, Region: "us-east-1", AttemptTimeout: attempt}
	return NewFromAWS(config.AWS(cfg.Region), cfg), &accepted
}

// describe makes one table call.
func describe(ctx context.Context, s *Store) error {
	_, err := s.db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(s.table)})
	return err
}

func tableAnswer(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	io.WriteString(w, `{"Table":{"TableName":"t","TableStatus":"ACTIVE"}}`)
}

// A burst of calls at once leaves its connections open for the next burst
// (more than the SDK's default 10 are kept): the second burst reuses them.
// A connection goes back to the pool just after its call returned, so a
// call of the next burst may, rarely, miss one and dial: a few are allowed,
// far fewer than the 10 that the SDK's default pool would dial again.
func TestTableKeepsABurstsConnections(t *testing.T) {
	t.Parallel()
	const burst = 20
	var mu sync.Mutex
	in, release := 0, make(chan struct{})
	st, accepted := tableServer(t, func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		// Hold each call until the whole burst is in, so that each has a
		// connection of its own.
		mu.Lock()
		if in++; in == burst {
			close(release)
		}
		wait := release
		mu.Unlock()
		<-wait
		tableAnswer(w)
	}, 10*time.Second)
	for round := range 2 {
		mu.Lock()
		in, release = 0, make(chan struct{})
		mu.Unlock()
		var wg sync.WaitGroup
		errs := make(chan error, burst)
		for range burst {
			wg.Go(func() { errs <- describe(t.Context(), st) })
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
	}
	if n := accepted.Load(); n < burst || n > burst+3 {
		t.Errorf("two bursts of %d calls dialled %d connections, want %d to %d", burst, n, burst, burst+3)
	}
}

// A table that never answers fails the call as unavailable once each of its
// attempts ran out of time; a caller that goes away ends the call at once,
// with the caller's own error (not the table's fault); the next call works.
func TestTableCallsAgainstASilentTable(t *testing.T) {
	t.Parallel()
	var silent atomic.Bool
	silent.Store(true)
	held := make(chan struct{}, 8) // a silent request is in
	hold := make(chan struct{})
	st, _ := tableServer(t, func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // so that a client gone ends r's context
		if silent.Load() {
			held <- struct{}{}
			select {
			case <-hold:
			case <-r.Context().Done():
			}
			return
		}
		tableAnswer(w)
	}, 200*time.Millisecond)
	t.Cleanup(func() { close(hold) }) // before the server's Close, which waits for its handlers

	start := time.Now()
	err := describe(t.Context(), st)
	var unavailable *UnavailableError
	if !errors.As(err, &unavailable) || !isUnavailable(t.Context(), unavailable.Err) {
		t.Fatalf("a silent table: %v, want an UnavailableError", err)
	}
	if took := time.Since(start); took > maxAttempts*LocalAttemptTimeout/2 {
		t.Errorf("a silent table took %v to give up (%d attempts of 200 ms)", took, maxAttempts)
	}
	for len(held) > 0 {
		<-held
	}

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() {
		// Cancel once the request is in: the server then holds it.
		select {
		case <-held:
			cancel()
		case <-ctx.Done():
		}
	}()
	if err := describe(ctx, st); !errors.Is(err, context.Canceled) || errors.As(err, &unavailable) {
		t.Fatalf("a caller gone: %v, want context.Canceled, not unavailable", err)
	}

	silent.Store(false)
	if err := describe(t.Context(), st); err != nil {
		t.Fatalf("the next call: %v", err)
	}
}
