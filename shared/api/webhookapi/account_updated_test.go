package webhookapi_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/store/storetest"
)

// account is a Connect account object as account.updated carries it.
func account(id string, submitted, charges, payouts bool, due ...string) map[string]any {
	if due == nil {
		due = []string{}
	}
	return map[string]any{
		"id": id, "object": "account", "type": "express", "details_submitted": submitted,
		"charges_enabled": charges, "payouts_enabled": payouts,
		"requirements": map[string]any{"currently_due": due, "past_due": []string{}, "eventually_due": []string{}},
	}
}

// creatorWithAccount makes a creator whose payout account is acct.
func (s *stack) creatorWithAccount(name, acct string) string {
	s.T.Helper()
	uid, _ := s.User(name)
	ctx := context.Background()
	_, err := s.St.PutCreator(ctx, domain.Creator{UserID: uid, Username: name, DisplayName: name, Country: "US"}, time.Now())
	storetest.Must(s.T, err, "put creator")
	storetest.Must(s.T, s.St.SetCreatorStripeAccount(ctx, uid, acct), "set account")
	return uid
}

func (s *stack) payouts(uid string) (string, bool, bool) {
	s.T.Helper()
	c, err := s.St.GetCreator(context.Background(), uid)
	storetest.Must(s.T, err, "get creator")
	return c.PayoutsStatus, c.ChargesEnabled, c.PayoutsEnabled
}

// Each account.updated sets the creator's payout status by the stated
// mapping; a replayed delivery of an older event changes nothing.
func TestAccountUpdatedSetsPayouts(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	uid := s.creatorWithAccount("ann", "acct_ann")
	for i, c := range []struct {
		obj            map[string]any
		status         string
		charges, payer bool
	}{
		{account("acct_ann", false, false, false), domain.PayoutsDetailsNeeded, false, false},
		{account("acct_ann", true, false, false, "individual.verification.document"), domain.PayoutsDetailsNeeded, false, false},
		{account("acct_ann", true, false, false), domain.PayoutsPending, false, false},
		{account("acct_ann", true, true, false), domain.PayoutsPending, true, false},
		{account("acct_ann", true, true, true), domain.PayoutsEnabled, true, true},
	} {
		s.deliver(event("evt_acct_"+string(rune('a'+i)), "account.updated", c.obj))
		if st, ch, po := s.payouts(uid); st != c.status || ch != c.charges || po != c.payer {
			t.Errorf("event %d: payouts = %s charges %v payouts %v; want %s %v %v", i, st, ch, po, c.status, c.charges, c.payer)
		}
	}
	// Stripe delivers the first event again: already applied, nothing moves back.
	s.deliver(event("evt_acct_a", "account.updated", account("acct_ann", false, false, false)))
	if st, _, _ := s.payouts(uid); st != domain.PayoutsEnabled {
		t.Errorf("a second delivery moved the status to %s", st)
	}
	// An account no creator of ours has is accepted and changes nothing.
	s.deliver(event("evt_acct_other", "account.updated", account("acct_someone_else", false, false, false)))
	if st, _, _ := s.payouts(uid); st != domain.PayoutsEnabled {
		t.Errorf("another account's event moved the status to %s", st)
	}
}

// A forged account.updated (wrong secret, or no signature) is refused with
// 400 and the creator's payouts stay as they were.
func TestForgedAccountUpdatedChangesNothing(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	uid := s.creatorWithAccount("bob", "acct_bob")
	forged := event("evt_forged_acct", "account.updated", account("acct_bob", true, true, true))
	for _, sig := range []string{sign(forged, "whsec_not_ours", time.Now()), ""} {
		if w := s.post(forged, sig); w.Code != http.StatusBadRequest {
			t.Errorf("forged event: %d %s; want 400", w.Code, w.Body.String())
		}
	}
	if st, ch, po := s.payouts(uid); st != domain.PayoutsDetailsNeeded || ch || po {
		t.Errorf("after a forged event: %s %v %v; want details_needed, nothing enabled", st, ch, po)
	}
}
