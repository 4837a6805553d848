package creatorsapi

import (
	"errors"
	"net/http"

	"aiwork/shared/auth"
	"aiwork/shared/httpx"
	"aiwork/shared/store"
)

// msgPayoutsUnavailable: this deployment cannot reach Stripe Connect.
const msgPayoutsUnavailable = "Payouts cannot be set up right now. Please try again later."

// startOnboarding answers where the caller completes their payout details:
// Stripe's hosted onboarding for their Express account (made on the first
// call, once however many calls race), or the local stand-in, which
// enables payouts at once. Stripe sends the creator back to the dashboard.
func (s *Service) startOnboarding(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	uid, _ := auth.UserID(ctx)
	c, err := s.st.GetCreator(ctx, uid)
	if errors.Is(err, store.ErrNotFound) {
		return httpx.Conflict(msgNotCreator)
	}
	if err != nil {
		return err
	}
	conn := s.opts.Connect
	if conn == nil {
		return &httpx.Error{Code: httpx.CodeUnavailable, Detail: msgPayoutsUnavailable}
	}
	acct, err := s.st.CreatorStripeAccount(ctx, uid)
	if err != nil {
		return err
	}
	if acct == "" {
		if acct, err = conn.CreateAccount(ctx, uid, c.Country); err != nil {
			return err
		}
		err = s.st.SetCreatorStripeAccount(ctx, uid, acct)
		if errors.Is(err, store.ErrOtherStripeAccount) {
			// Another request stored an account first: onboard that one.
			acct, err = s.st.CreatorStripeAccount(ctx, uid)
		}
		if err != nil {
			return err
		}
	}
	base := httpx.PublicURL(r, s.opts.PublicURL) + "/creator"
	url, err := conn.OnboardingLink(ctx, acct, base+"?payouts=done", base+"?payouts=refresh")
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]string{"url": url})
	return nil
}
