package creatorsapi

import (
	"errors"
	"net/http"
	"os"

	"aiwork/shared/auth"
	"aiwork/shared/config"
	"aiwork/shared/httpx"
	"aiwork/shared/payments"
	"aiwork/shared/store"
)

// msgPayoutsUnavailable: this deployment cannot reach Stripe Connect.
const msgPayoutsUnavailable = "Payouts cannot be set up right now. Please try again later."

// connect is the Connect provider onboarding uses: Stripe when
// STRIPE_SECRET_KEY is in the environment (a local run against test mode
// or stripe-mock), else the local test checkout's stand-in, except inside
// Lambda, where the key is a secret this function is not given: there
// onboarding is unavailable (nil) rather than enabling payouts for free.
func (s *Service) connect() payments.Connect {
	if key := config.Env("STRIPE_SECRET_KEY", ""); key != "" {
		return payments.NewStripe(key, config.Env("STRIPE_API_URL", ""))
	}
	if os.Getenv("AWS_LAMBDA_FUNCTION_NAME") != "" {
		return nil
	}
	return payments.NewLocal(s.st)
}

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
	conn := s.connect()
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
	base := httpx.PublicURL(r, config.Env("PUBLIC_URL", "")) + "/dashboard"
	url, err := conn.OnboardingLink(ctx, acct, base+"?payouts=done", base+"?payouts=refresh")
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]string{"url": url})
	return nil
}
