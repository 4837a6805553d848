package devstack_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"aiwork/shared/api/chatapi"
	"aiwork/shared/domain"
)

// A chat message whose text holds this is held by the test upstream after
// its first chunk until the function process that asked is killed.
const holdUntilKilled = "hold until killed"

// killFunction sends SIGKILL to every process of this test's stack
// running the function's binary (as the machine would on an out-of-memory
// kill), and answers how many it killed. Only this process's children: the
// binaries may be shared with another suite running at the same time.
func killFunction(t *testing.T, s *lambdaStack, function string) int {
	t.Helper()
	bin := filepath.Join(s.binDir, function)
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("no /proc to find the function's processes: %v", err)
	}
	killed := 0
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || string(bytes.SplitN(cmdline, []byte{0}, 2)[0]) != bin || parentOf(e.Name()) != os.Getpid() {
			continue
		}
		if syscall.Kill(pid, syscall.SIGKILL) == nil {
			killed++
		}
	}
	return killed
}

// The chat function's process is killed while it streams a reply (issue
// 26): the client's stream is cut (no [DONE]), and the next message is
// served by a fresh process, with the user's connection still there.
func testKilledMidStream(t *testing.T, s *lambdaStack) {
	token := s.register(t, "killedstream")
	_, body := s.do(t, request{function: "mcp", method: "POST", path: "/api/v1/mcp-connections/openai", body: []byte(`{"model":"gpt-4o-mini"}`), token: token}, http.StatusOK)
	var conn struct{ ID string }
	if err := json.Unmarshal(body, &conn); err != nil || conn.ID == "" {
		t.Fatalf("connection: %s (%v)", body, err)
	}
	chat := s.stack.Gateway.Functions["chat"]
	msg := func(text string) []byte {
		b, _ := json.Marshal(map[string]any{"connection_id": conn.ID, "message": text, "model": "gpt-4o-mini", "context": []any{}})
		return b
	}
	r := request{function: "chat", method: "POST", path: chatapi.Path, body: msg(holdUntilKilled), token: token, note: "killed mid-stream"}
	res := s.send(t, r)
	defer res.Body.Close()
	read := make([]byte, 0, 4096)
	buf := make([]byte, 4096)
	for !bytes.Contains(read, []byte(`"content":"Hello"`)) {
		n, err := res.Body.Read(buf)
		read = append(read, buf[:n]...)
		if err != nil {
			t.Fatalf("%s: the stream ended after %q before its first content", r.what(), read)
		}
	}
	colds := chat.Stats().Cold
	if n := killFunction(t, s, "chat"); n == 0 {
		t.Fatal("no chat process to kill")
	}
	rest, err := io.ReadAll(res.Body)
	if err == nil && bytes.Contains(rest, []byte("[DONE]")) {
		t.Fatalf("%s: the process was killed, yet the stream ended cleanly: %q", r.what(), rest)
	}
	_, after := s.do(t, request{function: "chat", method: "POST", path: chatapi.Path, body: msg("Hi again"), token: token, note: "after the kill"}, http.StatusOK)
	if !strings.Contains(string(after), "[DONE]") {
		t.Fatalf("the message after the kill: %q", after)
	}
	if chat.Stats().Cold <= colds {
		t.Errorf("the message after the kill was served by a warm process (%d cold starts, %d before)", chat.Stats().Cold, colds)
	}
}

// The mcp function's process is killed while it handles a buffered
// request (a connect waiting on a server's handshake): the gateway answers
// 502, the next connect is served by a fresh process, and the killed
// connect stored nothing.
func testKilledMidRequest(t *testing.T, s *lambdaStack) {
	token := s.register(t, "killedrequest")
	arrived := make(chan struct{}, 4)
	held := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			_, _ = io.Copy(io.Discard, r.Body)
			arrived <- struct{}{}
			<-r.Context().Done()
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(held.Close)
	ctx := context.Background()
	if err := s.st.UpsertMCPServer(ctx, domain.MCPServer{ID: "held", Name: "test/held", Title: "Held", EndpointURL: held.URL + "/mcp",
		Transport: domain.TransportStreamableHTTP, ModelType: "code", IsActive: true, Source: "local"}); err != nil {
		t.Fatal(err)
	}
	mcpFn := s.stack.Gateway.Functions["mcp"]
	r := request{function: "mcp", method: "POST", path: "/api/v1/mcp-connections/", body: []byte(`{"server_id":"held"}`), token: token, note: "killed mid-request"}
	answered := make(chan int, 1)
	go func() {
		res := s.send(t, r)
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		answered <- res.StatusCode
	}()
	select {
	case <-arrived:
	case <-time.After(lambdaBound):
		t.Fatalf("%s: the handshake never reached the server", r.what())
	}
	colds := mcpFn.Stats().Cold
	if n := killFunction(t, s, "mcp"); n == 0 {
		t.Fatal("no mcp process to kill")
	}
	select {
	case code := <-answered:
		if code != http.StatusBadGateway {
			t.Errorf("%s = %d, want the gateway's 502", r.what(), code)
		}
	case <-time.After(lambdaBound):
		t.Fatalf("%s: no answer after its process was killed", r.what())
	}
	_, list := s.do(t, request{function: "mcp", method: "GET", path: "/api/v1/mcp-connections/", token: token, note: "after the kill"}, http.StatusOK)
	if strings.Contains(string(list), `"held"`) {
		t.Errorf("the killed connect stored a connection: %s", list)
	}
	if mcpFn.Stats().Cold <= colds {
		t.Errorf("the request after the kill was served by a warm process (%d cold starts, %d before)", mcpFn.Stats().Cold, colds)
	}
}

// parentOf is the parent process id of /proc/<pid> (0 when unknown). The
// command name in /proc/<pid>/stat is in parentheses and may hold spaces,
// so the fields are read after its closing one.
func parentOf(pid string) int {
	stat, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0
	}
	fields := strings.Fields(string(stat[i+1:])) // state, ppid, ...
	if len(fields) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}
