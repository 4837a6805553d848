package mcp

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"errors"
	"fmt"
)

// ErrUnseal is returned when sealed bytes do not open: wrong secret, wrong
// user or server, or tampered bytes. It says nothing more, on purpose.
var ErrUnseal = errors.New("mcp: sealed key does not open")

// Sealer encrypts users' MCP API keys at rest with AES-256-GCM. The user and
// server ids are associated data, so a sealed key copied to another user's
// or server's item does not open there.
type Sealer struct{ aead cipher.AEAD }

// NewSealer takes the 32-byte secret (Secrets Manager in AWS, DATA_DIR/secrets locally).
func NewSealer(key []byte) (*Sealer, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("mcp sealer: key is %d bytes, want 32", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("mcp sealer: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("mcp sealer: %w", err)
	}
	return &Sealer{aead: aead}, nil
}

// Seal returns nonce || ciphertext. A fresh random nonce per call, so two
// seals of the same key differ.
func (s *Sealer) Seal(plain, userID, serverID string) ([]byte, error) {
	nonce := make([]byte, s.aead.NonceSize(), s.aead.NonceSize()+len(plain)+s.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return nil, fmt.Errorf("mcp seal: %w", err)
	}
	return s.aead.Seal(nonce, nonce, []byte(plain), associated(userID, serverID)), nil
}

// Open reverses Seal for the same user and server, or fails with ErrUnseal.
func (s *Sealer) Open(sealed []byte, userID, serverID string) (string, error) {
	n := s.aead.NonceSize()
	if len(sealed) < n+s.aead.Overhead() {
		return "", ErrUnseal
	}
	plain, err := s.aead.Open(nil, sealed[:n], sealed[n:], associated(userID, serverID))
	if err != nil {
		return "", ErrUnseal
	}
	return string(plain), nil
}

func associated(userID, serverID string) []byte {
	return []byte(userID + "\x00" + serverID)
}

// Last4 is the most of a key ever shown: its last 4 characters, and only for
// keys of at least 8, so short keys reveal nothing.
func Last4(key string) string {
	r := []rune(key)
	if len(r) < 8 {
		return ""
	}
	return string(r[len(r)-4:])
}
