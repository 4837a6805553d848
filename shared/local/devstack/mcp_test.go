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
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/local/devstack"
	"aiwork/shared/seeddata"
	"aiwork/shared/store/storetest"
)

// make run lists the reference server, the OAuth example, the
// sign-in-on-call example and the MCP App example, all running; stop ends
// them; a run with MCP_SIGNIN_ON_CALL_EXAMPLE=off and MCP_APP_EXAMPLE=off
// takes those out of the listing, and one with MCP_REFERENCE_SERVER=off all
// of them.
func TestStartMCPListsTheLocalServers(t *testing.T) {
	t.Setenv("MCP_REFERENCE_SERVER", "")
	t.Setenv("MCP_OAUTH_EXAMPLE", "")
	t.Setenv("MCP_SIGNIN_ON_CALL_EXAMPLE", "")
	t.Setenv("MCP_APP_EXAMPLE", "")
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
	local := []string{seeddata.LocalReferenceID, seeddata.LocalOAuthExampleID, seeddata.LocalSignInOnCallID, seeddata.LocalMCPAppID}
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

	// Keyless; get-time declares its view, which reads as an MCP App's HTML.
	app, _ := st.GetMCPServer(ctx, seeddata.LocalMCPAppID)
	if app.OAuthRequired || app.APIKeyRequired {
		t.Errorf("MCP App example not keyless: %+v", app)
	}
	checkAppExample(t, app.EndpointURL)

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
	t.Setenv("MCP_APP_EXAMPLE", "off")
	stop, err = devstack.StartMCPWith(ctx, st, log, noJobs)
	if err != nil {
		t.Fatal(err)
	}
	stop()
	if srv, err := st.GetMCPServer(ctx, seeddata.LocalSignInOnCallID); err != nil || srv.IsActive {
		t.Errorf("sign-in-on-call example still listed with MCP_SIGNIN_ON_CALL_EXAMPLE=off: %+v %v", srv, err)
	}
	if srv, err := st.GetMCPServer(ctx, seeddata.LocalMCPAppID); err != nil || srv.IsActive {
		t.Errorf("MCP App example still listed with MCP_APP_EXAMPLE=off: %+v %v", srv, err)
	}
	if srv, err := st.GetMCPServer(ctx, seeddata.LocalReferenceID); err != nil || !srv.IsActive {
		t.Errorf("reference server not listed with only the examples off: %+v %v", srv, err)
	}

	t.Setenv("MCP_REFERENCE_SERVER", "off")
	t.Setenv("MCP_SIGNIN_ON_CALL_EXAMPLE", "")
	t.Setenv("MCP_APP_EXAMPLE", "")
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

// checkAppExample connects to the MCP App example at endpoint with the MCP
// SDK's client, as the product does, and checks what chat relies on:
// get-time's _meta.ui.resourceUri names ui://get-time/mcp-app.html, and
// resources/read of it answers text/html;profile=mcp-app.
func checkAppExample(t *testing.T, endpoint string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := sdk.NewClient(&sdk.Implementation{Name: "devstack-test", Version: "1"}, nil)
	session, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: endpoint}, nil)
	if err != nil {
		t.Fatalf("connect to the MCP App example at %s: %v", endpoint, err)
	}
	defer session.Close()
	tools, err := session.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	const view = "ui://get-time/mcp-app.html"
	var declared string
	for _, tool := range tools.Tools {
		if ui, ok := tool.Meta["ui"].(map[string]any); ok && tool.Name == "get-time" {
			declared, _ = ui["resourceUri"].(string)
		}
	}
	if declared != view {
		t.Fatalf("MCP App example tools %+v: get-time's _meta.ui.resourceUri %q, want %q", tools.Tools, declared, view)
	}
	res, err := session.ReadResource(ctx, &sdk.ReadResourceParams{URI: view})
	if err != nil {
		t.Fatalf("resources/read %s: %v", view, err)
	}
	if len(res.Contents) != 1 || res.Contents[0].MIMEType != "text/html;profile=mcp-app" || res.Contents[0].Text == "" {
		t.Errorf("resources/read %s: %d contents, first %.200v", view, len(res.Contents), res.Contents)
	}
}
