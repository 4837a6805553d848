// Package warm runs short jobs on goroutines kept from earlier jobs.
//
// A table call through the SDK's client runs some 30 KB deep. A fresh
// goroutine starts with a small stack, which the runtime grows two or three
// times on the way, copying it each time; a kept goroutine has grown once
// (it shrinks only when a collection finds it mostly unused). The chat
// relay's session check and admission run here: measured, ~0.05–0.1 ms of
// CPU less per message (DESIGN §10, the relay CPU row).
package warm

// maxKept bounds the goroutines kept waiting for a job; past it, Go starts
// a plain goroutine.
const maxKept = 64

var kept = newPool(maxKept)

// Go runs f on a kept goroutine, or a new one when none is free.
func Go(f func()) { kept.run(f) }

// pool is up to cap(slots) goroutines that, between jobs, wait for one.
type pool struct {
	jobs  chan func()
	slots chan struct{} // one per goroutine started
}

func newPool(size int) *pool {
	return &pool{jobs: make(chan func()), slots: make(chan struct{}, size)}
}

func (p *pool) run(f func()) {
	select {
	case p.jobs <- f: // a kept goroutine was waiting
		return
	default:
	}
	select {
	case p.slots <- struct{}{}:
		go p.work(f)
	default:
		go f()
	}
}

// work runs f, then every job handed to it.
func (p *pool) work(f func()) {
	for {
		f()
		f = <-p.jobs
	}
}
