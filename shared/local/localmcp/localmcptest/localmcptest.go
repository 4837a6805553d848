// Package localmcptest shares the MCP reference server among a test
// binary's tests: started once per mode on first use, stopped by Stop
// (call it from TestMain). Calls do not change the server's state that
// tests rely on, so parallel tests share it.
package localmcptest

import (
	"context"
	"sync"
	"testing"
	"time"

	"aiwork/shared/local/localmcp"
)

var references = struct {
	mu      sync.Mutex
	started map[string]*localmcp.Server
	errs    map[string]error
}{started: map[string]*localmcp.Server{}, errs: map[string]error{}}

// Reference answers the MCP endpoint of the real reference server
// (@modelcontextprotocol/server-everything) running in mode, failing t
// when it cannot start (a failed start is not tried again).
func Reference(t testing.TB, mode string) string {
	t.Helper()
	references.mu.Lock()
	defer references.mu.Unlock()
	if s, ok := references.started[mode]; ok {
		return s.Endpoint
	}
	if err := references.errs[mode]; err != nil {
		t.Fatalf("reference server (%s): %v", mode, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	s, err := localmcp.Start(ctx, mode)
	if err != nil {
		references.errs[mode] = err
		t.Fatalf("reference server (%s): %v", mode, err)
	}
	references.started[mode] = s
	return s.Endpoint
}

// Stop ends every reference server started.
func Stop() {
	references.mu.Lock()
	defer references.mu.Unlock()
	for mode, s := range references.started {
		s.Stop()
		delete(references.started, mode)
	}
}
