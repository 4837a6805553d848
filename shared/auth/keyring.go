package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"sync"
	"sync/atomic"
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

// maxKeyAge is how long a process trusts the keys it read: older, the next
// token check reads them again in the background, so a key retired by two
// quick rotations (a leak) stops verifying everywhere within minutes, even
// on instances that never meet a token signed with the new key.
const maxKeyAge = 10 * time.Minute

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
	lastReload time.Time // last reload for an unknown kid (rate limit)
	loadedAt   time.Time // when the keys were last read
	refreshing atomic.Bool
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

func newKeyring(current []byte, source KeySource, now time.Time) *keyring {
	return &keyring{current: named(current), source: source, loadedAt: now}
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
	k.refreshIfOld(now)
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

// reload reads the keys again for a kid the process does not hold, at
// most once per reloadEvery, and reports whether they were read.
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
	return k.load(now)
}

// refreshIfOld starts one background read of the keys when they are older
// than maxKeyAge; the check that triggered it does not wait.
func (k *keyring) refreshIfOld(now time.Time) {
	if k.source == nil {
		return
	}
	k.mu.RLock()
	old := now.Sub(k.loadedAt) > maxKeyAge
	k.mu.RUnlock()
	if !old || !k.refreshing.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer k.refreshing.Store(false)
		k.reloadMu.Lock()
		defer k.reloadMu.Unlock()
		k.load(now)
	}()
}

// load reads the keys through the source; the keys held stay on failure.
func (k *keyring) load(now time.Time) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	current, previous, err := k.source(ctx)
	if err != nil || len(current) == 0 {
		slog.Error("reload the token signing keys", "err", err)
		return false
	}
	k.mu.Lock()
	k.current, k.previous, k.loadedAt = named(current), named(previous), now
	k.mu.Unlock()
	return true
}
