package store_test

import (
	"reflect"
	"testing"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// SessionAndMCPServer answers what SessionLive and GetMCPServer would, in
// one call.
func TestSessionAndMCPServer(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	srv := domain.MCPServer{ID: "docs", Name: "io.example/docs", EndpointURL: "https://docs.example/mcp", IsActive: true}
	storetest.Must(t, st.UpsertMCPServer(ctx, srv), "entry")
	storetest.Must(t, st.CreateSession(ctx, "alice", "open", time.Now().Add(time.Hour)), "open session")
	storetest.Must(t, st.CreateSession(ctx, "alice", "expired", time.Now().Add(-time.Minute)), "expired session")
	want, err := st.GetMCPServer(ctx, "docs")
	storetest.Must(t, err, "get entry")
	for _, tc := range []struct {
		name, uid, sid, server string
		want                   store.SessionAndServer
	}{
		{"open session, entry", "alice", "open", "docs", store.SessionAndServer{Live: true, Server: want, Found: true}},
		{"expired session", "alice", "expired", "docs", store.SessionAndServer{Server: want, Found: true}},
		{"another user's session id", "bob", "open", "docs", store.SessionAndServer{Server: want, Found: true}},
		{"no such entry", "alice", "open", "nope", store.SessionAndServer{Live: true}},
		{"no entry asked", "alice", "open", "", store.SessionAndServer{Live: true}},
	} {
		got, err := st.SessionAndMCPServer(ctx, tc.uid, tc.sid, tc.server)
		storetest.Must(t, err, tc.name)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
