// Package localmcptest shares the MCP reference server, the MCP SDK's
// OAuth example server and the MCP App example among a test binary's
// tests: started once (the reference server once per mode) on first use,
// stopped by Stop (call it from TestMain). Calls do not change the servers' state that tests rely on
// (each OAuth client registers its own client id), so parallel tests share
// them.
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

var oauthExample = struct {
	mu      sync.Mutex
	started *localmcp.OAuthServer
	err     error
}{}

// OAuthExample answers the real OAuth example server (the MCP TypeScript
// SDK's simpleStreamableHttp.js --oauth --oauth-strict and its demo
// authorization server), failing t when it cannot start (a failed start is
// not tried again).
func OAuthExample(t testing.TB) *localmcp.OAuthServer {
	t.Helper()
	oauthExample.mu.Lock()
	defer oauthExample.mu.Unlock()
	if oauthExample.started != nil {
		return oauthExample.started
	}
	if oauthExample.err != nil {
		t.Fatalf("OAuth example server: %v", oauthExample.err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	s, err := localmcp.StartOAuthExample(ctx)
	if err != nil {
		oauthExample.err = err
		t.Fatalf("OAuth example server: %v", err)
	}
	oauthExample.started = s
	return s
}

var appExample = struct {
	mu      sync.Mutex
	started *localmcp.Server
	err     error
}{}

// AppExample answers the MCP endpoint of the real MCP App example server
// (@modelcontextprotocol/server-basic-react: tool get-time with the view
// ui://get-time/mcp-app.html), failing t when it cannot start (a failed
// start is not tried again).
func AppExample(t testing.TB) string {
	t.Helper()
	appExample.mu.Lock()
	defer appExample.mu.Unlock()
	if appExample.started != nil {
		return appExample.started.Endpoint
	}
	if appExample.err != nil {
		t.Fatalf("MCP App example server: %v", appExample.err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	s, err := localmcp.StartAppExample(ctx)
	if err != nil {
		appExample.err = err
		t.Fatalf("MCP App example server: %v", err)
	}
	appExample.started = s
	return s.Endpoint
}

// Stop ends every server started.
func Stop() {
	references.mu.Lock()
	for mode, s := range references.started {
		s.Stop()
		delete(references.started, mode)
	}
	references.mu.Unlock()
	oauthExample.mu.Lock()
	oauthExample.started.Stop()
	oauthExample.started = nil
	oauthExample.mu.Unlock()
	appExample.mu.Lock()
	appExample.started.Stop()
	appExample.started = nil
	appExample.mu.Unlock()
}
