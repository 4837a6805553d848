package payments

import (
	"context"
	"errors"
	"fmt"

	"github.com/stripe/stripe-go/v84"

	"aiwork/shared/domain"
	"aiwork/shared/store"
)

// Connect is what a creator's payouts need from the provider: one Express
// account per creator, its hosted onboarding, a login link to its Express
// dashboard, its status and its balance.
type Connect interface {
	// CreateAccount makes uid's Express account; the same uid answers the
	// same account (the idempotency key is the user's), so two requests at
	// once make one.
	CreateAccount(ctx context.Context, uid, country string) (acctID string, err error)
	// OnboardingLink is where the creator completes their details; Stripe
	// sends them back to returnURL (done or left) or refreshURL (the link
	// expired).
	OnboardingLink(ctx context.Context, acctID, returnURL, refreshURL string) (string, error)
	// LoginLink opens the account's Express dashboard ("" when there is none).
	LoginLink(ctx context.Context, acctID string) (string, error)
	// Account is the account's payout state as Stripe reports it.
	Account(ctx context.Context, acctID string) (store.CreatorPayouts, error)
	// Balance is the account's balance at Stripe.
	Balance(ctx context.Context, acctID string) (Balance, error)
}

// Balance is a connected account's money at Stripe, in cents of Currency:
// Available can be paid out, Pending is not settled yet.
type Balance struct {
	Currency       string
	AvailableCents int64
	PendingCents   int64
}

// ConnectFor is Stripe's Connect when a secret key is configured, else the
// local test checkout's stand-in.
func ConnectFor(st *store.Store, stripeKey, apiURL string) Connect {
	if stripeKey != "" {
		return NewStripe(stripeKey, apiURL)
	}
	return NewLocal(st)
}

var (
	_ Connect = (*StripeProvider)(nil)
	_ Connect = (*LocalProvider)(nil)
)

// CreateAccount makes an Express account whose transfers the platform's
// destination charges pay.
func (p *StripeProvider) CreateAccount(ctx context.Context, uid, country string) (string, error) {
	params := &stripe.AccountCreateParams{
		Type:     stripe.String(string(stripe.AccountTypeExpress)),
		Metadata: map[string]string{"user_id": uid},
		Capabilities: &stripe.AccountCreateCapabilitiesParams{
			CardPayments: &stripe.AccountCreateCapabilitiesCardPaymentsParams{Requested: stripe.Bool(true)},
			Transfers:    &stripe.AccountCreateCapabilitiesTransfersParams{Requested: stripe.Bool(true)},
		},
	}
	if country != "" {
		params.Country = stripe.String(country)
	}
	params.SetIdempotencyKey("connect-account-" + uid)
	acct, err := p.client.V1Accounts.Create(ctx, params)
	if err != nil {
		return "", fmt.Errorf("stripe create account: %w", err)
	}
	return acct.ID, nil
}

// OnboardingLink is an account_onboarding account link.
func (p *StripeProvider) OnboardingLink(ctx context.Context, acctID, returnURL, refreshURL string) (string, error) {
	link, err := p.client.V1AccountLinks.Create(ctx, &stripe.AccountLinkCreateParams{
		Account: stripe.String(acctID), Type: stripe.String("account_onboarding"),
		ReturnURL: stripe.String(returnURL), RefreshURL: stripe.String(refreshURL),
	})
	if err != nil {
		return "", fmt.Errorf("stripe account link: %w", err)
	}
	return link.URL, nil
}

// LoginLink is a single-use link to the Express dashboard.
func (p *StripeProvider) LoginLink(ctx context.Context, acctID string) (string, error) {
	link, err := p.client.V1LoginLinks.Create(ctx, &stripe.LoginLinkCreateParams{Account: stripe.String(acctID)})
	if err != nil {
		return "", fmt.Errorf("stripe login link: %w", err)
	}
	return link.URL, nil
}

// Account reads the account and maps it (PayoutsOf).
func (p *StripeProvider) Account(ctx context.Context, acctID string) (store.CreatorPayouts, error) {
	acct, err := p.client.V1Accounts.GetByID(ctx, acctID, nil)
	if err != nil {
		return store.CreatorPayouts{}, fmt.Errorf("stripe account: %w", err)
	}
	return PayoutsOf(acct), nil
}

// Balance reads the connected account's balance (the Stripe-Account
// header), in USD: the currency the platform sells in.
func (p *StripeProvider) Balance(ctx context.Context, acctID string) (Balance, error) {
	params := &stripe.BalanceRetrieveParams{}
	params.SetStripeAccount(acctID)
	b, err := p.client.V1Balance.Retrieve(ctx, params)
	if err != nil {
		return Balance{}, fmt.Errorf("stripe balance: %w", err)
	}
	out := Balance{Currency: "usd"}
	for _, a := range b.Available {
		if a != nil && string(a.Currency) == out.Currency {
			out.AvailableCents += a.Amount
		}
	}
	for _, a := range b.Pending {
		if a != nil && string(a.Currency) == out.Currency {
			out.PendingCents += a.Amount
		}
	}
	return out, nil
}

// The local stand-in for Connect: no money moves, so a creator's account
// is a name (acct_local_<uid>) and onboarding completes at once, as the
// local checkout page stands in for Checkout.

// CreateAccount names uid's local account.
func (p *LocalProvider) CreateAccount(_ context.Context, uid, _ string) (string, error) {
	if uid == "" {
		return "", errors.New("local connect: no user")
	}
	return "acct_local_" + uid, nil
}

// OnboardingLink completes onboarding at once (the account is enabled) and
// answers returnURL, where Stripe would send the creator back.
func (p *LocalProvider) OnboardingLink(ctx context.Context, acctID, returnURL, _ string) (string, error) {
	uid, err := p.st.CreatorByStripeAccount(ctx, acctID)
	if err != nil {
		return "", fmt.Errorf("local onboarding: %w", err)
	}
	enabled := store.CreatorPayouts{Status: domain.PayoutsEnabled, ChargesEnabled: true, PayoutsEnabled: true}
	if err := p.st.SetCreatorPayouts(ctx, uid, acctID, enabled); err != nil {
		return "", fmt.Errorf("local onboarding: %w", err)
	}
	return returnURL, nil
}

// LoginLink: there is no Express dashboard locally.
func (p *LocalProvider) LoginLink(context.Context, string) (string, error) { return "", nil }

// Account: a local account is enabled once onboarded.
func (p *LocalProvider) Account(context.Context, string) (store.CreatorPayouts, error) {
	return store.CreatorPayouts{Status: domain.PayoutsEnabled, ChargesEnabled: true, PayoutsEnabled: true}, nil
}

// Balance: nothing is held locally (the dashboard's own totals show the sales).
func (p *LocalProvider) Balance(context.Context, string) (Balance, error) {
	return Balance{Currency: "usd"}, nil
}
