package store

import (
	"sync"
	"time"

	"aiwork/shared/domain"
)

// A chat connection never changes once stored (there is no update, and no
// delete but its expiry), and every chat message reads one: the process
// keeps those it read until they expire, which spares each message after a
// user's first a table call (docs/benchmarks.md: CPU per relayed message).

// maxCachedChatConns bounds the cache; past it, it starts over.
const maxCachedChatConns = 10_000

type chatConnCache struct {
	mu    sync.Mutex
	items map[string]cachedChatConn
}

type cachedChatConn struct {
	conn    domain.ChatConnection
	expires time.Time
}

func chatConnCacheKey(uid, cid string) string { return uid + "\x00" + cid }

// get answers uid's connection cid when it is cached and not expired at now.
func (c *chatConnCache) get(uid, cid string, now time.Time) (domain.ChatConnection, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	it, ok := c.items[chatConnCacheKey(uid, cid)]
	if !ok || !now.Before(it.expires) {
		return domain.ChatConnection{}, false
	}
	return it.conn, true
}

// put keeps uid's connection until it expires.
func (c *chatConnCache) put(uid string, conn domain.ChatConnection, expires time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.items == nil || len(c.items) >= maxCachedChatConns {
		c.items = map[string]cachedChatConn{}
	}
	c.items[chatConnCacheKey(uid, conn.ID)] = cachedChatConn{conn: conn, expires: expires}
}
