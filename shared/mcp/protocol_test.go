package mcp_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/mcp"
)

// protocolServer stands in front of an in-process server and answers the
// JSON-RPC methods it refuses with 400, as a server of an older (or a
// newer-only) protocol does; it counts the methods asked.
type protocolServer struct {
	mu      sync.Mutex
	refuse  string // the method refused: "server/discover" or "initialize"
	methods map[string]int
}

func (p *protocolServer) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		method := rpcMethod(r)
		p.mu.Lock()
		p.methods[method]++
		refused := method != "" && method == p.refuse
		p.mu.Unlock()
		if refused {
			refuseLikeAnOlderServer(w)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// rpcMethod is the JSON-RPC method r's body asks ("" for none), the body
// left for the next handler to read.
func rpcMethod(r *http.Request) string {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	var msg struct {
		Method string `json:"method"`
	}
	_ = json.Unmarshal(body, &msg)
	return msg.Method
}

// refuseLikeAnOlderServer answers as server-everything does a method it
// does not know before initialize: 400.
func refuseLikeAnOlderServer(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write([]byte(`{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Server not initialized"},"id":null}`))
}

// asked answers how often each method was asked since the last call.
func (p *protocolServer) asked() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	m := p.methods
	p.methods = map[string]int{}
	return m
}

func (p *protocolServer) set(refuse string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refuse = refuse
}

// TestHandshakeRemembersALegacyServer: an endpoint that refused
// server/discover (the go-sdk's stateful server does, as servers before
// MCP 2026-07-28 do) is initialized at once the next time: one round trip
// less, the same result. Once that fails, it is asked server/discover
// again; a server that answers server/discover is always asked it.
func TestHandshakeRemembersALegacyServer(t *testing.T) {
	t.Parallel()
	legacyServer := &protocolServer{methods: map[string]int{}}
	modernServer := &protocolServer{methods: map[string]int{}}
	endpoints := map[*protocolServer]string{
		legacyServer: sdkServer(t, 2, nil, legacyServer.wrap),
		modernServer: statelessServer(t, modernServer.wrap),
	}
	steps := []struct {
		name        string
		server      *protocolServer
		refuse      string
		wantOK      bool
		wantVersion string
		wantAsked   map[string]int // of server/discover and initialize
	}{
		{"legacy, first", legacyServer, "", true, "2025-11-25", map[string]int{"server/discover": 1, "initialize": 1}},
		{"legacy, remembered", legacyServer, "", true, "2025-11-25", map[string]int{"initialize": 1}},
		{"initialize refused", legacyServer, "initialize", false, "", map[string]int{"initialize": 1}},
		{"asked server/discover again", legacyServer, "", true, "2025-11-25", map[string]int{"server/discover": 1, "initialize": 1}},
		{"discovering, first", modernServer, "", true, "2026-07-28", map[string]int{"server/discover": 1}},
		{"discovering, again", modernServer, "", true, "2026-07-28", map[string]int{"server/discover": 1}},
	}
	var first mcp.Result
	for i, s := range steps {
		s.server.set(s.refuse)
		res, err := mcp.Handshake(timeout(t, 10*time.Second), loopback.Client(), mcp.Target{Endpoint: endpoints[s.server]})
		asked := s.server.asked()
		got := map[string]int{}
		for _, m := range []string{"server/discover", "initialize"} {
			if asked[m] > 0 {
				got[m] = asked[m]
			}
		}
		if (err == nil) != s.wantOK || res.ProtocolVersion != s.wantVersion {
			t.Fatalf("%s: version %q, err %v; want ok=%v, version %q", s.name, res.ProtocolVersion, err, s.wantOK, s.wantVersion)
		}
		if !mapsEqual(got, s.wantAsked) {
			t.Errorf("%s: asked %v, want %v", s.name, got, s.wantAsked)
		}
		if i == 0 {
			first = res
		}
		if i == 1 && (res.ToolsHash != first.ToolsHash || res.ServerInfo != first.ServerInfo || len(res.Tools) != 2) {
			t.Errorf("%s: %+v, want what the first handshake learnt: %+v", s.name, res, first)
		}
	}
}

// statelessServer is an in-process go-sdk server with one tool that
// answers server/discover (its stateless streamable handler).
func statelessServer(t *testing.T, wrap func(http.Handler) http.Handler) string {
	t.Helper()
	s := sdk.NewServer(&sdk.Implementation{Name: "test-server", Version: "0.1.0"}, nil)
	s.AddTool(&sdk.Tool{Name: "tool-000", InputSchema: map[string]any{"type": "object"}}, okTool)
	srv := httptest.NewServer(wrap(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{Stateless: true})))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// A server that refuses server/discover with a 400 (as
// server-everything does) and then fails after initialize (its tools list
// answers 500) is reported as it is: the refused
// server/discover is no refused initialize, so no SSE attempt follows
// (before, the 400 counted as the initialize's and the handshake tried the
// SSE transport too, a GET the server never expected).
func TestRefusedDiscoverIsNoRefusedInitialize(t *testing.T) {
	t.Parallel()
	var gets, toolLists int
	var mu sync.Mutex
	endpoint := sdkServer(t, 1, nil, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			method := rpcMethod(r)
			mu.Lock()
			if r.Method == http.MethodGet {
				gets++
			}
			if method == "tools/list" {
				toolLists++
			}
			mu.Unlock()
			switch method {
			case "server/discover":
				refuseLikeAnOlderServer(w)
				return
			case "tools/list":
				http.Error(w, "tools are down", http.StatusInternalServerError)
				return
			}
			next.ServeHTTP(w, r)
		})
	})
	_, err := mcp.Handshake(timeout(t, 10*time.Second), loopback.Client(), mcp.Target{Endpoint: endpoint})
	if err == nil {
		t.Fatal("a failed tools list: handshake succeeded")
	}
	mu.Lock()
	defer mu.Unlock()
	if toolLists == 0 || gets != 0 {
		t.Errorf("tools/list asked %d times, %d GETs (an SSE attempt); want the tools list asked and no GET (err %v)", toolLists, gets, err)
	}
}
