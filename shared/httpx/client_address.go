package httpx

import (
	"context"
	"crypto/subtle"
	"net"
	"net/http"
	"strings"
)

// Headers the product's CloudFront sets on every /api/* request
// (infra/stack/site.go), replacing any value the browser sent.
const (
	// OriginSecretHeader carries the deployment's origin secret
	// (ORIGIN_SECRET, generated in Secrets Manager): a request holding it
	// came through the distribution, not straight to the API's own
	// execute-api address.
	OriginSecretHeader = "X-Origin-Secret"
	// ViewerAddressHeader is the address CloudFront saw the browser at.
	ViewerAddressHeader = "X-Viewer-Address"
	// ForwardedHostHeader is the Host the browser asked CloudFront for.
	ForwardedHostHeader = "X-Forwarded-Host"
)

type originKey struct{}

// RequireOrigin lets through only requests carrying the origin secret: in
// AWS every function serves the API only to the product's CloudFront, and a
// request sent straight to the API's execute-api address gets a JSON 403.
// A request let through is marked (ViaOrigin) so that the headers
// CloudFront writes (X-Viewer-Address, X-Forwarded-Host) are trusted; the
// secret itself is removed before the handler sees the request. An empty
// secret (the devserver) checks nothing and marks nothing: locally no
// header can choose the client's address or the public host.
func RequireOrigin(secret string, next http.Handler) http.Handler {
	if secret == "" {
		return next
	}
	want := []byte(secret)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := r.Header.Get(OriginSecretHeader)
		if subtle.ConstantTimeCompare([]byte(got), want) != 1 {
			WriteError(w, r, Forbidden("This API answers only through the site's own address."))
			return
		}
		r = r.WithContext(context.WithValue(r.Context(), originKey{}, true))
		r.Header.Del(OriginSecretHeader)
		next.ServeHTTP(w, r)
	})
}

// ViaOrigin reports whether RequireOrigin checked this request's origin
// secret: it came through the product's CloudFront.
func ViaOrigin(ctx context.Context) bool {
	v, _ := ctx.Value(originKey{}).(bool)
	return v
}

// ClientAddress is the address a request came from, for per-address
// throttles (sign-in, registration, password reset).
//
//   - Through the product's CloudFront (ViaOrigin): the viewer's address,
//     which the distribution writes into X-Viewer-Address. API Gateway's
//     sourceIp would be the CloudFront edge, shared by everyone behind it.
//   - Otherwise (the devserver): the TCP peer the server itself saw.
//
// X-Forwarded-For is never read: any client can write it.
func ClientAddress(r *http.Request) string {
	if ViaOrigin(r.Context()) {
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
