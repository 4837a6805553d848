package chatapi

import (
	"sync"
	"time"
)

// knownTTL is how long a conversation this process saw claimed by a user
// lets that user's next message in it open its stream before its own claim
// and messages are written.
const knownTTL = 5 * time.Minute

// maxKnown bounds the remembered conversations (all are forgotten past it).
const maxKnown = 10_000

// knownConversations remembers which user's conversations this process
// recently stored a message in: a next message there is sure to be the
// user's, so its first frame need not wait for its writes (its claim still
// runs, and a failed one stops the reply and removes what was written).
type knownConversations struct {
	mu sync.Mutex
	at map[string]time.Time
}

func newKnownConversations() *knownConversations {
	return &knownConversations{at: map[string]time.Time{}}
}

func knownKey(uid, cid string) string { return uid + "\x00" + cid }

// has reports whether uid's conversation cid was claimed within knownTTL.
func (k *knownConversations) has(uid, cid string, now time.Time) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	at, ok := k.at[knownKey(uid, cid)]
	return ok && now.Sub(at) < knownTTL && !now.Before(at)
}

// claimed records that uid's conversation cid took a message at now.
func (k *knownConversations) claimed(uid, cid string, now time.Time) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.at) >= maxKnown {
		clear(k.at)
	}
	k.at[knownKey(uid, cid)] = now
}

// forget drops uid's conversation cid (its claim failed: deleted).
func (k *knownConversations) forget(uid, cid string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	delete(k.at, knownKey(uid, cid))
}
