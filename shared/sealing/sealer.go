// Package sealing encrypts secrets the product keeps at rest (users' MCP
// server keys and sign-in tokens, an operator's OAuth client secret) with
// AES-256-GCM under MCP_KEY_ENCRYPTION_KEY. It links nothing but the
// standard library, so the admin function seals an operator's secret
// without the MCP SDK.
package sealing

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"errors"
	"fmt"
)

// ErrUnseal is returned when sealed bytes do not open: wrong secret, wrong
// owner or subject, or tampered bytes. It says nothing more, on purpose.
var ErrUnseal = errors.New("sealing: sealed bytes do not open")

// Sealer encrypts with AES-256-GCM. The owner and subject (a user and a
// server, or the operator and a registry entry) are associated data, so
// sealed bytes copied to another owner's or subject's item do not open
// there.
type Sealer struct{ aead cipher.AEAD }

// NewSealer takes the 32-byte secret (Secrets Manager in AWS, DATA_DIR/secrets locally).
func NewSealer(key []byte) (*Sealer, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("sealer: key is %d bytes, want 32", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("sealer: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("sealer: %w", err)
	}
	return &Sealer{aead: aead}, nil
}

// Seal returns nonce || ciphertext. A fresh random nonce per call, so two
// seals of the same secret differ.
func (s *Sealer) Seal(plain, owner, subject string) ([]byte, error) {
	nonce := make([]byte, s.aead.NonceSize(), s.aead.NonceSize()+len(plain)+s.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	return s.aead.Seal(nonce, nonce, []byte(plain), associated(owner, subject)), nil
}

// Open reverses Seal for the same owner and subject, or fails with ErrUnseal.
func (s *Sealer) Open(sealed []byte, owner, subject string) (string, error) {
	n := s.aead.NonceSize()
	if len(sealed) < n+s.aead.Overhead() {
		return "", ErrUnseal
	}
	plain, err := s.aead.Open(nil, sealed[:n], sealed[n:], associated(owner, subject))
	if err != nil {
		return "", ErrUnseal
	}
	return string(plain), nil
}

func associated(owner, subject string) []byte {
	return []byte(owner + "\x00" + subject)
}
