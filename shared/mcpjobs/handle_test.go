package mcpjobs_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"aiwork/shared/domain"
	"aiwork/shared/mcpjobs/remote"
	"aiwork/shared/store/storetest"
)

// TestHandle: the mcp-jobs function's events, decoded from the JSON Lambda
// hands it: a schedule's job, and an admin's probe and sync, whose failures
// come back in the reply in the job's own words.
func TestHandle(t *testing.T) {
	t.Parallel()
	base, _ := fakeRegistry(t,
		registryEntry("io.example/weather", "active", "Weather", "Forecasts for any city.", "streamable-http", "https://weather.example.com/mcp"))
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
	}))
	t.Cleanup(broken.Close)

	for _, tc := range []struct {
		name, registry, event string
		check                 func(t *testing.T, reply *remote.Reply)
		wantErr               string
	}{
		{name: "scheduled job", registry: base, event: `{"job":"mcp-sync"}`, check: func(t *testing.T, reply *remote.Reply) {
			if reply != nil {
				t.Errorf("reply %+v, want none", reply)
			}
		}},
		{name: "unknown job", event: `{"job":"mcp-nope"}`, wantErr: `unknown job "mcp-nope"`},
		{name: "sync", registry: base, event: `{"action":"sync"}`, check: func(t *testing.T, reply *remote.Reply) {
			if reply.Sync == nil || *reply.Sync != (remote.SyncReport{Upserted: 1, Pages: 1, Registry: true}) || reply.Error != "" {
				t.Errorf("reply %+v, want one upserted from the registry", reply)
			}
		}},
		{name: "sync without registry", event: `{"action":"sync"}`, check: func(t *testing.T, reply *remote.Reply) {
			if reply.Sync == nil || *reply.Sync != (remote.SyncReport{}) {
				t.Errorf("reply %+v, want an empty report", reply)
			}
		}},
		{name: "sync failing", registry: broken.URL, event: `{"action":"sync"}`, check: func(t *testing.T, reply *remote.Reply) {
			if reply.Sync != nil || !strings.Contains(reply.Error, "503") {
				t.Errorf("reply %+v, want the registry's failure", reply)
			}
		}},
		{name: "probe", event: `{"action":"probe","server_id":"dead"}`, check: func(t *testing.T, reply *remote.Reply) {
			if reply.Health == nil || reply.Health.Status != domain.HealthDown || reply.Health.Error == "" {
				t.Errorf("reply %+v, want the server down with why", reply)
			}
		}},
		{name: "probe of a server gone", event: `{"action":"probe","server_id":"gone"}`, check: func(t *testing.T, reply *remote.Reply) {
			if !reply.NotFound || reply.Health != nil {
				t.Errorf("reply %+v, want not found", reply)
			}
		}},
		{name: "unknown action", event: `{"action":"delete"}`, wantErr: `unknown action "delete"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			st := storetest.New(t)
			dead := domain.MCPServer{ID: "dead", Name: "test/dead", EndpointURL: closedPort(t), IsActive: true}
			storetest.Must(t, st.UpsertMCPServer(ctx, dead), "upsert")
			var ev remote.Event
			storetest.Must(t, json.Unmarshal([]byte(tc.event), &ev), "event")
			reply, err := runner(t, st, tc.registry).Handle(ctx, ev)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("Handle = %+v, %v; want error %q", reply, err, tc.wantErr)
				}
				return
			}
			storetest.Must(t, err, "handle")
			tc.check(t, reply)
			if reply != nil && reply.Health != nil {
				saved, err := st.GetMCPServer(ctx, "dead")
				storetest.Must(t, err, "get")
				if saved.Health.Status != reply.Health.Status || saved.Health.CheckedAt != reply.Health.CheckedAt {
					t.Errorf("saved health %+v, answered %+v", saved.Health, *reply.Health)
				}
			}
		})
	}
}
