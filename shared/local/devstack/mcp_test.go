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

// make run lists the reference server, the OAuth example and the
// sign-in-on-call example, all running; stop ends them; a run with
// MCP_SIGNIN_ON_CALL_EXAMPLE=off takes that one out of the listing, and
// one with MCP_REFERENCE_SERVER=off all of them.
func TestStartMCPListsTheLocalServers(t *testing.T) {
	t.Setenv("MCP_REFERENCE_SERVER", "")
	t.Setenv("MCP_OAUTH_EXAMPLE", "")
	t.Setenv("MCP_SIGNIN_ON_CALL_EXAMPLE", "")
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
	local := []string{seeddata.LocalReferenceID, seeddata.LocalOAuthExampleID, seeddata.LocalSignInOnCallID}
	var hosts []string
	for _, id := range local {
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

	// Keyless at connect; its private tool asks for sign-in.
	signIn, _ := st.GetMCPServer(ctx, seeddata.LocalSignInOnCallID)
	if signIn.OAuthRequired || signIn.APIKeyRequired {
		t.Errorf("sign-in-on-call example not keyless at connect: %+v", signIn)
	}
	resp, err = http.Post(signIn.EndpointURL, "application/json", strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get-private-note","arguments":{}}}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(resp.Header.Get("WWW-Authenticate"), "resource_metadata=") {
		t.Errorf("get-private-note at %s without a token: %d %q, want 401 and a challenge", signIn.EndpointURL, resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}

	stop()
	stopped = true
	for _, host := range hosts {
		if conn, err := net.Dial("tcp", host); err == nil {
			conn.Close()
			t.Errorf("%s still accepts connections after stop", host)
		}
	}

	t.Setenv("MCP_OAUTH_EXAMPLE", "off")
	t.Setenv("MCP_SIGNIN_ON_CALL_EXAMPLE", "off")
	stop, err = devstack.StartMCPWith(ctx, st, log, noJobs)
	if err != nil {
		t.Fatal(err)
	}
	stop()
	if srv, err := st.GetMCPServer(ctx, seeddata.LocalSignInOnCallID); err != nil || srv.IsActive {
		t.Errorf("sign-in-on-call example still listed with MCP_SIGNIN_ON_CALL_EXAMPLE=off: %+v %v", srv, err)
	}
	if srv, err := st.GetMCPServer(ctx, seeddata.LocalReferenceID); err != nil || !srv.IsActive {
		t.Errorf("reference server not listed with only the examples off: %+v %v", srv, err)
	}

	t.Setenv("MCP_REFERENCE_SERVER", "off")
	t.Setenv("MCP_SIGNIN_ON_CALL_EXAMPLE", "")
	stop, err = devstack.StartMCPWith(ctx, st, log, noJobs)
	if err != nil {
		t.Fatal(err)
	}
	stop()
	for _, id := range local {
		if srv, err := st.GetMCPServer(ctx, id); err != nil || srv.IsActive {
			t.Errorf("%s still listed with the local servers off: %+v %v", id, srv, err)
		}
	}
}
