package httpx

import (
	"crypto/subtle"
	"net"
	"net/http"
	"strings"
)

// Headers the product's CloudFront sets on every /api/* request
// (infra/stack/site.go), replacing any value the browser sent.
const (
	// OriginTokenHeader carries the deployment's origin token (ORIGIN_TOKEN):
	// a request holding it came through the distribution, not straight to
	// the API's own address.
	OriginTokenHeader = "X-Origin-Token"
	// ViewerAddressHeader is the address CloudFront saw the browser at.
	ViewerAddressHeader = "X-Viewer-Address"
)

// FromOrigin reports whether r came through the product's CloudFront: it
// carries originToken. An empty token (the devserver) is never matched.
func FromOrigin(r *http.Request, originToken string) bool {
	got := r.Header.Get(OriginTokenHeader)
	return originToken != "" && subtle.ConstantTimeCompare([]byte(got), []byte(originToken)) == 1
}

// ClientAddress is the address a request came from, for per-address
// throttles (sign-in, registration, password reset).
//
//   - Through the product's CloudFront (FromOrigin): the viewer's address,
//     which the distribution writes into X-Viewer-Address. API Gateway's
//     sourceIp would be the CloudFront edge, shared by everyone behind it.
//   - Otherwise: the peer the server itself saw, the TCP peer on the
//     devserver and API Gateway's sourceIp in Lambda (a request sent
//     straight to the API's execute-api address).
//
// X-Forwarded-For is never read: any client can write it.
func ClientAddress(r *http.Request, originToken string) string {
	if FromOrigin(r, originToken) {
		if v := strings.TrimSpace(r.Header.Get(ViewerAddressHeader)); net.ParseIP(v) != nil {
			return v
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr // API Gateway's sourceIp has no port
	}
	return host
}
