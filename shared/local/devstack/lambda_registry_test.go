package devstack_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	"aiwork/shared/domain"
)

// The registry API is the mcp function's registry group: through the
// gateway (which, like API Gateway, hands the function the decoded path,
// a server name's %2F as "/") the list, one server by its URL-encoded
// name and a CORS preflight answer as the devserver does.
func testRegistryAPI(t *testing.T, s *lambdaStack) {
	if err := s.st.UpsertMCPServer(context.Background(), domain.MCPServer{ID: "lambda-registry", Name: "test/lambda-registry", Title: "Lambda registry",
		Description: "Served through the mcp function.", EndpointURL: "https://registry.example.com/mcp", Transport: domain.TransportStreamableHTTP,
		ModelType: "general", IsActive: true}); err != nil {
		t.Fatal(err)
	}
	list := request{function: "mcp", method: "GET", path: "/api/registry/v0.1/servers?search=lambda-registry"}
	res, body := s.do(t, list, http.StatusOK)
	var page struct {
		Servers []struct {
			Server struct {
				Name    string `json:"name"`
				Remotes []struct {
					URL string `json:"url"`
				} `json:"remotes"`
			} `json:"server"`
		} `json:"servers"`
	}
	if err := json.Unmarshal(body, &page); err != nil || len(page.Servers) != 1 || page.Servers[0].Server.Name != "test/lambda-registry" ||
		page.Servers[0].Server.Remotes[0].URL != "https://registry.example.com/mcp" {
		t.Fatalf("%s: answer %s (%v), want the one server", list.what(), body, err)
	}
	if res.Header.Get("Access-Control-Allow-Origin") != "*" || res.Header.Get("ETag") == "" || res.Header.Get("Cache-Control") != "public, max-age=60" {
		t.Errorf("%s: headers %v, want CORS, an ETag and Cache-Control", list.what(), res.Header)
	}
	one := request{function: "mcp", method: "GET", path: "/api/registry/v0.1/servers/" + url.PathEscape("test/lambda-registry") + "/versions/latest"}
	if _, body := s.do(t, one, http.StatusOK); !json.Valid(body) {
		t.Errorf("%s: answer %s", one.what(), body)
	}
	s.do(t, request{function: "mcp", method: "GET", path: "/api/registry/v0.1/servers/test%2Fnone/versions/latest"}, http.StatusNotFound)
	s.do(t, request{function: "mcp", method: "GET", path: "/api/registry/v0.1/servers/test%2Fa%2Fb/versions/latest"}, http.StatusBadRequest)
	preflight := request{function: "mcp", method: "OPTIONS", path: "/api/registry/v0.1/servers",
		header: http.Header{"Origin": {"https://github.com"}, "Access-Control-Request-Method": {"GET"}}}
	if res, _ := s.do(t, preflight, http.StatusNoContent); res.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("%s: headers %v", preflight.what(), res.Header)
	}
}
