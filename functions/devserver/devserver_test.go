package main_test

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"aiwork/shared/testbed/localproc"
)

// The devserver as `make run` runs it: a real process with its own dynalite.
// Stopping it must leave no process behind, and data must survive a restart.

// build answers the devserver binary: DEVSERVER_BIN when make test built
// it already (one compile for every suite), else built here.
func build(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("DEVSERVER_BIN"); bin != "" {
		return bin
	}
	bin := filepath.Join(t.TempDir(), "devserver")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

func freePort(t *testing.T) int {
	t.Helper()
	port, err := localproc.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	return port
}

type server struct {
	cmd  *exec.Cmd
	port int
	url  string
	logs *lockedBuffer // read while the process writes it
}

// launch starts the devserver on a free port, without waiting for it.
func launch(t *testing.T, bin, dataDir string) *server {
	t.Helper()
	port := freePort(t)
	cmd := exec.Command(bin)
	cmd.Dir = "../.." // repository root, where webapp/node_modules/dynalite lives
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port), "DATA_DIR="+dataDir, "STATIC_DIR="+t.TempDir(), "AWS_ENDPOINT_URL_DYNAMODB=", "JWT_SECRET=")
	logs := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }) // reaped even when a test fails first
	return &server{cmd: cmd, port: port, url: fmt.Sprintf("http://127.0.0.1:%d", port), logs: logs}
}

// start launches the devserver and waits until it answers healthy.
func start(t *testing.T, bin, dataDir string) *server {
	t.Helper()
	s := launch(t, bin, dataDir)
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if res, err := http.Get(s.url + "/api/v1/auth/health"); err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return s
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("devserver did not become healthy:\n%s", s.logs)
	return nil
}

// children lists the pids whose parent is pid (started by any of its threads).
func children(pid int) []int {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	var out []int
	for _, task := range tasks {
		raw, _ := os.ReadFile(task)
		for _, f := range strings.Fields(string(raw)) {
			n, _ := strconv.Atoi(f)
			out = append(out, n)
		}
	}
	return out
}

func alive(pid int) bool {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// A zombie ("Z") has exited.
	fields := strings.Fields(string(raw))
	return len(fields) > 2 && fields[2] != "Z"
}

func (s *server) stop(t *testing.T, sig syscall.Signal) {
	t.Helper()
	kids := children(s.cmd.Process.Pid)
	if len(kids) == 0 {
		t.Fatalf("devserver started no dynalite child")
	}
	if err := s.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatalf("devserver did not stop on %v", sig)
	}
	deadline := time.Now().Add(30 * time.Second)
	for _, k := range kids {
		for alive(k) && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		if alive(k) {
			t.Errorf("child %d (dynalite) still running after the devserver stopped", k)
		}
	}
}

func register(t *testing.T, url, email string) int {
	t.Helper()
	body := fmt.Sprintf(`{"email":%q,"username":"u%d","full_name":"Persist Test","password":"secret-1"}`, email, time.Now().UnixNano()%1e9)
	res, err := http.Post(url+"/api/v1/auth/register", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

func TestStopsEverythingAndKeepsData(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	bin := build(t)
	dataDir := t.TempDir()

	first := start(t, bin, dataDir)
	if got := register(t, first.url, "persist@example.com"); got != 201 {
		t.Fatalf("register = %d\n%s", got, first.logs)
	}
	first.stop(t, syscall.SIGINT)

	// Same data directory: the account is still there, and so is the
	// generated JWT secret (the email is taken, not silently re-created).
	second := start(t, bin, dataDir)
	if got := register(t, second.url, "PERSIST@example.com"); got != 409 {
		t.Errorf("register after restart = %d, want 409 (data lost?)", got)
	}
	res, err := http.Get(second.url + "/api/v1/nothing")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 404 || res.Header.Get("Content-Type") != "application/json" {
		t.Errorf("unknown API path = %d %s, want JSON 404", res.StatusCode, res.Header.Get("Content-Type"))
	}
	second.stop(t, syscall.SIGTERM)
}

// lockedBuffer is a process's output, read while it is written.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// The devserver holds its port before it starts its helper processes, so
// that no helper of another devserver starting beside it (the browser
// suites run several) can be handed that port meanwhile.
func TestHoldsItsPortBeforeItsHelpersStart(t *testing.T) {
	s := launch(t, build(t), t.TempDir())
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(s.logs.String(), "dynalite started") {
		if time.Now().After(deadline) {
			t.Fatalf("dynalite did not start:\n%s", s.logs)
		}
		time.Sleep(20 * time.Millisecond)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)))
	if err == nil {
		ln.Close()
		t.Fatalf("port %d was free after dynalite started: the devserver had not taken it yet", s.port)
	}
}
