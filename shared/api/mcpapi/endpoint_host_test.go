package mcpapi_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"aiwork/shared/api/apitest"
	"aiwork/shared/domain"
)

// TestConnectShowsOverriddenHost: a connection made with an endpoint
// override keeps the entry's name, and its answers (connect, list row, the
// chat's tools list) carry endpoint_host, the host:port it reached, when
// that is not the entry's default host; "" when it is.
func TestConnectShowsOverriddenHost(t *testing.T) {
	t.Parallel()
	s := newStack(t, local())
	entryDefault := sdkServer(t, 1, nil)
	elsewhere := sdkServer(t, 2, nil)
	s.addServer(domain.MCPServer{ID: "github", Title: "GitHub", EndpointURL: entryDefault})
	elsewhereHost := mustURL(t, elsewhere).Host

	tests := []struct {
		name, override, wantHost string
	}{
		{"default endpoint", "", ""},
		{"default endpoint given", entryDefault, ""},
		{"same host, another path", strings.TrimSuffix(entryDefault, "/mcp") + "/other", ""},
		{"another host", elsewhere, elsewhereHost},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, token := s.user("override")
			c := apitest.Decode[connectionView](t, s.connect(token, map[string]any{"server_id": "github", "endpoint_url": tt.override}), http.StatusOK)
			if c.ServerName != "GitHub" || c.EndpointHost != tt.wantHost {
				t.Errorf("connect answer: server_name %q, endpoint_host %q; want %q, %q", c.ServerName, c.EndpointHost, "GitHub", tt.wantHost)
			}

			rows := apitest.Decode[[]connectionRow](t, s.get(connectionsPath, token), http.StatusOK)
			if len(rows) != 1 || rows[0].EndpointHost != tt.wantHost {
				t.Errorf("list rows = %+v, want one with endpoint_host %q", rows, tt.wantHost)
			}

			tools := apitest.Decode[struct {
				Servers []struct {
					ServerName   string  `json:"server_name"`
					EndpointHost *string `json:"endpoint_host"`
				} `json:"servers"`
			}](t, s.get("/api/v1/mcp-connections/tools", token), http.StatusOK)
			if len(tools.Servers) != 1 || tools.Servers[0].EndpointHost == nil || *tools.Servers[0].EndpointHost != tt.wantHost {
				t.Errorf("tools servers = %+v, want one with endpoint_host %q", tools.Servers, tt.wantHost)
			}
		})
	}
}

func mustURL(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
