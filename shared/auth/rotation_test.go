package auth_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"aiwork/shared/auth"
)

// rotatingSecret stands in for the JWT secret's AWSCURRENT and AWSPREVIOUS
// versions: rotate() is what Secrets Manager's rotation does to them.
type rotatingSecret struct {
	mu       sync.Mutex
	versions [][]byte // oldest first; the last is AWSCURRENT
	reads    int
}

func newRotatingSecret(first string) *rotatingSecret {
	return &rotatingSecret{versions: [][]byte{[]byte(first)}}
}

func (r *rotatingSecret) rotate(next string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.versions = append(r.versions, []byte(next))
}

func (r *rotatingSecret) source(context.Context) (current, previous []byte, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reads++
	n := len(r.versions)
	if n > 1 {
		previous = r.versions[n-2]
	}
	return r.versions[n-1], previous, nil
}

func (r *rotatingSecret) current() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.versions[len(r.versions)-1]
}

// tokensAt is a process started now: it holds the current key, and reads
// the keys again through the secret when it must.
func (r *rotatingSecret) tokensAt(clock func() time.Time) *auth.Tokens {
	return auth.NewTokens(r.current(), time.Hour).WithKeySource(r.source).WithClock(clock)
}

const (
	key1 = "first-key-0123456789abcdef0123456789"
	key2 = "second-key-0123456789abcdef012345678"
	key3 = "third-key-0123456789abcdef0123456789"
)

func TestTokensCarryTheKeyID(t *testing.T) {
	t.Parallel()
	raw, err := auth.NewTokens([]byte(key1), time.Hour).Issue("u1")
	if err != nil {
		t.Fatal(err)
	}
	tok, _, err := jwt.NewParser().ParseUnverified(raw, jwt.MapClaims{})
	if err != nil {
		t.Fatal(err)
	}
	if kid, _ := tok.Header["kid"].(string); kid != auth.KeyID([]byte(key1)) || len(kid) != 16 {
		t.Errorf("kid = %q, want KeyID of the key (16 hex digits)", kid)
	}
	if strings.Contains(raw, key1) || auth.KeyID([]byte(key1)) == auth.KeyID([]byte(key2)) {
		t.Error("the key id must tell keys apart without showing them")
	}
}

// Tokens signed with the current or the previous key verify; a key two
// rotations old does not. A process started before a rotation accepts
// tokens signed with the new key (it reads the keys again), and signs with
// the new key from then on.
func TestTwoKeyVerificationAcrossRotations(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	secret := newRotatingSecret(key1)
	old := secret.tokensAt(clock) // running since before any rotation
	signedWith1, _ := old.Issue("u1")

	secret.rotate(key2)
	fresh := secret.tokensAt(clock) // started after the first rotation
	signedWith2, _ := fresh.Issue("u2")
	if sub, err := fresh.Verify(signedWith1); err != nil || sub != "u1" {
		t.Errorf("previous key's token on a fresh process: %q, %v; want u1", sub, err)
	}
	if sub, err := fresh.Verify(signedWith2); err != nil || sub != "u2" {
		t.Errorf("current key's token: %q, %v; want u2", sub, err)
	}
	if sub, err := old.Verify(signedWith2); err != nil || sub != "u2" {
		t.Errorf("new key's token on a process from before the rotation: %q, %v; want u2", sub, err)
	}
	if raw, _ := old.Issue("u3"); kidOf(t, raw) != auth.KeyID([]byte(key2)) {
		t.Error("after learning of the rotation the old process still signs with the old key")
	}

	secret.rotate(key3)
	now = now.Add(time.Minute)
	third := secret.tokensAt(clock)
	if _, err := third.Verify(signedWith1); err == nil {
		t.Error("a token signed with a key two rotations old verified")
	}
	if sub, err := third.Verify(signedWith2); err != nil || sub != "u2" {
		t.Errorf("previous key's token after the second rotation: %q, %v; want u2", sub, err)
	}
	// The old process, which learnt key2, reads again for key3's tokens and
	// then refuses key1's as the others do.
	signedWith3, _ := third.Issue("u4")
	if sub, err := old.Verify(signedWith3); err != nil || sub != "u4" {
		t.Errorf("key3's token on the old process: %q, %v; want u4", sub, err)
	}
	if _, err := old.Verify(signedWith1); err == nil {
		t.Error("the old process still accepts a key two rotations old")
	}
}

// A forged kid does not make a process read the secret on every request:
// at most once per 30 seconds.
func TestUnknownKeyIDReloadsAtMostEvery30s(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	secret := newRotatingSecret(key1)
	tk := secret.tokensAt(func() time.Time { return now })
	forged := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.RegisteredClaims{Subject: "u1", ExpiresAt: jwt.NewNumericDate(now.Add(time.Hour))})
	forged.Header["kid"] = "0000000000000000"
	raw, _ := forged.SignedString([]byte("attacker-key-0123456789abcdef012345"))
	for range 20 {
		if _, err := tk.Verify(raw); err == nil {
			t.Fatal("a token with a forged kid verified")
		}
	}
	if secret.reads != 1 {
		t.Errorf("%d reads of the secret for 20 forged tokens within 30 s, want 1", secret.reads)
	}
	now = now.Add(31 * time.Second)
	_, _ = tk.Verify(raw)
	if secret.reads != 2 {
		t.Errorf("%d reads after 30 s, want 2", secret.reads)
	}
}

// Tokens from before key ids (no kid header) still verify with the key.
func TestTokenWithoutKeyIDVerifies(t *testing.T) {
	t.Parallel()
	legacy := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.RegisteredClaims{Subject: "u1", ExpiresAt: jwt.NewNumericDate(time.Now().Add(time.Hour))})
	raw, _ := legacy.SignedString([]byte(key1))
	if sub, err := auth.NewTokens([]byte(key1), time.Hour).Verify(raw); err != nil || sub != "u1" {
		t.Errorf("token without kid: %q, %v; want u1", sub, err)
	}
}

func kidOf(t *testing.T, raw string) string {
	t.Helper()
	tok, _, err := jwt.NewParser().ParseUnverified(raw, jwt.MapClaims{})
	if err != nil {
		t.Fatal(err)
	}
	kid, _ := tok.Header["kid"].(string)
	return kid
}

// After a leak the key is rotated twice at once. A process that read its
// keys over 10 minutes ago reads them again in the background on its next
// token check, so the leaked key stops verifying there too, even though no
// token signed with a newer key ever reached it.
func TestOldKeysAreReadAgainInTheBackground(t *testing.T) {
	t.Parallel()
	now := time.Now()
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	secret := newRotatingSecret(key1)
	warm := secret.tokensAt(clock)
	leaked, _ := warm.Issue("mallory")
	secret.rotate(key2)
	secret.rotate(key3)
	if _, err := warm.Verify(leaked); err != nil {
		t.Fatalf("within 10 minutes the process still trusts what it read: %v", err)
	}
	mu.Lock()
	now = now.Add(11 * time.Minute)
	mu.Unlock()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := warm.Verify(leaked); err != nil {
			break // the background read replaced the keys
		}
		if time.Now().After(deadline) {
			t.Fatal("a key two rotations old still verifies 30 s after the keys went stale")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if raw, _ := warm.Issue("u1"); kidOf(t, raw) != auth.KeyID([]byte(key3)) {
		t.Error("after the background read the process does not sign with the current key")
	}
}
