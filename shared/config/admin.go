package config

import (
	"context"
	"strings"
)

// Admin is the admin route group's configuration: the table and JWT key,
// the payments provider it refunds through, the registry jobs it runs on
// demand, and the mail it resends.
type Admin struct {
	Base
	// StripeSecretKey empty means the local test checkout (STRIPE_API_URL
	// overrides Stripe's address, as for payments).
	StripeSecretKey string
	StripeAPIURL    string
	// MCPJobs: Probe now and Sync from registry now run these.
	MCPJobs MCPJobs
	// MailFrom and PublicURL: a confirmation mail resent (as auth sends it).
	MailFrom  string
	PublicURL string
}

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
	jobs := LoadMCPJobs()
	return Admin{Base: base, StripeSecretKey: key, StripeAPIURL: Env("STRIPE_API_URL", ""), MCPJobs: jobs,
		MailFrom: Env("MAIL_FROM", ""), PublicURL: strings.TrimRight(Env("PUBLIC_URL", ""), "/")}, nil
}
