package paymentsapi_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"aiwork/shared/api/apitest"
	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/local/devstack"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// Stripe answers 500 when a checkout is opened: the buyer gets a
// clear 502, no open checkout is recorded (the next click asks Stripe again
// at once, not after a lease), and no order is left pending.
func TestStripeErrorOpensNoCheckout(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	stripeDown := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(`{"error":{"type":"api_error","message":"Something went wrong on Stripe's end."}}`))
	}))
	t.Cleanup(stripeDown.Close)
	st, storeCfg := storetest.NewWithConfig(t)
	prompt := domain.Prompt{ID: "stripe-down", Title: "Stripe down", Content: "c", Price: 4.99, CategoryID: "writing", CreatedAt: time.Now()}
	apitest.PutCatalogue(t, st, prompt)
	cfg := devstack.ConfigFor(storeCfg, jwtSecret, 0, webhookSecret)
	cfg.Payments.StripeSecretKey, cfg.Payments.StripeAPIURL = "sk_test_stripe_down", stripeDown.URL
	h, err := devstack.Handler(st, cfg, "")
	storetest.Must(t, err, "handler")
	uid, token := apitest.User(t, st, auth.NewTokens(jwtSecret, time.Hour), "buyer")

	body := `{"prompt_id":"stripe-down"}`
	apitest.WantError(t, apitest.Do(h, "POST", "/api/v1/payments/create-checkout-session", token, body, nil), http.StatusBadGateway,
		"The payment provider could not start a checkout. Please try again.")
	// Nothing recorded: not a session, not even the claim (released, so the next click is not held by its lease).
	if rec, err := st.GetOpenCheckout(t.Context(), uid, "stripe-down"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("after Stripe failed the checkout record is %+v, %v; want none", rec, err)
	}
	first := calls.Load()
	apitest.WantError(t, apitest.Do(h, "POST", "/api/v1/payments/create-checkout-session", token, body, nil), http.StatusBadGateway, "")
	if calls.Load() == first {
		t.Error("the second click did not reach Stripe: the failed one's claim was kept")
	}
	if pending, err := st.PendingOrders(t.Context(), uid, "stripe-down"); err != nil || len(pending) != 0 {
		t.Errorf("pending orders after Stripe failed: %v, %v", pending, err)
	}
}
