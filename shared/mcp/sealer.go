package mcp

import "aiwork/shared/sealing"

// Sealer seals users' MCP API keys and sign-in tokens for a user and a
// server (shared/sealing, which the admin function links without this
// package).
type Sealer = sealing.Sealer

// NewSealer takes the 32-byte secret (Secrets Manager in AWS, DATA_DIR/secrets locally).
func NewSealer(key []byte) (*Sealer, error) { return sealing.NewSealer(key) }

// ErrUnseal is returned when sealed bytes do not open.
var ErrUnseal = sealing.ErrUnseal

// Last4 is the most of a key ever shown: its last 4 characters, and only for
// keys of at least 8, so short keys reveal nothing.
func Last4(key string) string {
	r := []rune(key)
	if len(r) < 8 {
		return ""
	}
	return string(r[len(r)-4:])
}
