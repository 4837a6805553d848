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

// The MCP App example's tool, the view (ui:// resource) that tool declares
// in its _meta.ui.resourceUri, and the MIME type the view is served with.
const (
	AppExampleTool     = "get-time"
	AppExampleView     = "ui://get-time/mcp-app.html"
	AppExampleViewMIME = "text/html;profile=mcp-app"
)

// AppExampleRel is where the MCP App example server's entry point lives
// under the repository root once the web app's npm packages are installed
// (@modelcontextprotocol/server-basic-react, pinned in webapp/package.json).
var AppExampleRel = filepath.Join("webapp", "node_modules", "@modelcontextprotocol", "server-basic-react",
	"dist", "index.js")

// StartAppExample launches the MCP project's React example app server
// (@modelcontextprotocol/server-basic-react: one tool, get-time, whose
// result the server's view shows) on a free port and waits until it
// accepts connections. It speaks streamable HTTP at /mcp, statelessly.
// Its own code listens on every interface, not loopback only; the endpoint
// named here is the loopback one. The child gets an empty environment (PATH
// and PORT only) and its output is dropped, as the reference server's is.
func StartAppExample(ctx context.Context) (*Server, error) {
	script, err := FindAppExample()
	if err != nil {
		return nil, err
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("MCP App example server: node not found: %w", err)
	}
	port, err := localproc.FreePort()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(node, script)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "PORT=" + strconv.Itoa(port)}
	child, err := localproc.Serve(ctx, "MCP App example server", cmd, 60*time.Second, port)
	if err != nil {
		return nil, err
	}
	return &Server{Endpoint: fmt.Sprintf("http://127.0.0.1:%d/mcp", port), child: child}, nil
}

// FindAppExample locates the example server's entry point:
// $MCP_APP_EXAMPLE_JS, else AppExampleRel here or in a parent.
func FindAppExample() (string, error) {
	p, err := localproc.FindUpward("MCP_APP_EXAMPLE_JS", AppExampleRel,
		"MCP App example server not found: run `make deps` (npm ci in webapp/) or set MCP_APP_EXAMPLE_JS")
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(p); err != nil {
		return "", errors.New("MCP App example server: " + err.Error())
	}
	return p, nil
}
