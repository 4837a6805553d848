package payments

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/stripe/stripe-go/v84"

	"aiwork/shared/domain"
	"aiwork/shared/store"
)

// PayoutsOf maps a Connect account as Stripe reports it to the creator's
// payout status:
//   - enabled: charges and payouts both enabled;
//   - details_needed: details not submitted yet, or requirements currently
//     due or past due;
//   - pending: submitted, and Stripe has not enabled charges or payouts yet.
func PayoutsOf(acct *stripe.Account) store.CreatorPayouts {
	p := store.CreatorPayouts{ChargesEnabled: acct.ChargesEnabled, PayoutsEnabled: acct.PayoutsEnabled}
	due := acct.Requirements != nil && (len(acct.Requirements.CurrentlyDue) > 0 || len(acct.Requirements.PastDue) > 0)
	switch {
	case acct.ChargesEnabled && acct.PayoutsEnabled:
		p.Status = domain.PayoutsEnabled
	case !acct.DetailsSubmitted || due:
		p.Status = domain.PayoutsDetailsNeeded
	default:
		p.Status = domain.PayoutsPending
	}
	return p
}

// AccountUpdated writes Stripe's report about a Connect account on the
// creator who stored it. An account no creator of ours has (another
// platform's, or one replaced since) changes nothing.
func (f *Fulfiller) AccountUpdated(ctx context.Context, acct *stripe.Account) error {
	uid, err := f.st.CreatorByStripeAccount(ctx, acct.ID)
	if errors.Is(err, store.ErrNotFound) {
		slog.InfoContext(ctx, "account.updated for an account no creator has", "account", acct.ID)
		return nil
	}
	if err != nil {
		return err
	}
	err = f.st.SetCreatorPayouts(ctx, uid, acct.ID, PayoutsOf(acct))
	if errors.Is(err, store.ErrNotFound) {
		slog.InfoContext(ctx, "account.updated for a creator's former account", "account", acct.ID)
		return nil
	}
	return err
}

func accountOf(ev stripe.Event) (*stripe.Account, error) {
	var a stripe.Account
	if err := json.Unmarshal(ev.Data.Raw, &a); err != nil {
		return nil, fmt.Errorf("%s: %w", ev.Type, err)
	}
	if a.ID == "" {
		return nil, fmt.Errorf("%s: no account id", ev.Type)
	}
	return &a, nil
}
