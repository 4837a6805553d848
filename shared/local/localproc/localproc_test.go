package localproc

import (
	"net"
	"strconv"
	"testing"
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
