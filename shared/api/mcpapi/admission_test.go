package mcpapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"aiwork/shared/api/apitest"
	"aiwork/shared/api/mcpapi"
	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/routes"
	"aiwork/shared/store/storetest"
)

const (
	userLimitDetail = "You are connecting too often. Please wait a minute and try again."
	hostLimitDetail = "Too many connections to this server right now. Please try again in a minute."
)

// newSessionStack is newStack with every token's session checked, as
// deployed (the connect's checks run beside that lookup).
func newSessionStack(t *testing.T, o mcpapi.Options) *stack {
	t.Helper()
	st := storetest.New(t)
	tokens := auth.NewTokens(secret, time.Hour).WithSessions(st)
	h, err := routes.Mount(map[string]http.Handler{"mcp": mcpapi.New(st, tokens, nil, o).Handler()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &stack{t: t, h: h, st: st, tokens: tokens}
}

// TestRefusedConnectsCountNothing: the checks of a connect run at once with
// its counts, yet an attempt refused for its session, its entry, its key or
// its endpoint uses up neither the caller's limit nor the host's, and
// reaches no server: afterwards the caller still has all their connects
// and the host all of its.
func TestRefusedConnectsCountNothing(t *testing.T) {
	t.Parallel()
	const userLimit, hostLimit = 2, 3
	tests := []struct {
		name   string
		refuse func(s *stack, uid, token string) *httptest.ResponseRecorder
		status int
	}{
		{"ended session", func(s *stack, uid, token string) *httptest.ResponseRecorder {
			_, err := s.st.EndSessions(context.Background(), uid)
			storetest.Must(t, err, "logout")
			return s.connect(token, map[string]any{"server_id": "limited"})
		}, http.StatusUnauthorized},
		{"unknown entry", func(s *stack, _, token string) *httptest.ResponseRecorder {
			return s.connect(token, map[string]any{"server_id": "nowhere"})
		}, http.StatusNotFound},
		{"inactive entry", func(s *stack, _, token string) *httptest.ResponseRecorder {
			return s.connect(token, map[string]any{"server_id": "delisted"})
		}, http.StatusConflict},
		{"key required, none given", func(s *stack, _, token string) *httptest.ResponseRecorder {
			return s.connect(token, map[string]any{"server_id": "keyed"})
		}, http.StatusBadRequest},
		{"endpoint refused", func(s *stack, _, token string) *httptest.ResponseRecorder {
			return s.connect(token, map[string]any{"server_id": "limited", "endpoint_url": "http://10.0.0.1/mcp"})
		}, http.StatusBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o := local()
			o.ConnectsPerMinute, o.HostConnectsPerMinute = userLimit, hostLimit
			s := newSessionStack(t, o)
			var reached requestCounter
			endpoint := sdkServer(t, 1, reached.wrap)
			s.addServer(domain.MCPServer{ID: "limited", EndpointURL: endpoint})
			s.addServer(domain.MCPServer{ID: "keyed", EndpointURL: endpoint, APIKeyRequired: true})
			s.addServer(domain.MCPServer{ID: "delisted", EndpointURL: endpoint})
			storetest.Must(t, s.st.SetMCPServerActive(context.Background(), "delisted", false), "delist")
			// The entries' hosts are known to the process, as after earlier connects.
			_, warm := s.user("warm")
			apitest.Decode[connectionView](t, s.connect(warm, map[string]any{"server_id": "limited"}), http.StatusOK)

			uid, token := s.user("refused")
			_, before := reached.counts()
			for i := range 3 {
				if w := tt.refuse(s, uid, token); w.Code != tt.status {
					t.Fatalf("refused attempt %d: status %d, want %d: %s", i+1, w.Code, tt.status, w.Body)
				}
			}
			if _, n := reached.counts(); n != before {
				t.Errorf("refused attempts began %d handshakes", n-before)
			}

			token = apitest.Session(t, s.st, s.tokens, uid) // a live session of the same user
			for range userLimit {
				apitest.Decode[connectionView](t, s.connect(token, map[string]any{"server_id": "limited"}), http.StatusOK)
			}
			apitest.WantError(t, s.connect(token, map[string]any{"server_id": "limited"}), http.StatusTooManyRequests, userLimitDetail)
			_, other := s.user("other")
			apitest.WantError(t, s.connect(other, map[string]any{"server_id": "limited"}), http.StatusTooManyRequests, hostLimitDetail)
		})
	}
}

// TestPastUserLimitLeavesHostCount: the caller's and the host's counts are
// taken at once, and a caller past their limit gives the host's back, so
// retrying does not use up the server for everyone.
func TestPastUserLimitLeavesHostCount(t *testing.T) {
	t.Parallel()
	o := local()
	o.ConnectsPerMinute, o.HostConnectsPerMinute = 1, 3
	s := newSessionStack(t, o)
	s.addServer(domain.MCPServer{ID: "limited", EndpointURL: sdkServer(t, 1, nil)})
	connect := map[string]any{"server_id": "limited"}

	_, eager := s.user("eager")
	apitest.Decode[connectionView](t, s.connect(eager, connect), http.StatusOK)
	for range 4 {
		apitest.WantError(t, s.connect(eager, connect), http.StatusTooManyRequests, userLimitDetail)
	}
	for _, name := range []string{"second", "third"} {
		_, token := s.user(name)
		apitest.Decode[connectionView](t, s.connect(token, connect), http.StatusOK)
	}
	_, fourth := s.user("fourth")
	apitest.WantError(t, s.connect(fourth, connect), http.StatusTooManyRequests, hostLimitDetail)
}

// TestMovedEntryCountsItsNewHost: the host counted beside the entry read is
// the one the entry had last time; once the entry has moved, the attempt
// counts against the new host only.
func TestMovedEntryCountsItsNewHost(t *testing.T) {
	t.Parallel()
	o := local()
	o.HostConnectsPerMinute = 2
	s := newSessionStack(t, o)
	byAddress := sdkServer(t, 1, nil)
	byName := strings.Replace(byAddress, "127.0.0.1", "localhost", 1)
	moveTo := func(endpoint string) { s.addServer(domain.MCPServer{ID: "moving", EndpointURL: endpoint}) }
	connect := func(want int, detail string) {
		t.Helper()
		_, token := s.user("mover")
		w := s.connect(token, map[string]any{"server_id": "moving"})
		if want == http.StatusOK {
			apitest.Decode[connectionView](t, w, want)
		} else {
			apitest.WantError(t, w, want, detail)
		}
	}

	moveTo(byAddress)
	connect(http.StatusOK, "") // 127.0.0.1: 1
	moveTo(byName)
	connect(http.StatusOK, "") // localhost: 1, and 127.0.0.1 still 1
	moveTo(byAddress)
	connect(http.StatusOK, "") // 127.0.0.1: 2, localhost still 1
	connect(http.StatusTooManyRequests, hostLimitDetail)
	moveTo(byName)
	connect(http.StatusOK, "") // localhost: 2
}
