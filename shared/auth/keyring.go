package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"sync"
	"time"
)

// KeySource answers the signing key now in use and the one before it (nil
// when there is none): in Lambda, the JWT secret's AWSCURRENT and
// AWSPREVIOUS versions in Secrets Manager, which rotates it.
type KeySource func(ctx context.Context) (current, previous []byte, err error)

// KeyID names a key in a token's kid header: the first 8 bytes of the
// key's SHA-256, which tells keys apart without revealing them.
func KeyID(key []byte) string {
	sum := sha256.Sum256(key)
	return hex.EncodeToString(sum[:8])
}

// reloadEvery bounds how often tokens with an unknown kid may make a
// process read the keys again (a rotation seen first in a token signed by
// a fresher instance; also forged kids, which must not flood Secrets
// Manager).
const reloadEvery = 30 * time.Second

// keyring holds the signing key and the one before it. A rotation signs
// nobody out: tokens signed with either key verify, and a process that
// meets a token with a kid it does not know reads the keys again, so an
// instance started before the rotation learns the new key from the first
// token signed with it. A key two rotations old is gone from both slots.
type keyring struct {
	mu       sync.RWMutex
	current  namedKey
	previous namedKey // zero when there is none

	source     KeySource
	reloadMu   sync.Mutex
	lastReload time.Time
}

type namedKey struct {
	id  string
	key []byte
}

func named(key []byte) namedKey {
	if len(key) == 0 {
		return namedKey{}
	}
	return namedKey{id: KeyID(key), key: key}
}

func newKeyring(current []byte, source KeySource) *keyring {
	return &keyring{current: named(current), source: source}
}

// signing is the key new tokens are signed with.
func (k *keyring) signing() namedKey {
	k.mu.RLock()
	defer k.mu.RUnlock()
	return k.current
}

// verifying answers the keys a token with this kid may be checked with:
// the named one, or both for a token from before key ids (no kid).
func (k *keyring) verifying(kid string, now time.Time) [][]byte {
	if keys := k.lookup(kid); keys != nil {
		return keys
	}
	if k.reload(now) {
		return k.lookup(kid)
	}
	return nil
}

func (k *keyring) lookup(kid string) [][]byte {
	k.mu.RLock()
	defer k.mu.RUnlock()
	switch {
	case kid == "" && k.previous.key != nil:
		return [][]byte{k.current.key, k.previous.key}
	case kid == "" || kid == k.current.id:
		return [][]byte{k.current.key}
	case kid == k.previous.id && k.previous.key != nil:
		return [][]byte{k.previous.key}
	}
	return nil
}

// reload reads the keys again, at most once per reloadEvery, and reports
// whether they were read.
func (k *keyring) reload(now time.Time) bool {
	if k.source == nil {
		return false
	}
	k.reloadMu.Lock()
	defer k.reloadMu.Unlock()
	if !k.lastReload.IsZero() && now.Sub(k.lastReload) < reloadEvery {
		return false
	}
	k.lastReload = now
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	current, previous, err := k.source(ctx)
	if err != nil || len(current) == 0 {
		slog.Error("reload the token signing keys", "err", err)
		return false
	}
	k.mu.Lock()
	k.current, k.previous = named(current), named(previous)
	k.mu.Unlock()
	return true
}
