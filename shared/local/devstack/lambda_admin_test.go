package devstack_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"aiwork/shared/domain"
)

// The admin function links no MCP SDK: Probe now and Sync from registry
// now run in the mcp-jobs function, invoked through the local Invoke API
// as in AWS, and answer as they did in-process; an endpoint the outbound
// rules refuse is still judged in the admin function itself.
func testAdminJobs(t *testing.T, s *lambdaStack) {
	if err := s.st.UpsertMCPServer(context.Background(), domain.MCPServer{ID: "lambda-probe", Name: "test/lambda-probe", Title: "Lambda probe",
		EndpointURL: echoMCPServer(t, "lambda-probe"), Transport: domain.TransportStreamableHTTP, ModelType: "general", IsActive: true}); err != nil {
		t.Fatal(err)
	}
	token := s.register(t, "lambdaadmin")
	u, err := s.st.UserByEmail(context.Background(), "lambdaadmin@example.com")
	if err == nil {
		_, err = s.st.SetSuperuser(context.Background(), u.ID, true)
	}
	if err != nil {
		t.Fatalf("make the admin: %v", err)
	}
	jobs := s.stack.Gateway.Functions["mcp-jobs"]
	before := jobs.Stats()

	for _, tc := range []struct {
		name, method, path, body string
		status                   int
		want                     []string
	}{
		{"probe now", "POST", "/api/v1/admin/mcp-servers/lambda-probe/probe", "", http.StatusOK,
			[]string{`"status":"up"`, `"tools_count":1`}},
		{"probe of no server", "POST", "/api/v1/admin/mcp-servers/no-such/probe", "", http.StatusNotFound, []string{"MCP server not found."}},
		{"sync now", "POST", "/api/v1/admin/mcp-sync", "", http.StatusOK,
			[]string{`"upserted":0`, `"pages":1`, `"registry":true`}},
		{"refused endpoint", "POST", "/api/v1/admin/mcp-servers",
			`{"name":"Metadata","endpoint_url":"http://169.254.169.254/mcp","model_type":"general","auth":"none"}`, http.StatusCreated,
			[]string{`"enabled":false`, "Saved, but disabled: the outbound rules refuse this endpoint. The endpoint is a private or local address and is refused."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var body []byte
			if tc.body != "" {
				body = []byte(tc.body)
			}
			_, raw := s.do(t, request{function: "admin", method: tc.method, path: tc.path, token: token, body: body}, tc.status)
			for _, w := range tc.want {
				if !strings.Contains(string(raw), w) {
					t.Errorf("answer %s lacks %q", raw, w)
				}
			}
		})
	}
	after := jobs.Stats()
	if n := after.Cold + after.Warm - before.Cold - before.Warm; n < 2 {
		t.Errorf("mcp-jobs ran %d invocations for the probe and the sync, want 2 or more", n)
	}
	saved, err := s.st.GetMCPServer(context.Background(), "lambda-probe")
	if err != nil || saved.Health.Status != domain.HealthUp {
		t.Errorf("saved health %+v (%v), want up", saved.Health, err)
	}
}
