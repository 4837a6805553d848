package sealing_test

import (
	"bytes"
	"crypto/rand"
	"errors"
	"testing"

	"aiwork/shared/sealing"
)

func newSealer(t *testing.T) *sealing.Sealer {
	t.Helper()
	key := make([]byte, 32)
	rand.Read(key)
	s, err := sealing.NewSealer(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSealer(t *testing.T) {
	t.Parallel()
	s := newSealer(t)
	const secret = "sk-live-abcdefghijklmnop"
	sealed, err := s.Seal(secret, "u1", "srv1")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(sealed, []byte(secret)) || bytes.Contains(sealed, []byte("mnop")) {
		t.Fatal("sealed bytes contain the key in clear")
	}
	if got, err := s.Open(sealed, "u1", "srv1"); err != nil || got != secret {
		t.Fatalf("Open = %q, %v; want the key", got, err)
	}
	again, _ := s.Seal(secret, "u1", "srv1")
	if bytes.Equal(again, sealed) {
		t.Error("two seals of the same key are equal")
	}
	tampered := bytes.Clone(sealed)
	tampered[len(tampered)-1] ^= 1
	flippedNonce := bytes.Clone(sealed)
	flippedNonce[0] ^= 1
	tests := []struct {
		name           string
		sealer         *sealing.Sealer
		sealed         []byte
		user, serverID string
	}{
		{"other user", s, sealed, "u2", "srv1"},
		{"other server", s, sealed, "u1", "srv2"},
		{"ids shifted across the separator", s, sealed, "u1\x00srv1", ""},
		{"tampered ciphertext", s, tampered, "u1", "srv1"},
		{"tampered nonce", s, flippedNonce, "u1", "srv1"},
		{"truncated", s, sealed[:10], "u1", "srv1"},
		{"empty", s, nil, "u1", "srv1"},
		{"other secret", newSealer(t), sealed, "u1", "srv1"},
	}
	for _, tc := range tests {
		got, err := tc.sealer.Open(tc.sealed, tc.user, tc.serverID)
		if !errors.Is(err, sealing.ErrUnseal) || got != "" {
			t.Errorf("%s: Open = %q, %v; want ErrUnseal", tc.name, got, err)
		}
	}
}

func TestNewSealerKeySize(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 16, 31, 33} {
		if _, err := sealing.NewSealer(make([]byte, n)); err == nil {
			t.Errorf("NewSealer(%d bytes) succeeded, want an error", n)
		}
	}
}
