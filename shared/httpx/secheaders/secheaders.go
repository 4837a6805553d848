// Package secheaders is the one definition of the security headers every
// response of the product carries: in AWS CloudFront adds them (the stack's
// response headers policy is built from these values, infra/stack/site.go),
// locally the devserver does (Handler). Both therefore send the same
// Content-Security-Policy, framing, sniffing and referrer rules.
package secheaders

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Fixed header values.
const (
	// ContentTypeOptions stops browsers from guessing a type other than
	// the one declared.
	ContentTypeOptions = "nosniff"
	// FrameOptions forbids framing everywhere (with CSP frame-ancestors
	// 'none' for browsers that read only one of the two).
	FrameOptions = "DENY"
	// ReferrerPolicy sends other sites the origin only, never a path or a
	// query (tokens in ?token= links never leave in a Referer).
	ReferrerPolicy = "strict-origin-when-cross-origin"
	// HSTSMaxAge and HSTSIncludeSubdomains make Strict-Transport-Security,
	// sent on HTTPS responses only.
	HSTSMaxAge            = 365 * 24 * time.Hour
	HSTSIncludeSubdomains = true
)

// ContentSecurityPolicy allows the app's own scripts, styles (plus inline
// styles: Amplify UI's theme injects a <style> element), images (and data:
// URIs) and API calls; nothing may frame the app. Google sign-in and Stripe
// checkout are top-level navigations, which CSP does not restrict.
// analytics widens it for Google Analytics 4 (a web app built with
// VITE_ANALYTICS_ID). https adds upgrade-insecure-requests, which only makes
// sense on a site served over HTTPS (CloudFront): on the devserver's plain
// http://127.0.0.1 it would send the app's own requests to an https port
// nothing listens on.
func ContentSecurityPolicy(analytics, https bool) string {
	script, connect, img := "'self'", "'self'", "'self' data:"
	if analytics {
		// Google's documented CSP for Google Analytics 4 (gtag.js).
		script += " https://*.googletagmanager.com"
		connect += " https://*.google-analytics.com https://*.analytics.google.com https://*.googletagmanager.com"
		img += " https://*.google-analytics.com https://*.googletagmanager.com"
	}
	directives := []string{
		"default-src 'self'",
		"script-src " + script,
		"style-src 'self' 'unsafe-inline'",
		"img-src " + img,
		"font-src 'self' data:",
		"connect-src " + connect,
		"object-src 'none'",
		"base-uri 'self'",
		"form-action 'self'",
		"frame-ancestors 'none'",
	}
	if https {
		directives = append(directives, "upgrade-insecure-requests")
	}
	return strings.Join(directives, "; ")
}

// StrictTransportSecurity is the HSTS header value.
func StrictTransportSecurity() string {
	v := "max-age=" + strconv.Itoa(int(HSTSMaxAge/time.Second))
	if HSTSIncludeSubdomains {
		v += "; includeSubDomains"
	}
	return v
}

// Set writes the security headers of one response: CSP, X-Frame-Options,
// X-Content-Type-Options, Referrer-Policy, and HSTS when https.
func Set(h http.Header, analytics, https bool) {
	h.Set("Content-Security-Policy", ContentSecurityPolicy(analytics, https))
	h.Set("X-Frame-Options", FrameOptions)
	h.Set("X-Content-Type-Options", ContentTypeOptions)
	h.Set("Referrer-Policy", ReferrerPolicy)
	if https {
		h.Set("Strict-Transport-Security", StrictTransportSecurity())
	}
}

// SandboxPath is the web app's MCP Apps sandbox proxy page: the chat frames
// it (<iframe sandbox="allow-scripts">, so it runs with an opaque origin),
// and it renders a server's view in an inner srcdoc frame. It alone is
// served with the sandbox's headers (SetSandbox) instead of the site's;
// CloudFront gives it its own behaviour and headers policy.
const SandboxPath = "/mcp-app-sandbox.html"

// The sandbox page's fixed header values.
const (
	// SandboxFrameOptions lets the product's own pages frame the sandbox
	// page, and no one else (with CSP frame-ancestors 'self').
	SandboxFrameOptions = "SAMEORIGIN"
	// SandboxReferrerPolicy sends no Referer at all from the sandbox: a
	// view's requests never tell its servers which conversation they come
	// from.
	SandboxReferrerPolicy = "no-referrer"
)

// SandboxContentSecurityPolicy is the sandbox page's CSP. A srcdoc frame
// inherits its parent's policy, so this is the ceiling of every view: the
// view's own narrower policy (built from the domains its resource
// declares) is added inside the frame by the page. Scripts and styles may
// be inline (a view is one HTML document) or from any https origin the
// view declares; nothing may be posted as a form, no base URL may be set,
// and only the product's own pages may frame it. allowHTTP adds http: beside
// every https: source, for the devserver only, whose local MCP servers
// serve views from plain-HTTP loopback addresses; never in AWS.
func SandboxContentSecurityPolicy(allowHTTP bool) string {
	remote := "https:"
	if allowHTTP {
		remote += " http:"
	}
	return strings.Join([]string{
		"default-src 'none'",
		"script-src 'unsafe-inline' " + remote,
		"style-src 'unsafe-inline' " + remote,
		"img-src data: blob: " + remote,
		"font-src data: " + remote,
		"media-src data: blob: " + remote,
		"connect-src " + remote,
		"frame-src 'self' blob: data:",
		"form-action 'none'",
		"base-uri 'none'",
		"frame-ancestors 'self'",
	}, "; ")
}

// SetSandbox writes the sandbox page's headers: its CSP (with http: sources
// when allowHTTP), X-Frame-Options SAMEORIGIN, nosniff, no referrer, and HSTS
// when https.
func SetSandbox(h http.Header, allowHTTP, https bool) {
	h.Set("Content-Security-Policy", SandboxContentSecurityPolicy(allowHTTP))
	h.Set("X-Frame-Options", SandboxFrameOptions)
	h.Set("X-Content-Type-Options", ContentTypeOptions)
	h.Set("Referrer-Policy", SandboxReferrerPolicy)
	if https {
		h.Set("Strict-Transport-Security", StrictTransportSecurity())
	}
}

// Handler adds the security headers to every response of next, as
// CloudFront's response headers policies do in AWS (the devserver): the
// sandbox page (SandboxPath, that exact path) gets the sandbox's, with
// http: sources, every other path the site's. HSTS goes out only over TLS:
// a browser must never pin HTTPS for a plain-HTTP local address.
func Handler(next http.Handler, analytics bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == SandboxPath {
			SetSandbox(w.Header(), true, r.TLS != nil)
		} else {
			Set(w.Header(), analytics, r.TLS != nil)
		}
		next.ServeHTTP(w, r)
	})
}
