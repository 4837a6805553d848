// Package outbound holds the rules every outbound MCP request obeys
// (DESIGN §7): which schemes and addresses the backend may reach. It links
// no MCP code, so the admin function checks an endpoint an admin saves
// without the MCP SDK's cold-start cost; shared/mcp builds its client on
// these rules and turns each *Refusal into its own *mcp.Error.
package outbound

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"

	"aiwork/shared/config"
)

// EnvAllowedNetworks names the environment variable listing networks (CIDRs,
// comma-separated) an operator allows despite the private-range rules.
const EnvAllowedNetworks = "MCP_ALLOWED_NETWORKS"

// Policy is the outbound rule set for MCP requests. The zero value is the
// strictest useful one: public addresses only, http or https.
type Policy struct {
	AllowLoopback   bool           // 127/8 and ::1; for the local devserver only (Lambda's runtime API lives there)
	AllowedNetworks []netip.Prefix // explicitly allowed, checked before every refusal
	HTTPSOnly       bool           // refuse plain http (in AWS)
}

// refusedNets are never reachable from the backend: "this" network, private,
// carrier-grade NAT, link-local (cloud metadata), multicast, reserved, and
// their IPv6 counterparts. Loopback is handled apart because the devserver
// may allow it.
var refusedNets = mustPrefixes(
	"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "169.254.0.0/16", "172.16.0.0/12",
	"192.168.0.0/16", "224.0.0.0/4", "240.0.0.0/4",
	"::/96", // unspecified and the deprecated IPv4-compatible forms (::1 is handled as loopback first)
	"fc00::/7", "fe80::/10", "ff00::/8",
)

var (
	loopbackV4 = netip.MustParsePrefix("127.0.0.0/8")
	nat64      = netip.MustParsePrefix("64:ff9b::/96") // embeds an IPv4 address in its last 32 bits
	sixToFour  = netip.MustParsePrefix("2002::/16")    // embeds an IPv4 address in bits 16-48
)

func mustPrefixes(ss ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(ss))
	for i, s := range ss {
		out[i] = netip.MustParsePrefix(s)
	}
	return out
}

// AddrAllowed reports whether the policy lets a request reach ip.
func (p Policy) AddrAllowed(ip netip.Addr) bool {
	ip = ip.WithZone("")
	for _, n := range p.AllowedNetworks {
		if n.Contains(ip) || n.Contains(ip.Unmap()) {
			return true
		}
	}
	// IPv4 hidden in IPv6 (mapped, NAT64, 6to4) is judged as the IPv4 it reaches.
	if v4, ok := embeddedV4(ip); ok {
		return p.AddrAllowed(v4)
	}
	if (ip.Is4() && loopbackV4.Contains(ip)) || ip == netip.IPv6Loopback() {
		return p.AllowLoopback
	}
	for _, n := range refusedNets {
		if n.Contains(ip) {
			return false
		}
	}
	return ip.IsValid()
}

func embeddedV4(ip netip.Addr) (netip.Addr, bool) {
	if ip.Is4In6() {
		return ip.Unmap(), true
	}
	b := ip.As16()
	switch {
	case !ip.Is6():
		return netip.Addr{}, false
	case nat64.Contains(ip):
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}), true
	case sixToFour.Contains(ip):
		return netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}), true
	}
	return netip.Addr{}, false
}

// CheckURL refuses, before any request, what the policy can judge from the
// URL alone: the scheme, a missing host, and literal IP hosts. Host names are
// judged at dial time on the resolved address (mcp.Policy.Client). Every
// refusal is a *Refusal.
func (p Policy) CheckURL(raw string) error {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return &Refusal{Detail: "The endpoint URL is not valid.", cause: err}
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
	case "http":
		if p.HTTPSOnly {
			return &Refusal{Detail: "The endpoint URL must use https."}
		}
	default:
		return &Refusal{Detail: "The endpoint URL must start with https:// or http://."}
	}
	host := u.Hostname()
	if host == "" {
		return &Refusal{Detail: "The endpoint URL has no host."}
	}
	if ip, err := netip.ParseAddr(host); err == nil && !p.AddrAllowed(ip) {
		return refusedAddress(fmt.Errorf("literal address %s", ip))
	}
	return nil
}

// CheckEndpoint is CheckURL, then the host's addresses as a dial would
// judge them: what an admin is told when saving an endpoint (a name that
// does not resolve now is not refused: it may resolve later).
func (p Policy) CheckEndpoint(ctx context.Context, raw string) error {
	if err := p.CheckURL(raw); err != nil {
		return err
	}
	u, _ := url.Parse(strings.TrimSpace(raw))
	if _, err := netip.ParseAddr(u.Hostname()); err == nil {
		return nil // judged above
	}
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", u.Hostname())
	if err != nil {
		return nil
	}
	for _, a := range addrs {
		if !p.AddrAllowed(a) {
			return refusedAddress(fmt.Errorf("%s resolves to %s", u.Hostname(), a))
		}
	}
	return nil
}

// ParseAllowedNetworks reads MCP_ALLOWED_NETWORKS: comma-separated CIDRs
// (a bare address means just that address). Empty input allows nothing.
func ParseAllowedNetworks(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if ip, err := netip.ParseAddr(part); err == nil {
			out = append(out, netip.PrefixFrom(ip, ip.BitLen()))
			continue
		}
		n, err := netip.ParsePrefix(part)
		if err != nil {
			return nil, fmt.Errorf("%s: %q is not a CIDR network", EnvAllowedNetworks, part)
		}
		out = append(out, n.Masked())
	}
	return out, nil
}

// PolicyFor is the policy a process's configuration asks for (loopback
// only for the devserver, https only in AWS, networks the operator opened).
func PolicyFor(o config.Outbound) (Policy, error) {
	nets, err := ParseAllowedNetworks(o.AllowedNetworks)
	if err != nil {
		return Policy{}, err
	}
	return Policy{AllowLoopback: o.AllowLoopback, AllowedNetworks: nets, HTTPSOnly: o.HTTPSOnly}, nil
}

// ErrRefusedAddress is matched (errors.Is) by every refusal about the
// address, whether caught up front or at dial time.
var ErrRefusedAddress = errors.New("mcp: refused address")

// AddressDetail is the one wording for a private or local address, so the
// user reads the same sentence whether the check ran up front or at dial time.
const AddressDetail = "The endpoint is a private or local address and is refused."

// Refusal is why the rules refuse a URL: Detail is the sentence a user
// reads; the cause is kept for logs.
type Refusal struct {
	Detail string
	cause  error
}

func (r *Refusal) Error() string { return r.Detail }

// Unwrap gives the cause: for an address, ErrRefusedAddress joined with
// what was dialled or resolved.
func (r *Refusal) Unwrap() error { return r.cause }

func refusedAddress(cause error) *Refusal {
	return &Refusal{Detail: AddressDetail, cause: errors.Join(ErrRefusedAddress, cause)}
}
