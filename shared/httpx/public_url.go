package httpx

import (
	"net/http"
	"regexp"
	"strings"
	"sync"
)

// hostPattern is a host name or address with an optional port: nothing
// that could add a path, a user or a second host to a URL.
// Compiled on first use: a package-level regexp.MustCompile would run in
// every function's start-up (docs/benchmarks.md, Lambda init).
var hostPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?$`)
})

// PublicURL is where the browser reaches the app, for the links the API
// hands out (Stripe's success and cancel pages, the OAuth redirect URI,
// the links in mail):
//
//   - configured, when set (PUBLIC_URL);
//   - through the product's CloudFront (ViaOrigin, in AWS): https and the
//     host the browser asked CloudFront for, which the distribution itself
//     writes into X-Forwarded-Host (API Gateway sees its own Host);
//   - otherwise (the devserver): the request's own Host, http unless the
//     connection is TLS.
//
// X-Forwarded-Host and X-Forwarded-Proto from anyone else are never read:
// a client could otherwise send a victim a reset link, or a checkout whose
// success page, on a host of the client's choosing.
func PublicURL(r *http.Request, configured string) string {
	if configured != "" {
		return strings.TrimRight(configured, "/")
	}
	if ViaOrigin(r.Context()) {
		if h := strings.TrimSpace(r.Header.Get(ForwardedHostHeader)); hostPattern().MatchString(h) {
			return "https://" + h
		}
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	host := r.Host
	if !hostPattern().MatchString(host) {
		host = "localhost"
	}
	return scheme + "://" + host
}
