package outbound_test

import (
	"context"
	"errors"
	"net/netip"
	"testing"

	"aiwork/shared/mcp/outbound"
)

// The rules answer a *Refusal whose Detail is what an admin reads; package
// mcp's tests cover the same rules through its client.
func TestCheckEndpointRefusals(t *testing.T) {
	lan := netip.MustParsePrefix("10.1.0.0/16")
	for _, tc := range []struct {
		name    string
		policy  outbound.Policy
		url     string
		detail  string // "" : allowed
		address bool
	}{
		{"public literal", outbound.Policy{}, "https://8.8.8.8/mcp", "", false},
		{"loopback", outbound.Policy{}, "http://127.0.0.1:3001/mcp", outbound.AddressDetail, true},
		{"loopback allowed", outbound.Policy{AllowLoopback: true}, "http://127.0.0.1:3001/mcp", "", false},
		{"localhost resolved", outbound.Policy{}, "http://localhost:3001/mcp", outbound.AddressDetail, true},
		{"metadata", outbound.Policy{}, "http://169.254.169.254/", outbound.AddressDetail, true},
		{"mapped private", outbound.Policy{}, "http://[::ffff:10.0.0.1]/", outbound.AddressDetail, true},
		{"network opened", outbound.Policy{AllowedNetworks: []netip.Prefix{lan}}, "http://10.1.2.3/", "", false},
		{"http in AWS", outbound.Policy{HTTPSOnly: true}, "http://example.com/mcp", "The endpoint URL must use https.", false},
		{"scheme", outbound.Policy{}, "ftp://example.com/", "The endpoint URL must start with https:// or http://.", false},
		{"no host", outbound.Policy{}, "https:///mcp", "The endpoint URL has no host.", false},
		{"unresolvable name", outbound.Policy{}, "https://no-such-host.invalid/mcp", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.policy.CheckEndpoint(context.Background(), tc.url)
			if tc.detail == "" {
				if err != nil {
					t.Fatalf("CheckEndpoint(%s) = %v, want allowed", tc.url, err)
				}
				return
			}
			var r *outbound.Refusal
			if !errors.As(err, &r) || r.Detail != tc.detail || err.Error() != tc.detail {
				t.Fatalf("CheckEndpoint(%s) = %#v, want a refusal %q", tc.url, err, tc.detail)
			}
			if got := errors.Is(err, outbound.ErrRefusedAddress); got != tc.address {
				t.Errorf("errors.Is(ErrRefusedAddress) = %v, want %v", got, tc.address)
			}
		})
	}
}
