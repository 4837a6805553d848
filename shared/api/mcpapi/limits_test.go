package mcpapi_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"aiwork/shared/api/apitest"
	"aiwork/shared/domain"
	"aiwork/shared/local/localmcp"
)

// TestConnectConcurrent: 20 users connect to the reference server at once
// and all get their own connection.
func TestConnectConcurrent(t *testing.T) {
	t.Parallel()
	o := local()
	o.HostConnectsPerMinute = 100
	s := newStack(t, o)
	s.addServer(domain.MCPServer{ID: "everything", EndpointURL: referenceServer(t, localmcp.ModeStreamable)})

	const n = 20
	tokens := make([]string, n)
	for i := range tokens {
		_, tokens[i] = s.user("concurrent")
	}
	answers := make([]*httptest.ResponseRecorder, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { answers[i] = s.connect(tokens[i], map[string]any{"server_id": "everything"}) })
	}
	wg.Wait()

	ids := map[string]bool{}
	for i, w := range answers {
		c := apitest.Decode[connectionView](t, w, http.StatusOK)
		if c.ServerInfo.Name != "mcp-servers/everything" || len(c.Tools) < 10 || ids[c.ConnectionID] {
			t.Errorf("connect %d: server %q, %d tools, id %q (seen before: %v)", i, c.ServerInfo.Name, len(c.Tools), c.ConnectionID, ids[c.ConnectionID])
		}
		ids[c.ConnectionID] = true
		rows := apitest.Decode[[]connectionRow](t, s.get(connectionsPath, tokens[i]), http.StatusOK)
		if len(rows) != 1 || rows[0].ConnectionID != c.ConnectionID {
			t.Errorf("user %d's connections = %+v, want just %s", i, rows, c.ConnectionID)
		}
	}
}

// TestConnectRateLimits: past the per-user or the per-host limit a connect
// is 429 with Retry-After, before anything is sent to the server; other
// users, or other hosts, are not held back.
func TestConnectRateLimits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		userLimit  int
		hostLimit  int
		sameUser   bool // every attempt by one user; else one user each
		detail     string
		otherHost  bool // after the refusal, the same server under another host name is admitted
		otherUser  bool // after the refusal, another user is admitted
		wantReject int  // the attempt (1-based) that is refused
	}{
		{"per user", 3, 100, true, "You are connecting too often. Please wait a minute and try again.", false, true, 4},
		{"per host", 100, 3, false, "Too many connections to this server right now. Please try again in a minute.", true, false, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o := local()
			o.ConnectsPerMinute, o.HostConnectsPerMinute = tt.userLimit, tt.hostLimit
			s := newStack(t, o)
			var reached requestCounter
			endpoint := sdkServer(t, 1, reached.wrap)
			s.addServer(domain.MCPServer{ID: "limited", EndpointURL: endpoint})
			_, token := s.user("limits")

			for i := 1; i < tt.wantReject; i++ {
				if !tt.sameUser {
					_, token = s.user("limits")
				}
				apitest.Decode[connectionView](t, s.connect(token, map[string]any{"server_id": "limited"}), http.StatusOK)
			}
			_, before := reached.counts()
			if before < tt.wantReject-1 {
				t.Fatalf("%d handshakes reached the server, want at least %d", before, tt.wantReject-1)
			}
			if !tt.sameUser {
				_, token = s.user("limits")
			}
			w := s.connect(token, map[string]any{"server_id": "limited"})
			e := apitest.WantError(t, w, http.StatusTooManyRequests, tt.detail)
			if e.Code != "rate_limited" {
				t.Errorf("code = %q", e.Code)
			}
			retry, err := strconv.Atoi(w.Header().Get("Retry-After"))
			if err != nil || retry < 1 || retry > 60 {
				t.Errorf("Retry-After = %q, want 1..60 seconds", w.Header().Get("Retry-After"))
			}
			if _, n := reached.counts(); n != before {
				t.Errorf("the refused connect began %d handshakes with the server", n-before)
			}

			if tt.otherUser {
				_, other := s.user("limits-other")
				apitest.Decode[connectionView](t, s.connect(other, map[string]any{"server_id": "limited"}), http.StatusOK)
			}
			if tt.otherHost {
				_, other := s.user("limits-other")
				viaName := strings.Replace(endpoint, "127.0.0.1", "localhost", 1)
				c := apitest.Decode[connectionView](t, s.connect(other, map[string]any{"server_id": "limited", "endpoint_url": viaName}), http.StatusOK)
				if c.EndpointURL != viaName {
					t.Errorf("endpoint = %q, want %q", c.EndpointURL, viaName)
				}
			}
		})
	}
}
