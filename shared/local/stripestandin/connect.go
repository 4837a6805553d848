package stripestandin

import (
	"net/http"

	"aiwork/shared/payments"
)

// connectRoutes answers the Connect calls the creators function makes
// (payments.StripeProvider as payments.Connect) from the local stand-in:
// an account is a name, onboarding completes at once, nothing is held.
func connectRoutes(mux *http.ServeMux, local *payments.LocalProvider) {
	mux.HandleFunc("POST /v1/accounts", func(w http.ResponseWriter, r *http.Request) {
		if !parsed(w, r) {
			return
		}
		uid := r.PostForm.Get("metadata[user_id]")
		id, err := local.CreateAccount(r.Context(), uid, r.PostForm.Get("country"))
		if err != nil {
			stripeError(w, http.StatusBadRequest, "", err.Error())
			return
		}
		writeStripeJSON(w, map[string]any{"id": id, "object": "account", "type": "express", "country": r.PostForm.Get("country"),
			"metadata": map[string]string{"user_id": uid}, "details_submitted": false, "charges_enabled": false, "payouts_enabled": false})
	})
	mux.HandleFunc("POST /v1/account_links", func(w http.ResponseWriter, r *http.Request) {
		if !parsed(w, r) {
			return
		}
		f := r.PostForm
		if f.Get("type") != "account_onboarding" {
			stripeError(w, http.StatusBadRequest, "", "The local stand-in makes account_onboarding links only.")
			return
		}
		link, err := local.OnboardingLink(r.Context(), f.Get("account"), f.Get("return_url"), f.Get("refresh_url"))
		if err != nil {
			stripeError(w, http.StatusNotFound, "resource_missing", "No such account: "+f.Get("account"))
			return
		}
		writeStripeJSON(w, map[string]any{"object": "account_link", "url": link})
	})
	mux.HandleFunc("GET /v1/accounts/{id}", func(w http.ResponseWriter, r *http.Request) {
		p, err := local.Account(r.Context(), r.PathValue("id"))
		if err != nil {
			stripeError(w, http.StatusNotFound, "resource_missing", "No such account: "+r.PathValue("id"))
			return
		}
		writeStripeJSON(w, map[string]any{"id": r.PathValue("id"), "object": "account", "type": "express", "details_submitted": true,
			"charges_enabled": p.ChargesEnabled, "payouts_enabled": p.PayoutsEnabled})
	})
	// There is no Express dashboard locally: the link is empty, as the
	// local provider's.
	mux.HandleFunc("POST /v1/accounts/{id}/login_links", func(w http.ResponseWriter, r *http.Request) {
		link, err := local.LoginLink(r.Context(), r.PathValue("id"))
		if err != nil {
			stripeError(w, http.StatusBadRequest, "", err.Error())
			return
		}
		writeStripeJSON(w, map[string]any{"object": "login_link", "url": link})
	})
	mux.HandleFunc("GET /v1/balance", func(w http.ResponseWriter, r *http.Request) {
		b, err := local.Balance(r.Context(), r.Header.Get("Stripe-Account"))
		if err != nil {
			stripeError(w, http.StatusInternalServerError, "", err.Error())
			return
		}
		writeStripeJSON(w, map[string]any{"object": "balance", "livemode": false,
			"available": []map[string]any{{"amount": b.AvailableCents, "currency": b.Currency}},
			"pending":   []map[string]any{{"amount": b.PendingCents, "currency": b.Currency}}})
	})
}

// parsed reads the request's form, answering Stripe's error when it cannot.
func parsed(w http.ResponseWriter, r *http.Request) bool {
	if err := r.ParseForm(); err != nil {
		stripeError(w, http.StatusBadRequest, "", err.Error())
		return false
	}
	return true
}
