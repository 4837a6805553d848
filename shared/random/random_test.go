package random_test

import (
	"encoding/hex"
	"testing"

	"aiwork/shared/random"
)

func TestHex(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 6, 32} {
		got := random.Hex(n)
		if b, err := hex.DecodeString(got); err != nil || len(b) != n || len(got) != 2*n {
			t.Errorf("Hex(%d) = %q (%v), want %d hex digits", n, got, err, 2*n)
		}
	}
	if a, b := random.Hex(16), random.Hex(16); a == b {
		t.Errorf("two Hex(16) are both %q", a)
	}
}
