package store_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// A creator's payout account is stored once, findable by its id, and
// Stripe's reports land on the creator it belongs to only.
func TestCreatorStripeAccount(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	if err := st.SetCreatorStripeAccount(ctx, "nobody", "acct_0"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a non-creator's account: %v; want ErrNotFound", err)
	}
	_, err := st.PutCreator(ctx, domain.Creator{UserID: "u1", Username: "ann", DisplayName: "Ann", Country: "US"}, time.Now())
	storetest.Must(t, err, "put creator")
	if acct, err := st.CreatorStripeAccount(ctx, "u1"); err != nil || acct != "" {
		t.Fatalf("before: %q, %v", acct, err)
	}
	// Two requests at once, one account (Stripe answered both with it).
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = st.SetCreatorStripeAccount(ctx, "u1", "acct_1") }()
	}
	wg.Wait()
	for _, err := range errs {
		storetest.Must(t, err, "set account")
	}
	if err := st.SetCreatorStripeAccount(ctx, "u1", "acct_2"); !errors.Is(err, store.ErrOtherStripeAccount) {
		t.Errorf("a second account: %v; want ErrOtherStripeAccount", err)
	}
	if acct, err := st.CreatorStripeAccount(ctx, "u1"); err != nil || acct != "acct_1" {
		t.Errorf("stored: %q, %v; want acct_1", acct, err)
	}
	if uid, err := st.CreatorByStripeAccount(ctx, "acct_1"); err != nil || uid != "u1" {
		t.Errorf("by account: %q, %v; want u1", uid, err)
	}
	c, err := st.GetCreator(ctx, "u1")
	storetest.Must(t, err, "get creator")
	if c.PayoutsStatus != domain.PayoutsDetailsNeeded {
		t.Errorf("a new account's status = %q; want details_needed", c.PayoutsStatus)
	}
	p := store.CreatorPayouts{Status: domain.PayoutsEnabled, ChargesEnabled: true, PayoutsEnabled: true}
	for range 2 { // a second delivery writes the same
		storetest.Must(t, st.SetCreatorPayouts(ctx, "u1", "acct_1", p), "set payouts")
	}
	c, err = st.GetCreator(ctx, "u1")
	storetest.Must(t, err, "get creator")
	if c.PayoutsStatus != domain.PayoutsEnabled || !c.ChargesEnabled || !c.PayoutsEnabled || !c.CanSell() {
		t.Errorf("after the report: %+v", c)
	}
	// A report about another account leaves the creator alone.
	if err := st.SetCreatorPayouts(ctx, "u1", "acct_2", store.CreatorPayouts{Status: domain.PayoutsPending}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("another account's report: %v; want ErrNotFound", err)
	}
	if c, _ := st.GetCreator(ctx, "u1"); c.PayoutsStatus != domain.PayoutsEnabled {
		t.Errorf("another account's report changed the status to %q", c.PayoutsStatus)
	}
	// A profile edit keeps the payout account.
	_, err = st.PutCreator(ctx, domain.Creator{UserID: "u1", Username: "ann", DisplayName: "Ann B", Country: "US"}, time.Now())
	storetest.Must(t, err, "put creator")
	if acct, _ := st.CreatorStripeAccount(ctx, "u1"); acct != "acct_1" {
		t.Errorf("after a profile edit: %q", acct)
	}
}
