package devstack_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"aiwork/shared/httpx/secheaders"
	"aiwork/shared/local/devstack"
	"aiwork/shared/seeddata"
)

// serve runs h as the devserver does (devstack.NewServer) on a loopback
// port and answers its base URL.
func serve(t *testing.T, s devstack.Serving, h http.Handler) string {
	t.Helper()
	s.Host, s.Port = "127.0.0.1", "0"
	srv := devstack.NewServer(s, h)
	ln, err := net.Listen("tcp", srv.Addr)
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + ln.Addr().String()
}

func fastServing() devstack.Serving {
	return devstack.Serving{ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 5 * time.Second}
}

// The devserver answers with the headers CloudFront adds in AWS, from the
// same definition: on the app, on API answers (errors included), and on
// the local test checkout's Pay page, which therefore cannot be framed.
func TestDevserverSendsCloudFrontsSecurityHeaders(t *testing.T) {
	static := t.TempDir()
	for name, page := range map[string]string{
		"index.html":           "<!doctype html><title>app</title>",
		"mcp-app-sandbox.html": "<!doctype html><title>sandbox</title>",
	} {
		if err := os.WriteFile(filepath.Join(static, name), []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h, user := newDevstack(t, static, func(c *devstack.Config) {
		c.Prompts.FreePromptsPerUser, c.Payments.FreePromptsPerUser = 0, 0 // purchases go to checkout
	})
	base := serve(t, fastServing(), h)
	token := user("headers")

	get := func(path string) *http.Response {
		t.Helper()
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res
	}
	prompts, err := seeddata.Prompts()
	if err != nil || len(prompts) == 0 {
		t.Fatalf("catalogue: %v", err)
	}
	req, _ := http.NewRequest("POST", base+"/api/v1/payments/create-checkout-session", strings.NewReader(`{"prompt_id":"`+prompts[0].ID+`"}`))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var co struct {
		CheckoutURL string `json:"checkout_url"`
	}
	if err := json.NewDecoder(res.Body).Decode(&co); err != nil || res.StatusCode != 200 || !strings.HasPrefix(co.CheckoutURL, "/dev/checkout/") {
		t.Fatalf("checkout = %d %+v %v, want a local test checkout", res.StatusCode, co, err)
	}
	res.Body.Close()

	want := map[string]string{
		"Content-Security-Policy": secheaders.ContentSecurityPolicy(false, false),
		"X-Frame-Options":         "DENY",
		"X-Content-Type-Options":  "nosniff",
		"Referrer-Policy":         "strict-origin-when-cross-origin",
	}
	for _, tc := range []struct{ what, path string }{
		{"app", "/"},
		{"app route", "/dashboard"},
		{"API answer", "/api/v1/prompts/"},
		{"API error", "/api/v1/nothing"},
		{"local checkout Pay page", co.CheckoutURL},
	} {
		res := get(tc.path)
		if res.StatusCode != 200 && res.StatusCode != 404 {
			t.Errorf("%s: GET %s = %d", tc.what, tc.path, res.StatusCode)
		}
		for name, value := range want {
			if got := res.Header.Get(name); got != value {
				t.Errorf("%s: %s = %q, want %q", tc.what, name, got, value)
			}
		}
		csp := res.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("%s: CSP %q lets other sites frame the page", tc.what, csp)
		}
		// Plain HTTP: no HSTS, and no upgrade of the app's own requests to
		// an https port nothing listens on.
		if got := res.Header.Get("Strict-Transport-Security"); got != "" {
			t.Errorf("%s: HSTS %q over plain HTTP", tc.what, got)
		}
		if strings.Contains(csp, "upgrade-insecure-requests") {
			t.Errorf("%s: CSP %q upgrades requests over plain HTTP", tc.what, csp)
		}
	}

	// The MCP Apps sandbox page alone has its own headers: the product's
	// pages may frame it, and its policy (with http: sources, for the local
	// servers' views) is the ceiling of the views it renders.
	res = get(secheaders.SandboxPath)
	if res.StatusCode != 200 {
		t.Errorf("GET %s = %d", secheaders.SandboxPath, res.StatusCode)
	}
	for name, value := range map[string]string{
		"Content-Security-Policy": secheaders.SandboxContentSecurityPolicy(true),
		"X-Frame-Options":         "SAMEORIGIN",
		"X-Content-Type-Options":  "nosniff",
		"Referrer-Policy":         "no-referrer",
	} {
		if got := res.Header.Get(name); got != value {
			t.Errorf("sandbox page: %s = %q, want %q", name, got, value)
		}
	}
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'self'") || !strings.Contains(csp, "connect-src https: http:") {
		t.Errorf("sandbox page: CSP %q", csp)
	}
	if got := res.Header.Get("Strict-Transport-Security"); got != "" {
		t.Errorf("sandbox page: HSTS %q over plain HTTP", got)
	}
}

