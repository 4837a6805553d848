package localmcp_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/local/localmcp"
)

// The sign-in-on-call server lets anyone connect, list its tools and read
// the public note; calling get-private-note without a token is a 401 that
// leads, through its metadata, to an authorization server; a token got
// there for this server opens the private note, and one for another
// server, or without the scope, does not.
func TestSignInOnCall(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	s, err := localmcp.StartSignInOnCall(ctx)
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			s.Stop()
		}
	}()
	if !strings.HasPrefix(s.Endpoint, "http://localhost:") || !strings.HasSuffix(s.Endpoint, "/mcp") ||
		!strings.HasPrefix(s.Issuer, "http://localhost:") || !strings.HasSuffix(s.Issuer, "/") ||
		s.ResourceMetadata != strings.TrimSuffix(s.Endpoint, "/mcp")+"/.well-known/oauth-protected-resource/mcp" {
		t.Fatalf("endpoint %q, issuer %q, resource metadata %q", s.Endpoint, s.Issuer, s.ResourceMetadata)
	}

	t.Run("no token: connect, list, public note", func(t *testing.T) {
		session := connectSDK(t, s.Endpoint, "")
		tools, err := session.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range tools.Tools {
			names = append(names, tool.Name)
			if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
				t.Errorf("%s is not marked read-only: %+v", tool.Name, tool.Annotations)
			}
		}
		slices.Sort(names)
		if !slices.Equal(names, []string{localmcp.PrivateNoteTool, localmcp.PublicNoteTool}) {
			t.Errorf("tools %v", names)
		}
		if got := callText(t, session, localmcp.PublicNoteTool); !strings.Contains(got, "public note") {
			t.Errorf("public note: %q", got)
		}
	})

	challenge := `Bearer resource_metadata="` + s.ResourceMetadata + `", scope="mcp:tools"`
	t.Run("no token: the private note asks for sign-in", func(t *testing.T) {
		for name, body := range map[string]string{
			"one call": callBody(localmcp.PrivateNoteTool),
			"in a batch": `[{"jsonrpc":"2.0","method":"notifications/initialized"},` +
				callBody(localmcp.PrivateNoteTool) + `]`,
		} {
			resp := post(t, s.Endpoint, "", body)
			if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("WWW-Authenticate") != challenge {
				t.Errorf("%s: %d, WWW-Authenticate %q, want 401 and %q", name, resp.StatusCode, resp.Header.Get("WWW-Authenticate"), challenge)
			}
		}
		if resp := post(t, s.Endpoint, "", callBody(localmcp.PublicNoteTool)); resp.StatusCode != http.StatusOK {
			t.Errorf("the public note by a bare POST: %d", resp.StatusCode)
		}
		if resp := post(t, s.Endpoint, "not-a-token", callBody(localmcp.PrivateNoteTool)); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("an unknown token: %d, want 401", resp.StatusCode)
		}
		big := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 2<<20) + `"}}`
		if resp := post(t, s.Endpoint, "", big); resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("a 2 MiB body: %d, want 413", resp.StatusCode)
		}
	})

	var prm struct {
		Resource               string   `json:"resource"`
		AuthorizationServers   []string `json:"authorization_servers"`
		ScopesSupported        []string `json:"scopes_supported"`
		BearerMethodsSupported []string `json:"bearer_methods_supported"`
	}
	getJSON(t, s.ResourceMetadata, &prm)
	if prm.Resource != s.Endpoint || !slices.Equal(prm.AuthorizationServers, []string{s.Issuer}) ||
		!slices.Equal(prm.ScopesSupported, []string{"mcp:tools"}) || !slices.Equal(prm.BearerMethodsSupported, []string{"header"}) {
		t.Fatalf("protected resource metadata %+v", prm)
	}
	var asm struct {
		Issuer                        string   `json:"issuer"`
		AuthorizationEndpoint         string   `json:"authorization_endpoint"`
		TokenEndpoint                 string   `json:"token_endpoint"`
		RegistrationEndpoint          string   `json:"registration_endpoint"`
		CodeChallengeMethodsSupported []string `json:"code_challenge_methods_supported"`
	}
	getJSON(t, strings.TrimSuffix(s.Issuer, "/")+"/.well-known/oauth-authorization-server", &asm)
	if asm.Issuer != s.Issuer || asm.RegistrationEndpoint == "" || !slices.Contains(asm.CodeChallengeMethodsSupported, "S256") {
		t.Fatalf("authorization server metadata %+v", asm)
	}

	t.Run("a token for this server opens the private note", func(t *testing.T) {
		clientID, token := signIn(t, asm.RegistrationEndpoint, asm.AuthorizationEndpoint, asm.TokenEndpoint, s.Endpoint, "mcp:tools")
		session := connectSDK(t, s.Endpoint, token)
		want := "Your private note (signed in as client " + clientID + "): remember the milk."
		if got := callText(t, session, localmcp.PrivateNoteTool); got != want {
			t.Errorf("private note: %q, want %q", got, want)
		}
	})

	t.Run("a token for another server or without the scope is refused", func(t *testing.T) {
		_, other := signIn(t, asm.RegistrationEndpoint, asm.AuthorizationEndpoint, asm.TokenEndpoint,
			strings.TrimSuffix(s.Endpoint, "/mcp")+"/other", "mcp:tools")
		_, unscoped := signIn(t, asm.RegistrationEndpoint, asm.AuthorizationEndpoint, asm.TokenEndpoint, s.Endpoint, "")
		for name, token := range map[string]string{"another server's": other, "unscoped": unscoped} {
			resp := post(t, s.Endpoint, token, callBody(localmcp.PrivateNoteTool))
			if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("WWW-Authenticate") != challenge {
				t.Errorf("%s token: %d, WWW-Authenticate %q", name, resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
			}
		}
	})

	// Stop ends both servers.
	hosts := []string{hostOf(t, s.Endpoint), hostOf(t, s.Issuer)}
	s.Stop()
	stopped = true
	for _, host := range hosts {
		if conn, err := net.Dial("tcp", host); err == nil {
			conn.Close()
			t.Errorf("%s still accepts connections after Stop", host)
		}
	}
}

func callBody(tool string) string {
	return `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"` + tool + `","arguments":{}}}`
}

// post sends an MCP message to endpoint with token (none when "").
func post(t *testing.T, endpoint, token, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", endpoint, err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

// bearer adds a token to every request, as a signed-in client does.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// connectSDK connects the go-sdk's client to endpoint, with token when set.
func connectSDK(t *testing.T, endpoint, token string) *mcp.ClientSession {
	t.Helper()
	hc := &http.Client{Timeout: 10 * time.Second}
	if token != "" {
		hc.Transport = bearer{token}
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "localmcp-test", Version: "1"}, nil)
	session, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc}, nil)
	if err != nil {
		t.Fatalf("connect %s: %v", endpoint, err)
	}
	t.Cleanup(func() { session.Close() })
	return session
}

// callText calls tool and answers its one text.
func callText(t *testing.T, session *mcp.ClientSession, tool string) string {
	t.Helper()
	res, err := session.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: map[string]any{}})
	if err != nil {
		t.Fatalf("call %s: %v", tool, err)
	}
	if res.IsError || len(res.Content) != 1 {
		t.Fatalf("call %s: %+v", tool, res)
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("call %s: %T", tool, res.Content[0])
	}
	return text.Text
}

func hostOf(t *testing.T, u string) string {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	return p.Host
}
