package mcp_test

import (
	"context"
	"errors"
	"net"
	"net/url"
	"strconv"
	"testing"
	"time"

	"aiwork/shared/local/localmcp"
	"aiwork/shared/mcp"
)

// loopback is the policy every test against a local server uses.
var loopback = mcp.Policy{AllowLoopback: true}

// startEverything runs the reference server in mode ("streamableHttp" or
// "sse") through the same launcher as make run, and answers its base URL.
// It is stopped when the test ends.
func startEverything(t *testing.T, mode string) string {
	t.Helper()
	srv, err := localmcp.Start(context.Background(), mode)
	if err != nil {
		t.Fatalf("reference server %s: %v", mode, err)
	}
	t.Cleanup(srv.Stop)
	u, err := url.Parse(srv.Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	return u.Scheme + "://" + u.Host
}

// freePort answers a loopback port that was free a moment ago.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// deadPort answers a loopback URL nobody listens on.
func deadPort(t *testing.T) string {
	t.Helper()
	return "http://127.0.0.1:" + freePort(t) + "/mcp"
}

func timeout(t *testing.T, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// wantKind fails unless err is an *mcp.Error of kind want.
func wantKind(t *testing.T, err error, want mcp.Kind) *mcp.Error {
	t.Helper()
	var e *mcp.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v (%T), want *mcp.Error of kind %s", err, err, want)
	}
	if e.Kind != want {
		t.Fatalf("kind = %s (%q), want %s", e.Kind, e.Detail, want)
	}
	if e.Detail == "" {
		t.Fatalf("kind %s has no detail", e.Kind)
	}
	return e
}
