// Package localproc runs the helper processes of local runs and tests (the
// DynamoDB engine, the MCP reference server): found in the web app's npm
// packages, on a free loopback port, dying with their owner.
package localproc

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// Child is a started helper process.
type Child struct {
	name string
	cmd  *exec.Cmd
	done chan error
}

// Start starts cmd in its own process group, killed if this process dies,
// so no helper outlives its owner.
func Start(name string, cmd *exec.Cmd) (*Child, error) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	c := &Child{name: name, cmd: cmd, done: make(chan error, 1)}
	go func() { c.done <- cmd.Wait() }()
	return c, nil
}

// Serve starts cmd (Start) and waits until it accepts connections on every
// port (WaitPort); on failure the child is stopped.
func Serve(ctx context.Context, name string, cmd *exec.Cmd, within time.Duration, ports ...int) (*Child, error) {
	c, err := Start(name, cmd)
	if err != nil {
		return nil, err
	}
	for _, port := range ports {
		if err := c.WaitPort(ctx, port, within); err != nil {
			c.Stop()
			return nil, err
		}
	}
	return c, nil
}

// WaitPort waits until the child accepts connections on 127.0.0.1:port; it
// fails early when the child exits or ctx ends.
func (c *Child) WaitPort(ctx context.Context, port int, within time.Duration) error {
	addr := "127.0.0.1:" + strconv.Itoa(port)
	deadline := time.Now().Add(within)
	tick := time.NewTicker(30 * time.Millisecond)
	defer tick.Stop()
	for time.Now().Before(deadline) {
		if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			return conn.Close()
		}
		select {
		case err := <-c.done:
			c.done <- err
			return fmt.Errorf("%s exited at start (port %d busy, or npm packages missing?): %v", c.name, port, err)
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
	return fmt.Errorf("%s did not start within %v", c.name, within)
}

// Stop ends the child's process group and waits for it: SIGTERM, then
// SIGKILL after 5 s.
func (c *Child) Stop() {
	if c == nil || c.cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-c.done:
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
		<-c.done
	}
}

// FindUpward answers $envVar when set, else rel (a path under the repository
// root, such as webapp/node_modules/...) in this directory or any parent;
// missing explains what to do when it is nowhere.
func FindUpward(envVar, rel, missing string) (string, error) {
	if p := os.Getenv(envVar); p != "" {
		return p, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, rel)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New(missing)
		}
		dir = parent
	}
}

// FreePort answers a loopback port that was free a moment ago, for a child
// to listen on. It is taken below the kernel's ephemeral range: a port
// from there (what listening on port 0 answers) is handed out again at
// once to the next process listening on port 0 or dialling out, so with
// several stacks starting side by side, a devserver and another stack's
// dynalite were given one port (and the first to bind took the other's
// requests). Below the range, only another FreePort picks the same port:
// never this process's (it remembers what it handed out, so helpers started
// side by side, such as the devserver's reference server and OAuth example,
// never share a port and answer each other's requests), one chance in
// thousands another process's.
func FreePort() (int, error) {
	handed.mu.Lock()
	defer handed.mu.Unlock()
	lo, hi := portRange()
	for range 50 {
		port := lo + rand.IntN(hi-lo)
		if !handed.ports[port] && free(port) {
			handed.ports[port] = true
			return port, nil
		}
	}
	for range 50 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, err
		}
		port := l.Addr().(*net.TCPAddr).Port
		_ = l.Close()
		if !handed.ports[port] {
			handed.ports[port] = true
			return port, nil
		}
	}
	return 0, errors.New("no free loopback port")
}

// handed is every port FreePort answered in this process.
var handed = struct {
	mu    sync.Mutex
	ports map[int]bool
}{ports: map[int]bool{}}

// portRange is pickRange; tests narrow it.
var portRange = pickRange

// free reports whether nothing listens on port.
func free(port int) bool {
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		return false
	}
	_ = l.Close()
	return true
}

// pickRange is where FreePort picks from: 10000 up to the start of the
// ephemeral range (net.ipv4.ip_local_port_range), or 20000–30000 when it
// cannot be read or starts too low to leave room.
func pickRange() (lo, hi int) {
	lo, hi = 20000, 30000
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return lo, hi
	}
	var start, end int
	if _, err := fmt.Sscan(string(b), &start, &end); err != nil || start < 12000 {
		return lo, hi
	}
	return 10000, start
}
