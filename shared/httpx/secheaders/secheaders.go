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

// Handler adds the security headers to every response of next, as
// CloudFront's response headers policy does in AWS (the devserver). HSTS
// goes out only over TLS: a browser must never pin HTTPS for a plain-HTTP
// local address.
func Handler(next http.Handler, analytics bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		Set(w.Header(), analytics, r.TLS != nil)
		next.ServeHTTP(w, r)
	})
}
