package payments_test

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v84"

	"aiwork/shared/store/storetest"
)

// TestMain runs the package's tests, then stops the dynalite and the
// stripe-mock they started.
func TestMain(m *testing.M) {
	// Refusals are what some tests ask for; keep stripe-go from logging them.
	stripe.DefaultLeveledLogger = &stripe.LeveledLogger{Level: stripe.LevelNull}
	code := storetest.Main(m)
	stripeMock.stop()
	os.Exit(code)
}

// stripeMock is one stripe-mock process for the test binary, started on the
// first test that needs it.
var stripeMock mockServer

type mockServer struct {
	once sync.Once
	cmd  *exec.Cmd
	done chan struct{}
	url  string
	err  error
}

// stripeMockURL starts stripe-mock (once) and answers its HTTP address.
func stripeMockURL(t *testing.T) string {
	t.Helper()
	stripeMock.once.Do(func() { stripeMock.url, stripeMock.err = startStripeMock() })
	if stripeMock.err != nil {
		t.Fatalf("stripe-mock: %v", stripeMock.err)
	}
	return stripeMock.url
}

const installHint = "`make test` installs it with `go install github.com/stripe/stripe-mock@v0.203.0`"

// findStripeMock looks where `make test` and a developer put the program:
// $STRIPE_MOCK_BIN, PATH, the repository's .bin, then GOPATH/bin.
func findStripeMock() (string, error) {
	if p := os.Getenv("STRIPE_MOCK_BIN"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("STRIPE_MOCK_BIN=%s: %w; %s", p, err, installHint)
		}
		return p, nil
	}
	if p, err := exec.LookPath("stripe-mock"); err == nil {
		return p, nil
	}
	candidates := []string{}
	if wd, err := os.Getwd(); err == nil {
		// shared/payments → the repository root's .bin.
		candidates = append(candidates, filepath.Clean(filepath.Join(wd, "..", "..", ".bin", "stripe-mock")))
	}
	candidates = append(candidates, "/work/main/.bin/stripe-mock")
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
			gopath = strings.TrimSpace(string(out))
		}
	}
	for _, dir := range filepath.SplitList(gopath) {
		candidates = append(candidates, filepath.Join(dir, "bin", "stripe-mock"))
	}
	for i, c := range candidates {
		if slices.Contains(candidates[:i], c) {
			continue
		}
		if st, err := os.Stat(c); err == nil && !st.IsDir() {
			return c, nil
		}
	}
	return "", fmt.Errorf("stripe-mock not found (looked at $STRIPE_MOCK_BIN, PATH, %s); %s", strings.Join(slices.Compact(candidates), ", "), installHint)
}

var listening = regexp.MustCompile(`Listening for HTTP at address: (\S+)`)

// startStripeMock runs stripe-mock on loopback ports the system picks and
// reads the HTTP address it reports.
func startStripeMock() (string, error) {
	bin, err := findStripeMock()
	if err != nil {
		return "", err
	}
	cmd := exec.Command(bin, "-http-addr", "127.0.0.1:0", "-https-addr", "127.0.0.1:0")
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("start %s: %w", bin, err)
	}
	stripeMock.cmd = cmd
	stripeMock.done = make(chan struct{})
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case addr <- m[1]:
				default:
				}
			}
		}
		_ = cmd.Wait()
		close(stripeMock.done)
	}()
	select {
	case a := <-addr:
		if err := waitAnswers(a); err != nil {
			stripeMock.stop()
			return "", err
		}
		return "http://" + a, nil
	case <-stripeMock.done:
		return "", fmt.Errorf("%s exited before listening", bin)
	case <-time.After(30 * time.Second):
		stripeMock.stop()
		return "", fmt.Errorf("%s did not start listening within 30 s", bin)
	}
}

// stop ends the process this test binary started, if any.
func (s *mockServer) stop() {
	if s.cmd == nil || s.cmd.Process == nil {
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

// waitAnswers waits until addr accepts connections.
func waitAnswers(addr string) error {
	deadline := time.Now().Add(60 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			return c.Close()
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("stripe-mock at %s does not answer: %w", addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
