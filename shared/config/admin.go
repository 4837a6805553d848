package config

import (
	"context"
	"strings"
)

// Admin is the admin route group's configuration: the table and JWT key,
// the payments provider it refunds through, the registry jobs it runs on
// demand, the mail it resends, and the key sealing operators' OAuth
// client secrets.
type Admin struct {
	Base
	// StripeSecretKey empty means the local test checkout (STRIPE_API_URL
	// overrides Stripe's address, as for payments).
	StripeSecretKey string
	StripeAPIURL    string
	// MCPJobs: Probe now and Sync from registry now run these, and an
	// endpoint saved is judged by their outbound rules.
	MCPJobs MCPJobs
	// MCPJobsFunction is the mcp-jobs function the admin Lambda invokes to
	// run them (MCP_JOBS_FUNCTION; empty: they do not run, 503).
	MCPJobsFunction string
	// MailFrom and PublicURL: a confirmation mail resent (as auth sends it).
	MailFrom  string
	PublicURL string
	// KeyEncryptionKey seals the OAuth client secret an admin sets on a
	// registry entry (MCP_KEY_ENCRYPTION_KEY: the mcp function opens it
	// at sign-in).
	KeyEncryptionKey []byte
}

// MCPJobsFunctionVar names the mcp-jobs function in the admin function's
// environment (the stack and make run-lambda set it).
const MCPJobsFunctionVar = "MCP_JOBS_FUNCTION"

// LoadAdmin reads the admin group's settings.
func LoadAdmin(ctx context.Context, sm SecretFetcher) (Admin, error) {
	base, err := LoadBase(ctx, sm)
	if err != nil {
		return Admin{}, err
	}
	key, err := Secret(ctx, sm, "STRIPE_SECRET_KEY")
	if err != nil {
		return Admin{}, err
	}
	sealKey, err := mcpKey(ctx, sm)
	if err != nil {
		return Admin{}, err
	}
	jobs := LoadMCPJobs()
	return Admin{Base: base, StripeSecretKey: key, StripeAPIURL: Env("STRIPE_API_URL", ""), MCPJobs: jobs,
		MCPJobsFunction: Env(MCPJobsFunctionVar, ""), MailFrom: Env("MAIL_FROM", ""), PublicURL: strings.TrimRight(Env("PUBLIC_URL", ""), "/"),
		KeyEncryptionKey: sealKey}, nil
}
