package localproc

import (
	"math/rand/v2"
	"net"
	"os/exec"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"
)

// FreePort never answers a port the kernel hands to listeners on port 0
// (or to outgoing connections): those are given out again at once. It
// answers ports one can listen on, and not the same one every time.
func TestFreePortIsBelowTheEphemeralRange(t *testing.T) {
	lo, hi := pickRange()
	seen := map[int]bool{}
	for range 20 {
		port, err := FreePort()
		if err != nil {
			t.Fatal(err)
		}
		if port < lo || port >= hi {
			t.Fatalf("port %d outside %d–%d", port, lo, hi)
		}
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err != nil {
			t.Fatalf("port %d was not free: %v", port, err)
		}
		_ = l.Close()
		seen[port] = true
	}
	if len(seen) < 10 {
		t.Errorf("%d distinct ports in 20 picks", len(seen))
	}
	// The ephemeral range starts at or above hi.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if p := l.Addr().(*net.TCPAddr).Port; p >= lo && p < hi {
		t.Errorf("the kernel handed port %d, inside the range FreePort picks from (%d–%d)", p, lo, hi)
	}
}

// FreePort never answers one port twice in a process, so two helpers
// started side by side (the reference server and the OAuth example) get
// ports of their own. Over a range of 16 ports, 16 picks are 16 ports.
func TestFreePortNeverAnswersAPortTwice(t *testing.T) {
	lo, _ := pickRange()
	lo += 1000 + 16*rand.IntN(200) // a block other tests here do not pick from often
	defer func(r func() (int, int)) { portRange = r }(portRange)
	portRange = func() (int, int) { return lo, lo + 16 }
	seen := map[int]bool{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			port, err := FreePort()
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if seen[port] {
				t.Errorf("port %d answered twice", port)
			}
			seen[port] = true
		})
	}
	wg.Wait()
}

// A child's CPU time grows while it computes: a busy loop's reading after
// some work is above its first one.
func TestChildCPUTimeGrowsWithWork(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("CPU times come from Linux's /proc")
	}
	c, err := Start("busy", exec.Command("sh", "-c", "while :; do :; done"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Stop)
	first, err := c.CPUTime()
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		now, err := c.CPUTime()
		if err != nil {
			t.Fatal(err)
		}
		if now >= first+50*time.Millisecond {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("CPU time stayed at %v (first %v) while the child ran a busy loop", now, first)
		}
		time.Sleep(10 * time.Millisecond) // polling a counter, not waiting for a fixed time
	}
}
