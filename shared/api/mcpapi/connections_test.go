package mcpapi_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"aiwork/shared/api/apitest"
	"aiwork/shared/domain"
	"aiwork/shared/store/storetest"
)

// TestConnectionsListAndDelete: each user lists only their own connections
// (newest first, [] when none); a user deletes their own once (then it is
// gone), and another user's id is 404 and stays its owner's.
func TestConnectionsListAndDelete(t *testing.T) {
	t.Parallel()
	s := newStack(t, local())
	s.addServer(domain.MCPServer{ID: "two-tools", EndpointURL: sdkServer(t, 2, nil), ModelType: "code"})
	_, ada := s.user("ada")
	_, bob := s.user("bob")
	_, cyd := s.user("cyd")

	connect := func(token string) string {
		t.Helper()
		c := apitest.Decode[connectionView](t, s.connect(token, map[string]any{"server_id": "two-tools"}), http.StatusOK)
		return c.ConnectionID
	}
	list := func(token string) []string {
		t.Helper()
		w := s.get(connectionsPath, token)
		var raw []map[string]any
		storetest.Must(t, json.Unmarshal(w.Body.Bytes(), &raw), "decode list")
		ids := []string{}
		for _, r := range apitest.Decode[[]connectionRow](t, w, http.StatusOK) {
			ids = append(ids, r.ConnectionID)
			if r.ServerID != "two-tools" || r.ToolsCount != 2 || r.HasAPIKey || r.APIKeyLast4 != "" {
				t.Errorf("row = %+v", r)
			}
			wantRecent(t, "connected_at", r.ConnectedAt)
		}
		for _, r := range raw {
			wantKeys(t, "connection row", r, connectionRowKeys...)
			for _, k := range []string{"tools", "api_key", "sealed_api_key"} {
				if _, ok := r[k]; ok {
					t.Errorf("a connection row carries %q", k)
				}
			}
		}
		return ids
	}
	del := func(token, id string) int {
		t.Helper()
		w := apitest.Do(s.h, http.MethodDelete, connectionsPath+id, token, "", nil)
		switch w.Code {
		case http.StatusNoContent:
			if w.Body.Len() != 0 {
				t.Errorf("204 with a body: %s", w.Body)
			}
		case http.StatusNotFound:
			apitest.WantError(t, w, http.StatusNotFound, "Connection not found.")
		}
		return w.Code
	}

	if w := s.get(connectionsPath, cyd); strings.TrimSpace(w.Body.String()) != "[]" || w.Code != http.StatusOK {
		t.Errorf("no connections: %d %s, want 200 []", w.Code, w.Body)
	}
	a1, a2 := connect(ada), connect(ada)
	b1 := connect(bob)

	if got := list(ada); !slices.Equal(got, []string{a2, a1}) {
		t.Errorf("ada's connections = %q, want %q (newest first)", got, []string{a2, a1})
	}
	if got := list(bob); !slices.Equal(got, []string{b1}) {
		t.Errorf("bob's connections = %q, want %q", got, []string{b1})
	}
	if got := list(cyd); len(got) != 0 {
		t.Errorf("cyd's connections = %q, want none", got)
	}

	// Bob cannot delete Ada's connection, nor learn that it exists.
	if code := del(bob, a1); code != http.StatusNotFound {
		t.Errorf("bob deleting ada's connection: %d, want 404", code)
	}
	if got := list(ada); !slices.Contains(got, a1) {
		t.Errorf("ada's connection is gone after bob's delete: %q", got)
	}
	if code := del(ada, a1); code != http.StatusNoContent {
		t.Errorf("delete: %d, want 204", code)
	}
	if code := del(ada, a1); code != http.StatusNotFound {
		t.Errorf("second delete: %d, want 404", code)
	}
	if code := del(ada, "no-such-connection"); code != http.StatusNotFound {
		t.Errorf("unknown id: %d, want 404", code)
	}
	if got := list(ada); !slices.Equal(got, []string{a2}) {
		t.Errorf("ada's connections after delete = %q, want %q", got, []string{a2})
	}
	if got := list(bob); !slices.Equal(got, []string{b1}) {
		t.Errorf("bob's connections = %q, want %q", got, []string{b1})
	}

	// Signed out: neither list nor delete.
	apitest.WantError(t, s.get(connectionsPath, ""), http.StatusUnauthorized, "Not authenticated.")
	apitest.WantError(t, apitest.Do(s.h, http.MethodDelete, connectionsPath+a2, "", "", nil), http.StatusUnauthorized, "Not authenticated.")
	if got := list(ada); !slices.Equal(got, []string{a2}) {
		t.Errorf("ada's connections after a signed-out delete = %q", got)
	}
}
