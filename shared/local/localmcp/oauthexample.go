package localmcp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"aiwork/shared/testbed/localproc"
)

// OAuthServer is the MCP TypeScript SDK's example server
// (@modelcontextprotocol/sdk, examples/server/simpleStreamableHttp.js)
// running with --oauth --oauth-strict: a streamable-HTTP MCP server that
// answers 401 without a bearer token, and beside it, on its own port, the
// SDK's demo OAuth authorization server (RFC 8414 metadata, dynamic client
// registration, PKCE S256; its authorization page approves at once, with no
// login). Everything is in memory: clients and tokens die with the process.
type OAuthServer struct {
	// Endpoint is the MCP URL, http://localhost:<port>/mcp. It says
	// "localhost", as the example's own resource URL does: with
	// --oauth-strict, the token's resource (RFC 8707) must equal it.
	Endpoint string
	// Issuer is the authorization server's issuer exactly as its metadata
	// and the protected resource metadata advertise it:
	// http://localhost:<port>/ (with the trailing slash).
	Issuer string
	// ResourceMetadata is the protected resource metadata URL (RFC 9728)
	// that the 401's WWW-Authenticate names.
	ResourceMetadata string
	child            *localproc.Child
}

// StartOAuthExample launches the SDK's example server with OAuth on two free
// loopback ports (MCP and authorization server) and waits until both accept
// connections (startOAuthExampleProcess).
func StartOAuthExample(ctx context.Context) (*OAuthServer, error) {
	child, mcpPort, authPort, err := startOAuthExampleProcess(ctx, "--oauth", "--oauth-strict")
	if err != nil {
		return nil, err
	}
	return &OAuthServer{
		Endpoint:         fmt.Sprintf("http://localhost:%d/mcp", mcpPort),
		Issuer:           fmt.Sprintf("http://localhost:%d/", authPort),
		ResourceMetadata: fmt.Sprintf("http://localhost:%d/.well-known/oauth-protected-resource/mcp", mcpPort),
		child:            child,
	}, nil
}

// startOAuthExampleProcess runs the example script with flags on two free
// loopback ports, its MCP server's and its authorization server's, and
// waits until both accept connections. The child gets an empty environment
// (PATH, MCP_PORT and MCP_AUTH_PORT only), and its output is dropped: it
// logs request bodies and the tokens it sees.
func startOAuthExampleProcess(ctx context.Context, flags ...string) (child *localproc.Child, mcpPort, authPort int, err error) {
	script, err := FindOAuthExample()
	if err != nil {
		return nil, 0, 0, err
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, 0, 0, fmt.Errorf("MCP OAuth example server: node not found: %w", err)
	}
	mcpPort, err = localproc.FreePort()
	if err != nil {
		return nil, 0, 0, err
	}
	authPort, err = localproc.FreePort()
	for err == nil && authPort == mcpPort {
		authPort, err = localproc.FreePort()
	}
	if err != nil {
		return nil, 0, 0, err
	}
	cmd := exec.Command(node, append([]string{script}, flags...)...)
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"),
		"MCP_PORT=" + strconv.Itoa(mcpPort),
		"MCP_AUTH_PORT=" + strconv.Itoa(authPort),
	}
	child, err = localproc.Serve(ctx, "MCP OAuth example server", cmd, 60*time.Second, authPort, mcpPort)
	if err != nil {
		return nil, 0, 0, err
	}
	return child, mcpPort, authPort, nil
}

// Stop ends the server (both ports) and waits for it.
func (s *OAuthServer) Stop() {
	if s != nil {
		s.child.Stop()
	}
}

// OAuthExampleRel is where the example server lives under the repository
// root once the web app's npm packages are installed.
var OAuthExampleRel = filepath.Join("webapp", "node_modules", "@modelcontextprotocol", "sdk",
	"dist", "esm", "examples", "server", "simpleStreamableHttp.js")

// FindOAuthExample locates the example server's script: $MCP_OAUTH_EXAMPLE_JS,
// else OAuthExampleRel here or in a parent.
func FindOAuthExample() (string, error) {
	p, err := localproc.FindUpward("MCP_OAUTH_EXAMPLE_JS", OAuthExampleRel,
		"MCP OAuth example server not found: run `make deps` (npm ci in webapp/) or set MCP_OAUTH_EXAMPLE_JS")
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(p); err != nil {
		return "", errors.New("MCP OAuth example server: " + err.Error())
	}
	return p, nil
}
