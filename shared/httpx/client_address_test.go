package httpx_test

import (
	"net/http/httptest"
	"testing"

	"aiwork/shared/httpx"
)

func TestClientAddress(t *testing.T) {
	const token = "arn:aws:cloudformation:eu-west-1:123456789012:stack/AIWork/0f1e"
	tests := []struct {
		name, remote, originToken string
		headers                   map[string]string
		want                      string
	}{
		{"devserver peer", "192.0.2.7:51234", "", nil, "192.0.2.7"},
		{"IPv6 peer", "[2001:db8::1]:443", "", nil, "2001:db8::1"},
		{"API Gateway sourceIp (no port)", "203.0.113.4", token, nil, "203.0.113.4"},
		{"X-Forwarded-For is ignored", "192.0.2.7:1", "", map[string]string{"X-Forwarded-For": "198.51.100.1"}, "192.0.2.7"},
		{"through CloudFront: the viewer", "130.176.0.9", token,
			map[string]string{httpx.OriginTokenHeader: token, httpx.ViewerAddressHeader: "198.51.100.23"}, "198.51.100.23"},
		{"viewer header without the origin token", "203.0.113.4", token,
			map[string]string{httpx.ViewerAddressHeader: "198.51.100.23"}, "203.0.113.4"},
		{"wrong origin token", "203.0.113.4", token,
			map[string]string{httpx.OriginTokenHeader: token + "x", httpx.ViewerAddressHeader: "198.51.100.23"}, "203.0.113.4"},
		{"devserver never trusts the headers", "192.0.2.7:1", "",
			map[string]string{httpx.OriginTokenHeader: "", httpx.ViewerAddressHeader: "198.51.100.23"}, "192.0.2.7"},
		{"garbage viewer address", "130.176.0.9", token,
			map[string]string{httpx.OriginTokenHeader: token, httpx.ViewerAddressHeader: "not-an-ip"}, "130.176.0.9"},
	}
	for _, tt := range tests {
		r := httptest.NewRequest("POST", "/api/v1/auth/login", nil)
		r.RemoteAddr = tt.remote
		for k, v := range tt.headers {
			r.Header.Set(k, v)
		}
		if got := httpx.ClientAddress(r, tt.originToken); got != tt.want {
			t.Errorf("%s: ClientAddress = %q, want %q", tt.name, got, tt.want)
		}
	}
}
