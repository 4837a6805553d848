package mcp

import (
	"context"
	"errors"
	"net/netip"

	"aiwork/shared/config"
	"aiwork/shared/mcp/outbound"
)

// The outbound rules live in shared/mcp/outbound, which links no MCP code
// (the admin function checks endpoints with them); these names keep
// package mcp's API, with every refusal an *Error of KindRefused.

// EnvAllowedNetworks names the environment variable listing networks (CIDRs,
// comma-separated) an operator allows despite the private-range rules.
const EnvAllowedNetworks = outbound.EnvAllowedNetworks

// Policy is the outbound rule set for MCP requests (outbound.Policy). The
// zero value is the strictest useful one: public addresses only, http or
// https.
type Policy outbound.Policy

// AddrAllowed reports whether the policy lets a request reach ip.
func (p Policy) AddrAllowed(ip netip.Addr) bool { return outbound.Policy(p).AddrAllowed(ip) }

// CheckURL is outbound.Policy.CheckURL.
func (p Policy) CheckURL(raw string) error { return refusal(outbound.Policy(p).CheckURL(raw)) }

// CheckEndpoint is outbound.Policy.CheckEndpoint.
func (p Policy) CheckEndpoint(ctx context.Context, raw string) error {
	return refusal(outbound.Policy(p).CheckEndpoint(ctx, raw))
}

// ParseAllowedNetworks is outbound.ParseAllowedNetworks.
func ParseAllowedNetworks(s string) ([]netip.Prefix, error) { return outbound.ParseAllowedNetworks(s) }

// PolicyFor is the policy a process's configuration asks for.
func PolicyFor(o config.Outbound) (Policy, error) {
	p, err := outbound.PolicyFor(o)
	return Policy(p), err
}

// refusal turns the rules' *outbound.Refusal into an *Error of KindRefused
// (errors.Is(err, ErrRefusedAddress) still holds for an address).
func refusal(err error) error {
	var r *outbound.Refusal
	if !errors.As(err, &r) {
		return err
	}
	return &Error{Kind: KindRefused, Detail: r.Detail, cause: r.Unwrap()}
}
