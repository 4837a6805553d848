package config

import (
	"context"
	"strings"
)

// Creators is the creators group's configuration: Stripe Connect for
// payouts (onboarding, login links, balances) and where Stripe sends a
// creator back after onboarding.
type Creators struct {
	Base
	// StripeSecretKey empty means the local test checkout's stand-in
	// (STRIPE_API_URL overrides Stripe's address, as for payments).
	StripeSecretKey string
	StripeAPIURL    string
	PublicURL       string
}

// LoadCreators reads the creators group's settings.
func LoadCreators(ctx context.Context, sm SecretFetcher) (Creators, error) {
	base, err := LoadBase(ctx, sm)
	if err != nil {
		return Creators{}, err
	}
	key, err := Secret(ctx, sm, "STRIPE_SECRET_KEY")
	if err != nil {
		return Creators{}, err
	}
	return Creators{Base: base, StripeSecretKey: key, StripeAPIURL: Env("STRIPE_API_URL", ""),
		PublicURL: strings.TrimRight(Env("PUBLIC_URL", ""), "/")}, nil
}
