package domain_test

import (
	"testing"

	"aiwork/shared/domain"
)

func TestMCPConnectionLabel(t *testing.T) {
	for _, tc := range []struct {
		host, want string
	}{
		{"", "GitHub"},
		{"127.0.0.1:18101", "GitHub · 127.0.0.1:18101"},
	} {
		c := domain.MCPConnection{ServerName: "GitHub", EndpointHost: tc.host}
		if got := c.Label(); got != tc.want {
			t.Errorf("Label() with host %q = %q, want %q", tc.host, got, tc.want)
		}
	}
}
