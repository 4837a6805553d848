// Package localdynamo starts dynalite, a DynamoDB engine on Node.js, for local
// runs and tests: the real DynamoDB wire protocol, reached by the real SDK.
package localdynamo

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

// Server is a running dynalite process.
type Server struct {
	Endpoint string
	cmd      *exec.Cmd
	done     chan error
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
		if port, err = freePort(); err != nil {
			return nil, err
		}
	}
	args := []string{cli, "--port", strconv.Itoa(port), "--host", "127.0.0.1",
		"--createTableMs", "0", "--deleteTableMs", "0", "--updateTableMs", "0"}
	if opts.Path != "" {
		if err := os.MkdirAll(opts.Path, 0o755); err != nil {
			return nil, fmt.Errorf("dynalite data dir: %w", err)
		}
		args = append(args, "--path", opts.Path)
	}
	cmd := exec.Command("node", args...)
	cmd.Stdout = nil
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start dynalite: %w", err)
	}
	s := &Server{Endpoint: fmt.Sprintf("http://127.0.0.1:%d", port), cmd: cmd, done: make(chan error, 1)}
	go func() { s.done <- cmd.Wait() }()
	if err := s.waitReady(ctx, port); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

func (s *Server) waitReady(ctx context.Context, port int) error {
	deadline := time.Now().Add(30 * time.Second)
	addr := "127.0.0.1:" + strconv.Itoa(port)
	for time.Now().Before(deadline) {
		select {
		case err := <-s.done:
			s.done <- err
			return fmt.Errorf("dynalite exited at start (port %d busy, or node modules missing?): %v", port, err)
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			c.Close()
			return nil
		}
		time.Sleep(30 * time.Millisecond)
	}
	return errors.New("dynalite did not start within 30s")
}

// Stop ends dynalite and waits for it to exit.
func (s *Server) Stop() {
	if s == nil || s.cmd.Process == nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
}

// FindCLI locates dynalite's entry script: $DYNALITE_CLI, else
// webapp/node_modules/dynalite/cli.js in this directory or any parent.
func FindCLI() (string, error) {
	if p := os.Getenv("DYNALITE_CLI"); p != "" {
		return p, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, "webapp", "node_modules", "dynalite", "cli.js")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("dynalite not found: run `make deps` (npm ci in webapp/) or set DYNALITE_CLI")
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
