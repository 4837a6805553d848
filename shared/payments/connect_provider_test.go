package payments_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/payments"
	"aiwork/shared/store/storetest"
)

// Connect's calls have Stripe's shapes (stripe-mock validates them) and
// carry what makes them safe: the user's idempotency key on the account,
// the account's header on its balance.
func TestStripeConnect(t *testing.T) {
	t.Parallel()
	proxy := newRecordingProxy(t)
	p := payments.NewStripe("sk_test_123", proxy.srv.URL)
	ctx := context.Background()

	acct, err := p.CreateAccount(ctx, "user-7", "US")
	if err != nil || !strings.HasPrefix(acct, "acct_") {
		t.Fatalf("create account: %q, %v", acct, err)
	}
	req := proxy.last(t)
	if req.path != "/v1/accounts" || req.form.Get("type") != "express" || req.form.Get("country") != "US" ||
		req.form.Get("metadata[user_id]") != "user-7" || req.form.Get("capabilities[transfers][requested]") != "true" ||
		req.header.Get("Idempotency-Key") != "connect-account-user-7" {
		t.Errorf("create account sent %s %v idem %q", req.path, req.form, req.header.Get("Idempotency-Key"))
	}

	url, err := p.OnboardingLink(ctx, acct, "http://localhost/creator?payouts=done", "http://localhost/creator?payouts=again")
	if err != nil || url == "" {
		t.Fatalf("onboarding link: %q, %v", url, err)
	}
	req = proxy.last(t)
	if req.path != "/v1/account_links" || req.form.Get("account") != acct || req.form.Get("type") != "account_onboarding" ||
		req.form.Get("return_url") != "http://localhost/creator?payouts=done" || req.form.Get("refresh_url") != "http://localhost/creator?payouts=again" {
		t.Errorf("account link sent %s %v", req.path, req.form)
	}

	if url, err := p.LoginLink(ctx, acct); err != nil || url == "" {
		t.Errorf("login link: %q, %v", url, err)
	} else if req = proxy.last(t); req.path != "/v1/accounts/"+acct+"/login_links" {
		t.Errorf("login link sent to %s", req.path)
	}

	if _, err := p.Account(ctx, acct); err != nil {
		t.Errorf("account: %v", err)
	}
	b, err := p.Balance(ctx, acct)
	if err != nil || b.Currency != "usd" {
		t.Errorf("balance: %+v, %v", b, err)
	}
	if req = proxy.last(t); req.path != "/v1/balance" || req.header.Get("Stripe-Account") != acct {
		t.Errorf("balance sent to %s for account %q", req.path, req.header.Get("Stripe-Account"))
	}
}

// The local stand-in completes onboarding at once: the creator is enabled
// and sent back to the return address.
func TestLocalConnectOnboardsAtOnce(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	ctx := context.Background()
	_, err := st.PutCreator(ctx, domain.Creator{UserID: "u-local", Username: "lo", DisplayName: "Lo", Country: "US"}, time.Now())
	storetest.Must(t, err, "put creator")
	var c payments.Connect = payments.ConnectFor(st, "", "")
	acct, err := c.CreateAccount(ctx, "u-local", "US")
	storetest.Must(t, err, "create account")
	storetest.Must(t, st.SetCreatorStripeAccount(ctx, "u-local", acct), "store account")
	url, err := c.OnboardingLink(ctx, acct, "/creator?payouts=done", "/creator?payouts=again")
	if err != nil || url != "/creator?payouts=done" {
		t.Fatalf("onboarding: %q, %v", url, err)
	}
	cr, err := st.GetCreator(ctx, "u-local")
	storetest.Must(t, err, "get creator")
	if cr.PayoutsStatus != domain.PayoutsEnabled || !cr.ChargesEnabled || !cr.PayoutsEnabled {
		t.Errorf("after local onboarding: %+v; want enabled", cr)
	}
}
