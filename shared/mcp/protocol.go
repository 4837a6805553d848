package mcp

import (
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK opens a session with server/discover (MCP 2026-07-28); a server
// older than that refuses it, and the SDK falls back to initialize at
// 2025-11-25: one refused round trip on every session with such a server,
// today most of them. legacy remembers the endpoints that needed the
// fallback, and their next session starts with that same initialize
// (ClientSessionOptions.ProtocolVersion), skipping the refused request.
// A session that then fails to open forgets its endpoint (the server may
// have moved on), so the next one asks server/discover again.
const (
	discoverProtocol = "2026-07-28" // the SDK's first version with server/discover
	fallbackProtocol = "2025-11-25" // what the SDK's fallback initializes with
	// maxLegacy bounds the memory: users name endpoints of their own.
	maxLegacy = 4096
)

var legacy = &legacyEndpoints{seen: map[string]bool{}}

type legacyEndpoints struct {
	mu   sync.Mutex
	seen map[string]bool // transport + " " + endpoint
}

// options are the session options for a session with key: initialize at
// once for an endpoint known to need it, else the SDK's default (nil).
func (l *legacyEndpoints) options(key string) *mcp.ClientSessionOptions {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.seen[key] {
		return nil
	}
	return &mcp.ClientSessionOptions{ProtocolVersion: fallbackProtocol}
}

// learn records how the session with key opened with opts: what the
// server answered, nil when the session did not open.
func (l *legacyEndpoints) learn(key string, opts *mcp.ClientSessionOptions, init *mcp.InitializeResult) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case init == nil && opts != nil:
		delete(l.seen, key)
	case init != nil && opts == nil && init.ProtocolVersion < discoverProtocol && len(l.seen) < maxLegacy:
		l.seen[key] = true
	}
}
