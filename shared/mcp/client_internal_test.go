package mcp

import (
	"net/http"
	"testing"
	"time"
)

// TestIdleConnectionsCloseBeforeNodeServersDo: Node's HTTP server closes a
// connection idle for 5 s; ours must be dropped first, or a JSON-RPC POST
// sent on it as the server closes it fails with "closed before an answer".
func TestIdleConnectionsCloseBeforeNodeServersDo(t *testing.T) {
	const nodeKeepAlive = 5 * time.Second
	for name, client := range map[string]*http.Client{
		"default limits": Policy{}.Client(),
		"custom limits":  Policy{}.ClientWithLimits(Limits{Dial: time.Second}),
	} {
		g, ok := client.Transport.(*guard)
		if !ok {
			t.Fatalf("%s: transport is %T, want the guard", name, client.Transport)
		}
		tr, ok := g.base.(*http.Transport)
		if !ok {
			t.Fatalf("%s: guarded transport is %T", name, g.base)
		}
		if tr.IdleConnTimeout <= 0 || tr.IdleConnTimeout >= nodeKeepAlive {
			t.Errorf("%s: IdleConnTimeout = %v, want above 0 and under Node's %v", name, tr.IdleConnTimeout, nodeKeepAlive)
		}
	}
}
