// Package localdynamo starts dynalite, a DynamoDB engine on Node.js, for local
// runs and tests: the real DynamoDB wire protocol, reached by the real SDK.
package localdynamo

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"aiwork/shared/testbed/localproc"
)

// serveScript starts dynalite so that a request cut halfway does not stop it.
//
//go:embed serve.cjs
var serveScript string

// Server is a running dynalite process.
type Server struct {
	Endpoint string
	child    *localproc.Child
}

// Options choose where dynalite keeps its data; an empty Path keeps it in memory.
type Options struct {
	Port int // 0 picks a free port
	Path string
}

// Start launches dynalite and waits until it accepts connections. The child
// is killed if this process dies, so no dynalite outlives its owner.
func Start(ctx context.Context, opts Options) (*Server, error) {
	cli, err := FindCLI()
	if err != nil {
		return nil, err
	}
	port := opts.Port
	if port == 0 {
		if port, err = localproc.FreePort(); err != nil {
			return nil, err
		}
	}
	options := map[string]any{"port": port, "host": "127.0.0.1", "createTableMs": 0, "deleteTableMs": 0, "updateTableMs": 0}
	if opts.Path != "" {
		if err := os.MkdirAll(opts.Path, 0o755); err != nil {
			return nil, fmt.Errorf("dynalite data dir: %w", err)
		}
		options["path"] = opts.Path
	}
	optionsJSON, err := json.Marshal(options)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("node", "-e", serveScript, filepath.Join(filepath.Dir(cli), "index.js"), string(optionsJSON))
	cmd.Stderr = os.Stderr
	child, err := localproc.Serve(ctx, "dynalite", cmd, 30*time.Second, port)
	if err != nil {
		return nil, err
	}
	return &Server{Endpoint: fmt.Sprintf("http://127.0.0.1:%d", port), child: child}, nil
}

// Stop ends dynalite and waits for it to exit.
func (s *Server) Stop() {
	if s != nil {
		s.child.Stop()
	}
}

// FindCLI locates dynalite's entry script: $DYNALITE_CLI, else
// webapp/node_modules/dynalite/cli.js in this directory or any parent.
func FindCLI() (string, error) {
	return localproc.FindUpward("DYNALITE_CLI", filepath.Join("webapp", "node_modules", "dynalite", "cli.js"),
		"dynalite not found: run `make deps` (npm ci in webapp/) or set DYNALITE_CLI")
}

// CPUTime answers the CPU time dynalite has used so far (localproc.Child.CPUTime).
func (s *Server) CPUTime() (time.Duration, error) { return s.child.CPUTime() }
