// Package localmcp starts the MCP reference server
// (@modelcontextprotocol/server-everything, installed with the web app's npm
// packages) on a free loopback port, for local runs and tests: a real MCP
// server that needs no network and no key.
package localmcp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
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
	cmd      *exec.Cmd
	done     chan error
}

// Start launches the reference server in mode and waits until it accepts
// connections. It gets an empty environment (PATH and PORT only): its
// get-env tool prints its environment to whoever connects. The child is
// killed if this process dies.
func Start(ctx context.Context, mode string) (*Server, error) {
	bin, err := FindBin()
	if err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, mode)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "PORT=" + strconv.Itoa(port)}
	cmd.Stdout, cmd.Stderr = nil, nil
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start MCP reference server: %w", err)
	}
	path := "/mcp"
	if mode == ModeSSE {
		path = "/sse"
	}
	s := &Server{Endpoint: fmt.Sprintf("http://127.0.0.1:%d%s", port, path), cmd: cmd, done: make(chan error, 1)}
	go func() { s.done <- cmd.Wait() }()
	if err := s.waitReady(ctx, port); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

func (s *Server) waitReady(ctx context.Context, port int) error {
	addr := "127.0.0.1:" + strconv.Itoa(port)
	deadline := time.Now().Add(60 * time.Second)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for time.Now().Before(deadline) {
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			return c.Close()
		}
		select {
		case err := <-s.done:
			s.done <- err
			return fmt.Errorf("MCP reference server exited at start: %v", err)
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
	return errors.New("MCP reference server did not start within 60s")
}

// Stop ends the server (its whole process group) and waits for it.
func (s *Server) Stop() {
	if s == nil || s.cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-s.done
	}
}

// FindBin locates the reference server: $MCP_REFERENCE_SERVER_BIN, else
// webapp/node_modules/.bin/mcp-server-everything here or in a parent.
func FindBin() (string, error) {
	if p := os.Getenv("MCP_REFERENCE_SERVER_BIN"); p != "" {
		return p, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, "webapp", "node_modules", ".bin", "mcp-server-everything")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("MCP reference server not found: run `make deps` (npm ci in webapp/) or set MCP_REFERENCE_SERVER_BIN")
		}
		dir = parent
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
