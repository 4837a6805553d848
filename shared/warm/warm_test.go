package warm

import (
	"sync"
	"sync/atomic"
	"testing"
)

func TestEveryJobRunsOnce(t *testing.T) {
	const n = 500 // more than the pool keeps: some run on plain goroutines
	p := newPool(64)
	var ran atomic.Int64
	var wg sync.WaitGroup
	release := make(chan struct{})
	for range n {
		wg.Add(1)
		p.run(func() {
			defer wg.Done()
			<-release
			ran.Add(1)
		})
	}
	close(release)
	wg.Wait()
	if got := ran.Load(); got != n {
		t.Fatalf("%d jobs ran, want %d", got, n)
	}
	if started := len(p.slots); started != 64 {
		t.Fatalf("%d goroutines kept, want 64", started)
	}
}

func TestJobsOneAfterAnotherReuseGoroutines(t *testing.T) {
	const n = 50
	p := newPool(1000) // never full: a job not handed over starts a goroutine
	done := make(chan struct{})
	for range n {
		p.run(func() { done <- struct{}{} })
		<-done
	}
	// A kept goroutine not back waiting yet when the next job comes makes
	// another, rarely; without reuse every job would start one.
	if started := len(p.slots); started > n/2 {
		t.Fatalf("%d jobs one after another started %d goroutines", n, started)
	}
}

func TestGoRunsTheJob(t *testing.T) {
	done := make(chan struct{})
	Go(func() { close(done) })
	<-done
}
