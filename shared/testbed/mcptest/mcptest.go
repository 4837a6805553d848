// Package mcptest serves MCP servers (or anything a chat session talks to)
// in tests.
package mcptest

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// Serve starts h on a loopback test server that is closed at the test's
// end, its client connections first: a chat session keeps the server's
// standalone SSE stream open (a server may ask its user something there),
// and httptest.Server.Close would wait for that request forever.
func Serve(t testing.TB, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(func() { Close(srv) })
	return srv
}

// Close closes srv now, its client connections first (see Serve).
func Close(srv *httptest.Server) {
	srv.CloseClientConnections()
	srv.Close()
}
