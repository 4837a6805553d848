// Package stripestandin answers the part of Stripe's API the payments,
// stripe-webhook, admin and creators functions call, from the local test
// checkout and its Connect stand-in, so that `make run-lambda` runs their
// real Stripe code with no Stripe account.
package stripestandin

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strconv"

	"aiwork/shared/payments"
)

// Key is the Stripe key the functions get when the Stripe API
// stand-in serves them (no STRIPE_SECRET_KEY set): only it accepts it.
const Key = "sk_test_local_checkout"

// New answers the Stripe API calls payments.StripeProvider makes
// (create, retrieve and expire a checkout session, refund a payment) from
// the local test checkout's sessions: a created session's url is the local
// checkout page, as make run's local provider answers, and its Pay delivers
// the signed event through the gateway to the stripe-webhook function.
func New(local *payments.LocalProvider) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/checkout/sessions", func(w http.ResponseWriter, r *http.Request) {
		if !parsed(w, r) {
			return
		}
		f := r.PostForm
		unit, _ := strconv.ParseInt(f.Get("line_items[0][price_data][unit_amount]"), 10, 64)
		qty, err := strconv.ParseInt(f.Get("line_items[0][quantity]"), 10, 64)
		if err != nil || qty < 1 {
			qty = 1
		}
		user := f.Get("metadata[user_id]")
		if user == "" {
			user = f.Get("client_reference_id")
		}
		req := payments.CheckoutRequest{
			UserID: user, PromptID: f.Get("metadata[prompt_id]"), Kind: f.Get("metadata[kind]"),
			ProductName: f.Get("line_items[0][price_data][product_data][name]"), AmountCents: unit * qty,
			SuccessURL: f.Get("success_url"), CancelURL: f.Get("cancel_url"), IdempotencyKey: r.Header.Get("Idempotency-Key"),
			Destination: f.Get("payment_intent_data[transfer_data][destination]"),
		}
		if msg := readSplit(f, &req); msg != "" {
			stripeError(w, http.StatusBadRequest, "parameter_invalid_integer", msg)
			return
		}
		sess, err := local.CreateCheckout(r.Context(), req)
		writeStripeSession(w, sess, err)
	})
	mux.HandleFunc("GET /v1/checkout/sessions/{id}", func(w http.ResponseWriter, r *http.Request) {
		sess, err := local.GetSession(r.Context(), r.PathValue("id"))
		writeStripeSession(w, sess, err)
	})
	mux.HandleFunc("POST /v1/checkout/sessions/{id}/expire", func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		if err := local.ExpireSession(r.Context(), id); err != nil {
			writeStripeSession(w, payments.Session{}, err)
			return
		}
		sess, err := local.GetSession(r.Context(), id)
		writeStripeSession(w, sess, err)
	})
	mux.HandleFunc("POST /v1/refunds", func(w http.ResponseWriter, r *http.Request) {
		if !parsed(w, r) {
			return
		}
		f := r.PostForm
		// A destination charge's refund takes back the transfer and the fee
		// together; Stripe refuses a fee refund without the reversal.
		reverse, feeBack := f.Get("reverse_transfer") == "true", f.Get("refund_application_fee") == "true"
		if feeBack && !reverse {
			stripeError(w, http.StatusBadRequest, "", "refund_application_fee can only be used with reverse_transfer.")
			return
		}
		req := payments.RefundRequest{SessionID: f.Get("metadata[session_id]"), PaymentIntent: f.Get("payment_intent"),
			IdempotencyKey: r.Header.Get("Idempotency-Key"), Reason: f.Get("reason"), Split: reverse}
		if sess, err := local.GetSession(r.Context(), req.SessionID); err == nil {
			req.AmountCents = sess.AmountCents
		}
		id, err := local.Refund(r.Context(), req)
		if err != nil {
			stripeError(w, http.StatusInternalServerError, "", err.Error())
			return
		}
		writeStripeJSON(w, map[string]any{"id": id, "object": "refund", "status": "succeeded", "amount": req.AmountCents,
			"currency": "usd", "payment_intent": req.PaymentIntent, "reason": f.Get("reason"), "metadata": map[string]string{"session_id": req.SessionID}})
	})
	connectRoutes(mux, local)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		stripeError(w, http.StatusNotFound, "", "Unrecognized request URL ("+r.Method+": "+r.URL.Path+") for the local Stripe stand-in.")
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+Key {
			stripeError(w, http.StatusUnauthorized, "", "Invalid API Key provided.")
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// readSplit reads a destination charge's application fee into req, or
// answers why Stripe would refuse it.
func readSplit(f url.Values, req *payments.CheckoutRequest) string {
	raw := f.Get("payment_intent_data[application_fee_amount]")
	if raw == "" {
		return ""
	}
	fee, err := strconv.ParseInt(raw, 10, 64)
	switch {
	case err != nil || fee < 0:
		return "Invalid non-negative integer: payment_intent_data[application_fee_amount]"
	case req.Destination == "":
		return "Can only apply an application_fee_amount when the PaymentIntent is attempting a destination payment (using transfer_data[destination])."
	case fee > req.AmountCents:
		return "The application fee cannot be greater than the amount of the payment."
	}
	req.ApplicationFeeCents = fee
	return ""
}

// writeStripeSession answers sess as Stripe's checkout.session object, or
// err as Stripe's error (an unknown session is its 404 resource_missing).
func writeStripeSession(w http.ResponseWriter, sess payments.Session, err error) {
	switch {
	case errors.Is(err, payments.ErrUnknownSession):
		stripeError(w, http.StatusNotFound, "resource_missing", "No such checkout.session")
		return
	case err != nil:
		stripeError(w, http.StatusInternalServerError, "", err.Error())
		return
	}
	var intent any
	if sess.PaymentIntent != "" {
		intent = sess.PaymentIntent
	}
	writeStripeJSON(w, map[string]any{
		"id": sess.ID, "object": "checkout.session", "mode": "payment", "url": sess.URL,
		"status": sess.Status, "payment_status": sess.PaymentStatus, "amount_total": sess.AmountCents,
		"currency": sess.Currency, "client_reference_id": sess.UserID, "payment_intent": intent,
		"metadata": sessionMetadata(sess),
	})
}

// sessionMetadata is the metadata the session was made with: the buyer,
// the item and, for an agent, its kind.
func sessionMetadata(sess payments.Session) map[string]string {
	m := map[string]string{"user_id": sess.UserID, "prompt_id": sess.PromptID}
	if sess.Kind != "" {
		m["kind"] = sess.Kind
	}
	return m
}

func writeStripeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func stripeError(w http.ResponseWriter, status int, code, msg string) {
	kind := "invalid_request_error"
	if status >= 500 {
		kind = "api_error"
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"type": kind, "code": code, "message": msg}})
}
