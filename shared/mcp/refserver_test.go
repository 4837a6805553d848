package mcp_test

import (
	"regexp"
	"slices"
	"sync"
	"testing"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/mcp"
)

// TestHandshakeReference connects to the real reference server in both
// transports, and through the streamable → SSE fallback.
func TestHandshakeReference(t *testing.T) {
	t.Parallel()
	streamable := startEverything(t, "streamableHttp")
	sse := startEverything(t, "sse")
	tests := []struct {
		name          string
		target        mcp.Target
		wantTransport string
	}{
		{"streamable", mcp.Target{Endpoint: streamable + "/mcp", Transport: domain.TransportStreamableHTTP}, domain.TransportStreamableHTTP},
		{"sse", mcp.Target{Endpoint: sse + "/sse", Transport: domain.TransportSSE}, domain.TransportSSE},
		{"streamable falls back to sse", mcp.Target{Endpoint: sse + "/sse", Transport: domain.TransportStreamableHTTP}, domain.TransportSSE},
		{"empty transport means streamable", mcp.Target{Endpoint: streamable + "/mcp"}, domain.TransportStreamableHTTP},
	}
	hashes := map[string]bool{}
	var mu sync.Mutex
	t.Run("cases", func(t *testing.T) {
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				res, err := mcp.Handshake(timeout(t, 15*time.Second), loopback.Client(), tc.target)
				if err != nil {
					t.Fatalf("handshake: %v", err)
				}
				checkEverything(t, res)
				t.Logf("protocol %s, %d tools, features %v, latency %v", res.ProtocolVersion, len(res.Tools), res.Features, res.Latency)
				if res.Transport != tc.wantTransport {
					t.Errorf("transport = %q, want %q", res.Transport, tc.wantTransport)
				}
				mu.Lock()
				hashes[res.ToolsHash] = true
				mu.Unlock()
			})
		}
	})
	// The same server's tools hash the same whatever the transport.
	if len(hashes) != 1 {
		t.Errorf("tools hashes = %v, want one value across transports", hashes)
	}
}

func checkEverything(t *testing.T, res mcp.Result) {
	t.Helper()
	if got, want := res.ServerInfo.Name, "mcp-servers/everything"; got != want {
		t.Errorf("server name = %q, want %q", got, want)
	}
	if res.ProtocolVersion == "" {
		t.Error("protocol version is empty")
	}
	for _, f := range []string{"tools", "prompts", "resources"} {
		if !slices.Contains(res.Features, f) {
			t.Errorf("features = %v, missing %q", res.Features, f)
		}
	}
	if len(res.Tools) < 10 {
		t.Errorf("tools = %d, want at least 10", len(res.Tools))
	}
	// The tools that ask their user are listed only to a client that
	// declares it can answer (elicitation): a handshake declares it, as
	// the chat's sessions do, so they are there from the connect on.
	for _, name := range []string{"echo", "get-sum", "trigger-elicitation-request", "trigger-url-elicitation"} {
		if !slices.ContainsFunc(res.Tools, func(tool domain.MCPTool) bool { return tool.Name == name }) {
			t.Errorf("tool %q missing", name)
		}
	}
	if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(res.ToolsHash) {
		t.Errorf("tools hash = %q, want hex sha256", res.ToolsHash)
	}
	if res.Latency <= 0 {
		t.Errorf("latency = %v, want > 0", res.Latency)
	}
}

// TestHandshakeReferenceConcurrent runs 20 handshakes at once through one
// client against one reference server.
func TestHandshakeReferenceConcurrent(t *testing.T) {
	t.Parallel()
	base := startEverything(t, "streamableHttp")
	hc := loopback.Client()
	errs := make([]error, 20)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Go(func() {
			var res mcp.Result
			res, errs[i] = mcp.Handshake(timeout(t, 30*time.Second), hc, mcp.Target{Endpoint: base + "/mcp"})
			if errs[i] == nil && res.ServerInfo.Name != "mcp-servers/everything" {
				t.Errorf("handshake %d: server name %q", i, res.ServerInfo.Name)
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("handshake %d: %v", i, err)
		}
	}
}