// A request whose body is trickled in a byte at a time is cut at
// ReadTimeout, not served whenever the last byte arrives.
func TestDevserverCutsATrickledBody(t *testing.T) {
	h, _ := newDevstack(t, "", nil)
	s := fastServing()
	s.ReadTimeout = 1 * time.Second
	base := serve(t, s, h)

	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"email":"slow@example.com","password":"secret-123"}`
	start := time.Now()
	if _, err := io.WriteString(conn, "POST /api/v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"+
		"Content-Length: "+itoa(len(body))+"\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	// One byte every 100 ms: the whole body would take over 5 s.
	answered := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(conn).ReadString('\n')
		answered <- line
	}()
	sent := 0
	var status string
trickle:
	for sent < len(body) {
		select {
		case status = <-answered:
			break trickle
		case <-time.After(100 * time.Millisecond):
		}
		if _, err := io.WriteString(conn, body[sent:sent+1]); err != nil {
			status = <-answered // the server closed the connection
			break
		}
		sent++
	}
	if sent == len(body) {
		status = <-answered
	}
	elapsed := time.Since(start)
	if sent == len(body) || elapsed > 4*time.Second {
		t.Fatalf("the server read the whole trickled body (%d of %d bytes in %v); want it cut after ReadTimeout (1 s)", sent, len(body), elapsed)
	}
	if strings.Contains(status, " 200 ") || strings.Contains(status, " 401 ") {
		t.Errorf("status line %q: the request was served", status)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// By default the devserver listens on loopback only, with read timeouts
// that refuse a body trickled over 23 s; HOST opens it on purpose.
func TestServingDefaults(t *testing.T) {
	for _, name := range []string{"HOST", "PORT", "READ_TIMEOUT", "READ_HEADER_TIMEOUT", "VITE_ANALYTICS_ID"} {
		t.Setenv(name, "")
	}
	s, err := devstack.LoadServing()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.Addr(), "127.0.0.1:8080"; got != want {
		t.Errorf("listen address = %q, want %q", got, want)
	}
	if got := devstack.NewServer(s, http.NotFoundHandler()); got.Addr != "127.0.0.1:8080" ||
		got.ReadTimeout != s.ReadTimeout || got.ReadHeaderTimeout != s.ReadHeaderTimeout {
		t.Errorf("server = %q, read %v, header %v; want the Serving's", got.Addr, got.ReadTimeout, got.ReadHeaderTimeout)
	}
	if s.ReadTimeout <= 0 || s.ReadTimeout >= 23*time.Second || s.ReadHeaderTimeout <= 0 || s.ReadHeaderTimeout > s.ReadTimeout {
		t.Errorf("read timeouts = header %v, whole request %v; want both set, under 23 s", s.ReadHeaderTimeout, s.ReadTimeout)
	}
	if got, want := s.URL(), "http://localhost:8080"; got != want {
		t.Errorf("URL = %q, want %q", got, want)
	}
	if s.Analytics {
		t.Error("analytics on without VITE_ANALYTICS_ID")
	}

	t.Setenv("HOST", "0.0.0.0")
	t.Setenv("PORT", "9090")
	t.Setenv("READ_TIMEOUT", "3s")
	if s, err = devstack.LoadServing(); err != nil {
		t.Fatal(err)
	}
	if got, want := s.Addr(), "0.0.0.0:9090"; got != want || s.ReadTimeout != 3*time.Second {
		t.Errorf("HOST=0.0.0.0 PORT=9090 READ_TIMEOUT=3s: %q, %v; want %q, 3s", got, s.ReadTimeout, want)
	}
	t.Setenv("READ_TIMEOUT", "soon")
	if _, err := devstack.LoadServing(); err == nil {
		t.Error("READ_TIMEOUT=soon accepted")
	}
}
