package localmcp_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"aiwork/shared/local/localmcp"
	"aiwork/shared/local/localmcp/localmcptest"
	"aiwork/shared/seeddata"
)

func TestMain(m *testing.M) {
	code := m.Run()
	localmcptest.Stop()
	os.Exit(code)
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"localmcp-test","version":"1"}}}`

var client = &http.Client{
	Timeout: 10 * time.Second,
	// The demo authorization page redirects at once: look at the redirect.
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// postInitialize sends an MCP initialize to endpoint with token (none when "").
func postInitialize(t *testing.T, endpoint, token string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(initialize))
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
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func getJSON(t *testing.T, u string, into any) {
	t.Helper()
	resp, err := client.Get(u)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", u, resp.StatusCode, body)
	}
	if err := json.Unmarshal(body, into); err != nil {
		t.Fatalf("GET %s: %v in %s", u, err, body)
	}
}

// The example server asks for a token the way the MCP authorization spec
// says, its metadata leads to its authorization server, and a token got by
// registration, authorization code and PKCE opens the MCP session.
func TestOAuthExample(t *testing.T) {
	s := localmcptest.OAuthExample(t)
	if !strings.HasPrefix(s.Endpoint, "http://localhost:") || !strings.HasSuffix(s.Endpoint, "/mcp") ||
		!strings.HasPrefix(s.Issuer, "http://localhost:") || !strings.HasSuffix(s.Issuer, "/") {
		t.Fatalf("endpoint %q, issuer %q", s.Endpoint, s.Issuer)
	}

	resp := postInitialize(t, s.Endpoint, "")
	challenge := resp.Header.Get("WWW-Authenticate")
	if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(challenge, "Bearer ") ||
		!strings.Contains(challenge, `resource_metadata="`+s.ResourceMetadata+`"`) {
		t.Fatalf("initialize without a token: %d, WWW-Authenticate %q", resp.StatusCode, challenge)
	}

	var prm struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
		ScopesSupported      []string `json:"scopes_supported"`
	}
	getJSON(t, s.ResourceMetadata, &prm)
	if prm.Resource != s.Endpoint || !slices.Contains(prm.AuthorizationServers, s.Issuer) {
		t.Fatalf("protected resource metadata %+v, want resource %s and issuer %s", prm, s.Endpoint, s.Issuer)
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

	// Dynamic client registration (RFC 7591) of a public client; the
	// authorization page approves at once; the code is exchanged.
	_, tok := signInToken(t, asm.RegistrationEndpoint, asm.AuthorizationEndpoint, asm.TokenEndpoint, s.Endpoint, strings.Join(prm.ScopesSupported, " "))
	if tok.RefreshToken != "" {
		t.Errorf("the example issued a refresh token; the demo provider was not expected to")
	}
	if resp := postInitialize(t, s.Endpoint, tok.AccessToken); resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("initialize with the token: %d %s", resp.StatusCode, b)
	}
}

// The catalogue entry names the SDK version that is installed (and pinned).
func TestOAuthExampleVersionIsPinned(t *testing.T) {
	script, err := localmcp.FindOAuthExample()
	if err != nil {
		t.Fatal(err)
	}
	sdk := filepath.Join(filepath.Dir(script), "..", "..", "..", "..")
	var installed struct {
		Version string `json:"version"`
	}
	b, err := os.ReadFile(filepath.Join(sdk, "package.json"))
	if err == nil {
		err = json.Unmarshal(b, &installed)
	}
	if err != nil || installed.Version != seeddata.LocalOAuthExampleVersion {
		t.Errorf("installed @modelcontextprotocol/sdk %q (%v), catalogue says %s", installed.Version, err, seeddata.LocalOAuthExampleVersion)
	}
	webapp := filepath.Join(sdk, "..", "..", "..")
	var pkg struct {
		DevDependencies map[string]string `json:"devDependencies"`
	}
	b, err = os.ReadFile(filepath.Join(webapp, "package.json"))
	if err == nil {
		err = json.Unmarshal(b, &pkg)
	}
	if err != nil || pkg.DevDependencies["@modelcontextprotocol/sdk"] != seeddata.LocalOAuthExampleVersion {
		t.Errorf("webapp/package.json pins @modelcontextprotocol/sdk %q (%v), catalogue says %s",
			pkg.DevDependencies["@modelcontextprotocol/sdk"], err, seeddata.LocalOAuthExampleVersion)
	}
}

func TestStartOAuthExampleSaysWhatIsMissing(t *testing.T) {
	t.Setenv("MCP_OAUTH_EXAMPLE_JS", filepath.Join(t.TempDir(), "missing.js"))
	if _, err := localmcp.StartOAuthExample(context.Background()); err == nil || !strings.Contains(err.Error(), "missing.js") {
		t.Fatalf("start with a missing script: %v", err)
	}
}
