package httpx_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"aiwork/shared/httpx"
)

const originSecret = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ01"

// through runs r through RequireOrigin(secret) and answers what the inner
// handler saw: whether it ran, ViaOrigin, the client address, the public
// URL and the origin header left on the request.
type seen struct {
	ran          bool
	via          bool
	addr, public string
	secretHeader string
}

func through(secret string, r *http.Request) (*httptest.ResponseRecorder, seen) {
	var s seen
	h := httpx.RequireOrigin(secret, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s = seen{ran: true, via: httpx.ViaOrigin(r.Context()), addr: httpx.ClientAddress(r),
			public: httpx.PublicURL(r, ""), secretHeader: r.Header.Get(httpx.OriginSecretHeader)}
	}))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w, s
}

func request(remote string, headers map[string]string) *http.Request {
	r := httptest.NewRequest("POST", "/api/v1/auth/login", nil)
	r.RemoteAddr = remote
	r.Host = "abc123.execute-api.eu-west-1.amazonaws.com"
	for k, v := range headers {
		r.Header.Set(k, v)
	}
	return r
}

// With the check on (every Lambda), a request without the origin secret or
// with a wrong one is a JSON 403 and never reaches the handler.
func TestRequireOriginRefusesDirectCalls(t *testing.T) {
	for _, tc := range []struct {
		name    string
		headers map[string]string
	}{
		{"no origin header", nil},
		{"wrong secret", map[string]string{httpx.OriginSecretHeader: originSecret + "x"}},
		{"empty secret", map[string]string{httpx.OriginSecretHeader: ""}},
		{"a prefix of the secret", map[string]string{httpx.OriginSecretHeader: originSecret[:10]}},
		{"the old origin token (a stack id)", map[string]string{"X-Origin-Token": "arn:aws:cloudformation:eu-west-1:123456789012:stack/AIWork/0f1e"}},
	} {
		w, s := through(originSecret, request("203.0.113.4", tc.headers))
		if s.ran {
			t.Errorf("%s: the handler ran", tc.name)
		}
		var body struct{ Detail, Code string }
		if err := json.Unmarshal(w.Body.Bytes(), &body); w.Code != http.StatusForbidden || err != nil || body.Code != "forbidden" || body.Detail == "" {
			t.Errorf("%s: %d %s, want a JSON 403 with a detail", tc.name, w.Code, w.Body.String())
		}
		if ct := w.Header().Get("Content-Type"); ct != "application/json" {
			t.Errorf("%s: Content-Type %q", tc.name, ct)
		}
	}
}

func TestClientAddressAndPublicURL(t *testing.T) {
	const host = "d123.cloudfront.net"
	tests := []struct {
		name, secret, remote string
		headers              map[string]string
		wantVia              bool
		wantAddr, wantURL    string
	}{
		{"through CloudFront: the viewer and the host it was asked for", originSecret, "130.176.0.9",
			map[string]string{httpx.OriginSecretHeader: originSecret, httpx.ViewerAddressHeader: "198.51.100.23", "X-Forwarded-Host": host},
			true, "198.51.100.23", "https://" + host},
		{"through CloudFront, garbage viewer address and host", originSecret, "130.176.0.9",
			map[string]string{httpx.OriginSecretHeader: originSecret, httpx.ViewerAddressHeader: "not-an-ip", "X-Forwarded-Host": "evil.example/path?x=@"},
			true, "130.176.0.9", "http://abc123.execute-api.eu-west-1.amazonaws.com"},
		{"devserver peer", "", "192.0.2.7:51234", nil, false, "192.0.2.7", "http://abc123.execute-api.eu-west-1.amazonaws.com"},
		{"IPv6 peer", "", "[2001:db8::1]:443", nil, false, "2001:db8::1", "http://abc123.execute-api.eu-west-1.amazonaws.com"},
		{"devserver never trusts the headers", "", "192.0.2.7:1",
			map[string]string{httpx.OriginSecretHeader: "anything", httpx.ViewerAddressHeader: "198.51.100.23",
				"X-Forwarded-For": "198.51.100.1", "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https"},
			false, "192.0.2.7", "http://abc123.execute-api.eu-west-1.amazonaws.com"},
	}
	for _, tt := range tests {
		w, s := through(tt.secret, request(tt.remote, tt.headers))
		if !s.ran {
			t.Errorf("%s: refused %d %s", tt.name, w.Code, w.Body.String())
			continue
		}
		if s.via != tt.wantVia || s.addr != tt.wantAddr || s.public != tt.wantURL {
			t.Errorf("%s: via %v, address %q, public URL %q; want %v, %q, %q", tt.name, s.via, s.addr, s.public, tt.wantVia, tt.wantAddr, tt.wantURL)
		}
		if tt.secret != "" && s.secretHeader != "" {
			t.Errorf("%s: the handler still sees the origin secret", tt.name)
		}
	}
	// PUBLIC_URL wins over everything.
	r := request("130.176.0.9", map[string]string{"X-Forwarded-Host": "evil.example"})
	if got := httpx.PublicURL(r, "https://shop.example.com/"); got != "https://shop.example.com" {
		t.Errorf("configured public URL = %q", got)
	}
}
