// Package random makes the random strings ids and secrets are built from.
package random

import (
	"crypto/rand"
	"encoding/hex"
)

// Hex is n random bytes from crypto/rand as 2n lower-case hex digits: an
// id's random part ("p-" + Hex(6)) or a secret (Hex(32)).
func Hex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // never fails: it crashes the program instead
	return hex.EncodeToString(b)
}
