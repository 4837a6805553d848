// Package localmcp starts the MCP reference server
// (@modelcontextprotocol/server-everything, installed with the web app's npm
// packages) on a free loopback port, for local runs and tests: a real MCP
// server that needs no network and no key.
package localmcp

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"aiwork/shared/testbed/localproc"
)

// Modes the reference server speaks.
const (
	ModeStreamable = "streamableHttp" // serves /mcp
	ModeSSE        = "sse"            // serves /sse and /message
)

// Server is a running reference server.
type Server struct {
	// Endpoint is the MCP URL: .../mcp (streamable) or .../sse.
	Endpoint string
	child    *localproc.Child
}

// Start launches the reference server in mode and waits until it accepts
// connections. It gets an empty environment (PATH and PORT only): its
// get-env tool prints its environment to whoever connects.
func Start(ctx context.Context, mode string) (*Server, error) {
	bin, err := FindBin()
	if err != nil {
		return nil, err
	}
	port, err := localproc.FreePort()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, mode)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "PORT=" + strconv.Itoa(port)}
	child, err := localproc.Serve(ctx, "MCP reference server", cmd, 60*time.Second, port)
	if err != nil {
		return nil, err
	}
	path := "/mcp"
	if mode == ModeSSE {
		path = "/sse"
	}
	return &Server{Endpoint: fmt.Sprintf("http://127.0.0.1:%d%s", port, path), child: child}, nil
}

// Stop ends the server and waits for it.
func (s *Server) Stop() {
	if s != nil {
		s.child.Stop()
	}
}

// FindBin locates the reference server: $MCP_REFERENCE_SERVER_BIN, else
// webapp/node_modules/.bin/mcp-server-everything here or in a parent.
func FindBin() (string, error) {
	return localproc.FindUpward("MCP_REFERENCE_SERVER_BIN", filepath.Join("webapp", "node_modules", ".bin", "mcp-server-everything"),
		"MCP reference server not found: run `make deps` (npm ci in webapp/) or set MCP_REFERENCE_SERVER_BIN")
}
