package stripestandin_test

import (
	"context"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/local/stripestandin"
	"aiwork/shared/payments"
	"aiwork/shared/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

// Stripe's own client, as the creators function uses it under
// make run-lambda, makes a creator's account, onboards it (payouts
// enabled at once), reads its status, balance and login link.
func TestConnectThroughTheStandIn(t *testing.T) {
	st := storetest.New(t)
	ctx := context.Background()
	local := payments.NewLocal(st)
	srv := httptest.NewServer(stripestandin.New(local))
	t.Cleanup(srv.Close)
	stripe := payments.NewStripe(stripestandin.Key, srv.URL)

	_, err := st.PutCreator(ctx, domain.Creator{UserID: "u1", Username: "una", DisplayName: "Una", Country: "US"}, time.Now())
	storetest.Must(t, err, "creator")
	acct, err := stripe.CreateAccount(ctx, "u1", "US")
	if err != nil || acct != "acct_local_u1" {
		t.Fatalf("account %q, %v", acct, err)
	}
	storetest.Must(t, st.SetCreatorStripeAccount(ctx, "u1", acct), "store account")
	link, err := stripe.OnboardingLink(ctx, acct, "http://localhost:8080/creator?payouts=done", "http://localhost:8080/creator?payouts=refresh")
	if err != nil || link != "http://localhost:8080/creator?payouts=done" {
		t.Fatalf("onboarding link %q, %v; want the return URL (onboarding completes at once)", link, err)
	}
	c, err := st.GetCreator(ctx, "u1")
	storetest.Must(t, err, "get creator")
	if c.PayoutsStatus != domain.PayoutsEnabled || !c.ChargesEnabled || !c.PayoutsEnabled {
		t.Errorf("after onboarding: %+v; want payouts enabled", c)
	}
	if p, err := stripe.Account(ctx, acct); err != nil || p.Status != domain.PayoutsEnabled {
		t.Errorf("account status %+v, %v", p, err)
	}
	if b, err := stripe.Balance(ctx, acct); err != nil || b.Currency != "usd" {
		t.Errorf("balance %+v, %v", b, err)
	}
	if l, err := stripe.LoginLink(ctx, acct); err != nil || l != "" {
		t.Errorf("login link %q, %v; want none locally", l, err)
	}
	if _, err := stripe.OnboardingLink(ctx, "acct_nobody", "http://x/done", "http://x/again"); err == nil {
		t.Error("an unknown account was onboarded")
	}
}

// A destination charge's fee is checked as Stripe checks it: never above
// the amount.
func TestCheckoutSplitRules(t *testing.T) {
	st := storetest.New(t)
	srv := httptest.NewServer(stripestandin.New(payments.NewLocal(st)))
	t.Cleanup(srv.Close)
	stripe := payments.NewStripe(stripestandin.Key, srv.URL)
	req := payments.CheckoutRequest{UserID: "buyer", PromptID: "p1", ProductName: "Plan", AmountCents: 999,
		SuccessURL: "http://localhost/ok?session_id={CHECKOUT_SESSION_ID}", CancelURL: "http://localhost/cancel"}
	for name, tc := range map[string]struct {
		dest string
		fee  int64
		ok   bool
	}{
		"a fee with its destination":   {"acct_local_c", 200, true},
		"a fee above the amount":       {"acct_local_c", 1000, false},
		"the platform's own, no split": {"", 0, true},
	} {
		r := req
		r.Destination, r.ApplicationFeeCents, r.IdempotencyKey = tc.dest, tc.fee, name
		_, err := stripe.CreateCheckout(context.Background(), r)
		if (err == nil) != tc.ok {
			t.Errorf("%s: err %v, want ok=%v", name, err, tc.ok)
		}
	}
}
