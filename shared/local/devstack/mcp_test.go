package devstack_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"aiwork/shared/local/devstack"
	"aiwork/shared/seeddata"
	"aiwork/shared/store/storetest"
)

// make run lists the reference server and the OAuth example, both running;
// stop ends them; a run with MCP_REFERENCE_SERVER=off takes both out of the
// listing.
func TestStartMCPListsTheLocalServers(t *testing.T) {
	t.Setenv("MCP_REFERENCE_SERVER", "")
	t.Setenv("MCP_OAUTH_EXAMPLE", "")
	ctx := context.Background()
	st := storetest.New(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	noJobs := func(context.Context, string) error { return nil }

	stop, err := devstack.StartMCPWith(ctx, st, log, noJobs)
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			stop()
		}
	}()
	var hosts []string
	for _, id := range []string{seeddata.LocalReferenceID, seeddata.LocalOAuthExampleID} {
		srv, err := st.GetMCPServer(ctx, id)
		if err != nil || !srv.IsActive || srv.EndpointURL == "" {
			t.Fatalf("%s: %+v %v", id, srv, err)
		}
		u, err := url.Parse(srv.EndpointURL)
		storetest.Must(t, err, "endpoint")
		hosts = append(hosts, u.Host)
	}
	oauth, _ := st.GetMCPServer(ctx, seeddata.LocalOAuthExampleID)
	if !oauth.OAuthRequired {
		t.Errorf("OAuth example not marked as needing OAuth: %+v", oauth)
	}
	resp, err := http.Post(oauth.EndpointURL, "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("POST %s without a token: %d, want 401", oauth.EndpointURL, resp.StatusCode)
	}

	stop()
	stopped = true
	for _, host := range hosts {
		if conn, err := net.Dial("tcp", host); err == nil {
			conn.Close()
			t.Errorf("%s still accepts connections after stop", host)
		}
	}

	t.Setenv("MCP_REFERENCE_SERVER", "off")
	stop, err = devstack.StartMCPWith(ctx, st, log, noJobs)
	if err != nil {
		t.Fatal(err)
	}
	stop()
	for _, id := range []string{seeddata.LocalReferenceID, seeddata.LocalOAuthExampleID} {
		if srv, err := st.GetMCPServer(ctx, id); err != nil || srv.IsActive {
			t.Errorf("%s still listed with the local servers off: %+v %v", id, srv, err)
		}
	}
}
