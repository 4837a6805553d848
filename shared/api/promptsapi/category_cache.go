package promptsapi

import (
	"context"
	"sync"
	"time"

	"aiwork/shared/store"
)

// categoryTTL is how long a process trusts the category names it read. The
// categories change only when the catalogue is seeded (a deploy, `make
// run`), and every prompt listing needs them: read once a minute rather
// than once a request (DESIGN §10: the listing within 1.5× of its Query).
const categoryTTL = time.Minute

// categoryCache holds the category names by id, read at most once per TTL.
type categoryCache struct {
	mu     sync.Mutex
	names  map[string]string
	readAt time.Time
}

// get answers the names, reading them when older than categoryTTL. The map
// is shared: callers must not change it.
func (c *categoryCache) get(ctx context.Context, st *store.Store) (map[string]string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.names != nil && time.Since(c.readAt) < categoryTTL {
		return c.names, nil
	}
	names, err := st.CategoryNames(ctx)
	if err != nil {
		return nil, err
	}
	c.names, c.readAt = names, time.Now()
	return names, nil
}
