package remote_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"aiwork/shared/config"
	"aiwork/shared/domain"
	"aiwork/shared/mcpjobs/remote"
)

// lambdaAPI stands for Lambda's Invoke API: it checks each request is a
// signed synchronous Invoke of the function and answers what answer says.
func lambdaAPI(t *testing.T, answer func(w http.ResponseWriter, ev remote.Event)) *remote.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		switch {
		case r.Method != http.MethodPost || r.URL.Path != "/2015-03-31/functions/aiwork-mcp-jobs/invocations":
			t.Errorf("got %s %s", r.Method, r.URL.Path)
		case r.Header.Get("X-Amz-Invocation-Type") != "RequestResponse":
			t.Errorf("invocation type %q", r.Header.Get("X-Amz-Invocation-Type"))
		case !strings.HasPrefix(auth, "AWS4-HMAC-SHA256 Credential=AKIDTEST/") || !strings.Contains(auth, "/eu-west-1/lambda/aws4_request") ||
			!strings.Contains(auth, "SignedHeaders=") || r.Header.Get("X-Amz-Date") == "" || r.Header.Get("X-Amz-Security-Token") != "session":
			t.Errorf("not signed for lambda: Authorization %q", auth)
		}
		var ev remote.Event
		body, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(body, &ev); err != nil {
			t.Errorf("body %s: %v", body, err)
		}
		answer(w, ev)
	}))
	t.Cleanup(srv.Close)
	t.Setenv("AWS_ENDPOINT_URL_LAMBDA", srv.URL)
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "secret")
	t.Setenv("AWS_SESSION_TOKEN", "session")
	return remote.New(config.AWS("eu-west-1"), "aiwork-mcp-jobs")
}

func reply(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func TestProbeOne(t *testing.T) {
	health := domain.MCPHealth{Status: domain.HealthUp, CheckedAt: "2026-11-26T03:00:00Z", LatencyMS: 12, ToolsCount: 3,
		ServerInfo: &domain.MCPImplementation{Name: "everything", Version: "1"}}
	for _, tc := range []struct {
		name   string
		answer func(w http.ResponseWriter)
		want   string // the error's text, or its start; "" : health
		is     error
		also   string // in the error's text too
	}{
		{"health", func(w http.ResponseWriter) { reply(w, remote.Reply{Health: &health}) }, "", nil, ""},
		{"server gone", func(w http.ResponseWriter) { reply(w, remote.Reply{NotFound: true}) }, "mcp-jobs: MCP server not found", remote.ErrNotFound, ""},
		{"job failed", func(w http.ResponseWriter) { reply(w, remote.Reply{Error: "save health: throttled"}) }, "save health: throttled", nil, ""},
		{"no health", func(w http.ResponseWriter) { reply(w, remote.Reply{}) }, "mcp-jobs: the probe answered no health", nil, ""},
		{"function failed", func(w http.ResponseWriter) {
			w.Header().Set("X-Amz-Function-Error", "Unhandled")
			reply(w, map[string]string{"errorType": "Runtime.ExitError", "errorMessage": "exit status 2"})
		}, "mcp-jobs failed: Runtime.ExitError: exit status 2", nil, ""},
		{"function missing", func(w http.ResponseWriter) {
			w.Header().Set("X-Amzn-ErrorType", "ResourceNotFoundException:http://internal.amazon.com/coral/com.amazonaws.awslambda/")
			w.WriteHeader(http.StatusNotFound)
			reply(w, map[string]string{"Type": "User", "Message": "Function not found: aiwork-mcp-jobs"})
		}, "invoke mcp-jobs: ", nil, "ResourceNotFoundException: Function not found: aiwork-mcp-jobs"},
		{"not JSON", func(w http.ResponseWriter) { _, _ = io.WriteString(w, "oops") }, `mcp-jobs answered "oops"`, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := lambdaAPI(t, func(w http.ResponseWriter, ev remote.Event) {
				if ev != (remote.Event{Action: remote.ActionProbe, ServerID: "srv-1"}) {
					t.Errorf("event %+v", ev)
				}
				tc.answer(w)
			})
			got, err := c.ProbeOne(context.Background(), domain.MCPServer{ID: "srv-1", EndpointURL: "https://example.com/mcp"})
			switch {
			case tc.want == "" && (err != nil || got.Status != health.Status || got.ServerInfo == nil || got.ToolsCount != 3):
				t.Fatalf("ProbeOne = %+v, %v; want %+v", got, err, health)
			case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
				t.Fatalf("ProbeOne error = %v, want %q", err, tc.want)
			case tc.also != "" && !strings.Contains(err.Error(), tc.also):
				t.Fatalf("ProbeOne error = %v, want %q in it", err, tc.also)
			case tc.is != nil && !errors.Is(err, tc.is):
				t.Fatalf("ProbeOne error %v is not %v", err, tc.is)
			}
		})
	}
}

func TestSync(t *testing.T) {
	report := remote.SyncReport{Upserted: 4, Deactivated: 1, Skipped: 2, Pages: 3, Registry: true}
	for _, tc := range []struct {
		name   string
		answer remote.Reply
		want   string
	}{
		{"report", remote.Reply{Sync: &report}, ""},
		{"registry failed", remote.Reply{Error: "registry: GET https://registry.example/v0.1/servers: 502"}, "registry: GET https://registry.example/v0.1/servers: 502"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := lambdaAPI(t, func(w http.ResponseWriter, ev remote.Event) {
				if ev != (remote.Event{Action: remote.ActionSync}) {
					t.Errorf("event %+v", ev)
				}
				reply(w, tc.answer)
			})
			got, err := c.Sync(context.Background())
			if tc.want == "" && (err != nil || got != report) || tc.want != "" && (err == nil || err.Error() != tc.want) {
				t.Fatalf("Sync = %+v, %v; want %+v, %q", got, err, report, tc.want)
			}
		})
	}
}
