package main

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/aws/smithy-go/middleware"

	"aiwork/shared/config"
	"aiwork/shared/payments"
	"aiwork/shared/store"
)

// tableMeter adds up what a stack's requests cost on the table, action by
// action: each request to a route group runs under store.MeterCapacity
// (wrapGroup, the stack's WrapGroup), and the calls made on no request's
// context are counted too (apiOption, on the stack's table client): the
// chat saves a kept reply on a context of its own, so that a client
// leaving does not stop the save. The bench runs one action at a time, so
// such a call belongs to the action under way.
type tableMeter struct {
	mu       sync.Mutex
	inFlight sync.WaitGroup
	cur      *actionCost
}

// actionCost is what one measured action cost.
type actionCost struct {
	read, write  float64
	calls, scans int
	// detachedRead and detachedWrite are the part made on no request's
	// context (in read and write above too).
	detachedRead, detachedWrite float64
	// invocations and busy are the requests each function (route group)
	// served and its handlers' time: the Lambda invocations and durations
	// the action would bill.
	invocations map[string]int
	busy        map[string]time.Duration
	// bytesOut is what the answers sent (their bodies).
	bytesOut int64
}

// requests is how many API requests the action made.
func (c actionCost) requests() int {
	n := 0
	for _, v := range c.invocations {
		n += v
	}
	return n
}

type meteredKey struct{}

// standInKey marks a request to a local stand-in (the test checkout, which
// keeps in the table what Stripe keeps): its own calls are not the
// product's.
type standInKey struct{}

// wrapGroup runs each request of function's route group under its own
// MeterCapacity and adds it to the action under way.
func (m *tableMeter) wrapGroup(function string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.inFlight.Add(1)
		defer m.inFlight.Done()
		ctx, used := store.MeterCapacity(r.Context())
		ctx = context.WithValue(ctx, meteredKey{}, true)
		cw := &countingWriter{ResponseWriter: w}
		start := time.Now()
		h.ServeHTTP(cw, r.WithContext(ctx))
		took := time.Since(start)
		m.mu.Lock()
		defer m.mu.Unlock()
		if c := m.cur; c != nil {
			c.read, c.write = c.read+used.Read(), c.write+used.Write()
			c.calls, c.scans = c.calls+used.Calls(), c.scans+used.Scans()
			c.invocations[function]++
			c.busy[function] += took
			c.bytesOut += cw.n
		}
	})
}

// countingWriter counts the bytes of an answer's body; a stream flushes
// through it.
type countingWriter struct {
	http.ResponseWriter
	n int64
}

func (w *countingWriter) Write(b []byte) (int, error) {
	n, err := w.ResponseWriter.Write(b)
	w.n += int64(n)
	return n, err
}

func (w *countingWriter) Flush() { _ = http.NewResponseController(w.ResponseWriter).Flush() }

func (w *countingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// wrapStandIns marks the requests to the local test checkout (standInKey).
func wrapStandIns(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, payments.LocalCheckoutPath) {
			r = r.WithContext(context.WithValue(r.Context(), standInKey{}, true))
		}
		h.ServeHTTP(w, r)
	})
}

// apiOption meters the table calls made on no metered request's context
// (the client's middleware runs before the store's own, which does the
// counting).
func (m *tableMeter) apiOption(stack *middleware.Stack) error {
	return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("benchDetachedCapacity",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			if ctx.Value(meteredKey{}) != nil || ctx.Value(standInKey{}) != nil {
				return next.HandleInitialize(ctx, in)
			}
			mctx, used := store.MeterCapacity(ctx)
			out, md, err := next.HandleInitialize(mctx, in)
			m.mu.Lock()
			defer m.mu.Unlock()
			if c := m.cur; c != nil {
				c.read, c.write = c.read+used.Read(), c.write+used.Write()
				c.detachedRead, c.detachedWrite = c.detachedRead+used.Read(), c.detachedWrite+used.Write()
				c.calls, c.scans = c.calls+used.Calls(), c.scans+used.Scans()
			}
			return out, md, err
		}), middleware.After)
}

// newStore is a store on table whose every call this meter can see.
func (m *tableMeter) newStore(sc config.Store) *store.Store {
	awsCfg := config.AWS(sc.Region)
	awsCfg.APIOptions = append(awsCfg.APIOptions, m.apiOption)
	return store.NewFromAWS(awsCfg, sc)
}

// measure runs action and answers what it cost, once every request it
// made has returned.
func (m *tableMeter) measure(action func() error) (actionCost, error) {
	c := &actionCost{invocations: map[string]int{}, busy: map[string]time.Duration{}}
	m.mu.Lock()
	m.cur = c
	m.mu.Unlock()
	err := action()
	// A handler may still be finishing after its client read the last
	// byte (a stream's deferred work).
	m.inFlight.Wait()
	m.mu.Lock()
	m.cur = nil
	m.mu.Unlock()
	return *c, err
}
