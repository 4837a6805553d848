package mcpapi

import "sync"

// hostGuesses remembers the endpoint host of each registry entry this
// process has read, so that a connect can count its attempt against the
// host beside the entry read instead of after it (admit). It is only a
// guess: admit compares it with the entry it reads and counts again when
// the entry has moved. Only existing entries are remembered, so it grows
// no larger than the registry.
type hostGuesses struct{ byServer sync.Map }

func (h *hostGuesses) guess(serverID string) (string, bool) {
	host, ok := h.byServer.Load(serverID)
	if !ok {
		return "", false
	}
	return host.(string), true
}

func (h *hostGuesses) remember(serverID, host string) { h.byServer.Store(serverID, host) }
