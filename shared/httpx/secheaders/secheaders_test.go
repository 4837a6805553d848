package secheaders_test

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"aiwork/shared/httpx/secheaders"
)

// The sandbox page's policy, word for word as the web app's sandbox and
// CloudFront rely on it: on the devserver with http: sources, in AWS
// without.
func TestSandboxContentSecurityPolicy(t *testing.T) {
	const local = "default-src 'none'; script-src 'unsafe-inline' https: http:; style-src 'unsafe-inline' https: http:; " +
		"img-src data: blob: https: http:; font-src data: https: http:; media-src data: blob: https: http:; connect-src https: http:; " +
		"frame-src 'self' blob: data:; form-action 'none'; base-uri 'none'; frame-ancestors 'self'"
	if got := secheaders.SandboxContentSecurityPolicy(true); got != local {
		t.Errorf("devserver sandbox CSP\n %q\nwant\n %q", got, local)
	}
	aws := strings.ReplaceAll(local, " http:", "")
	got := secheaders.SandboxContentSecurityPolicy(false)
	if got != aws {
		t.Errorf("AWS sandbox CSP\n %q\nwant\n %q", got, aws)
	}
	for _, bad := range []string{"http:", "*", "'unsafe-eval'", "allow-same-origin"} {
		if strings.Contains(got, bad) {
			t.Errorf("AWS sandbox CSP %q has %q", got, bad)
		}
	}
}

// Through the devserver's wrapper, the sandbox page alone (that exact
// path, any query) gets the sandbox's headers; every other path, lookalikes
// included, keeps the site's, which no page may frame.
func TestHandlerGivesTheSandboxPageItsOwnHeaders(t *testing.T) {
	h := secheaders.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}), false)
	get := func(target string, tls *tls.ConnectionState) http.Header {
		t.Helper()
		r := httptest.NewRequest(http.MethodGet, target, nil)
		r.TLS = tls
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Result().Header
	}

	sandbox := map[string]string{
		"Content-Security-Policy": secheaders.SandboxContentSecurityPolicy(true),
		"X-Frame-Options":         "SAMEORIGIN",
		"X-Content-Type-Options":  "nosniff",
		"Referrer-Policy":         "no-referrer",
	}
	for _, target := range []string{"/mcp-app-sandbox.html", "/mcp-app-sandbox.html?v=2"} {
		got := get(target, nil)
		for name, want := range sandbox {
			if got.Get(name) != want {
				t.Errorf("GET %s: %s = %q, want %q", target, name, got.Get(name), want)
			}
		}
		if hsts := got.Get("Strict-Transport-Security"); hsts != "" {
			t.Errorf("GET %s over plain HTTP: HSTS %q", target, hsts)
		}
	}
	if hsts := get("/mcp-app-sandbox.html", &tls.ConnectionState{}).Get("Strict-Transport-Security"); hsts != secheaders.StrictTransportSecurity() {
		t.Errorf("sandbox page over TLS: HSTS %q", hsts)
	}

	for _, target := range []string{"/", "/llm-chat", "/index.html", "/api/v1/chat/apps/view", "/assets/index-abc.js",
		"/mcp-app-sandbox.htm", "/mcp-app-sandbox.html/", "/MCP-APP-SANDBOX.HTML", "/x/mcp-app-sandbox.html", "/mcp-app-sandbox.html.map"} {
		got := get(target, nil)
		if csp := got.Get("Content-Security-Policy"); csp != secheaders.ContentSecurityPolicy(false, false) || !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("GET %s: CSP %q, want the site's", target, csp)
		}
		if fo := got.Get("X-Frame-Options"); fo != "DENY" {
			t.Errorf("GET %s: X-Frame-Options %q, want DENY", target, fo)
		}
		if rp := got.Get("Referrer-Policy"); rp != secheaders.ReferrerPolicy {
			t.Errorf("GET %s: Referrer-Policy %q", target, rp)
		}
	}
}
