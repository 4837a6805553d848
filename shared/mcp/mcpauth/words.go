package mcpauth

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"regexp"
	"strconv"
	"strings"
	"syscall"

	"aiwork/shared/clip"
	"aiwork/shared/mcp"
)

// failed is an *Error saying what failed in the product's words, keeping
// cause (the Go error, which names calls and wraps URLs) for logs only.
func failed(cause error, format string, args ...any) error {
	return &Error{Detail: fmt.Sprintf(format, args...), cause: cause}
}

// badStatus is the go-sdk's oauthex answer to a non-200 metadata fetch;
// its error type is unexported and GetAuthServerMeta flattens it to text,
// so the status is read back from the text.
var badStatus = regexp.MustCompile(`\bbad status (\d{3})\b`)

// why is what went wrong with one request of the sign-in, as a short
// phrase for a sentence ("HTTP 404", "it could not be reached"): never the
// error's own text.
func why(err error) string {
	var (
		me      *mcp.Error
		dnsErr  *net.DNSError
		netErr  net.Error
		certErr *tls.CertificateVerificationError
		unkAuth x509.UnknownAuthorityError
		hostErr x509.HostnameError
		syntax  *json.SyntaxError
		typeErr *json.UnmarshalTypeError
	)
	if err == nil {
		return "no answer"
	}
	text := err.Error()
	switch {
	case errors.As(err, &me):
		// The outbound rules and the MCP client speak the product's words already.
		return lowerFirst(strings.TrimSuffix(me.Detail, "."))
	case strings.Contains(text, "The endpoint is a private or local address and is refused"):
		return "the address is a private or local one and is refused"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return "no answer in time"
	case errors.As(err, &dnsErr):
		return "the host name could not be found"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "the connection was refused"
	case errors.As(err, &certErr), errors.As(err, &unkAuth), errors.As(err, &hostErr):
		return "the TLS certificate is not valid"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET):
		return "the connection was closed before an answer"
	case badStatus.MatchString(text):
		code, _ := strconv.Atoi(badStatus.FindStringSubmatch(text)[1])
		return fmt.Sprintf("HTTP %d", code)
	case strings.Contains(text, "bad content type"):
		return "the answer is not JSON"
	case errors.As(err, &syntax), errors.As(err, &typeErr), strings.Contains(text, "invalid character"), strings.Contains(text, "cannot unmarshal"):
		return "the answer is not valid JSON"
	case strings.Contains(text, "got metadata resource"):
		return "it names another server than this one"
	case strings.Contains(text, "does not match issuer"):
		return "it names another authorization server than this one"
	case strings.Contains(text, "does not use HTTPS"), strings.Contains(text, "non-HTTPS"), strings.Contains(text, "disallowed scheme"):
		return "an address that is not https"
	case strings.Contains(text, "non-public"), strings.Contains(text, "loopback address"):
		return "the address is a private or local one and is refused"
	case strings.Contains(text, "redirects"):
		return "too many redirects"
	case strings.Contains(text, "does not implement PKCE"):
		return "it does not offer PKCE"
	}
	return "an answer that could not be used"
}

// shownURL is a URL as a sentence quotes it: cut short.
func shownURL(u string) string { return clip.WithEllipsis(u, 200) }

func lowerFirst(s string) string {
	if s == "" || strings.HasPrefix(s, "HTTP") || strings.HasPrefix(s, "TLS") || strings.HasPrefix(s, "MCP") {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// oauthErrorCodes are the error codes RFC 6749 defines for the
// authorization response (§4.1.2.1) and the token endpoint (§5.2): a
// refusal names one of these, or none (a server's own code or
// description is a text the product does not repeat).
var oauthErrorCodes = map[string]bool{
	"invalid_request": true, "unauthorized_client": true, "access_denied": true, "unsupported_response_type": true,
	"invalid_scope": true, "server_error": true, "temporarily_unavailable": true, "invalid_client": true,
	"invalid_grant": true, "unsupported_grant_type": true,
}

// Refusal is an authorization server's refusal in the product's words:
// "The authorization server refused the sign-in: invalid_grant." when code
// is a standard one, else without it.
func Refusal(code string) string {
	if oauthErrorCodes[code] {
		return "The authorization server refused the sign-in: " + code + "."
	}
	return "The authorization server refused the sign-in."
}
