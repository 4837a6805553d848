// Package localcheckout serves the local test checkout pages on the
// devserver (never in Lambda): Pay marks the session paid and delivers a
// Stripe-format, correctly signed checkout.session.completed event to the
// real webhook handler, then redirects to the success URL, as Stripe does.
package localcheckout

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v84"
	"github.com/stripe/stripe-go/v84/webhook"

	"aiwork/shared/payments"
	"aiwork/shared/routes"
	"aiwork/shared/store"
)

// New serves /dev/checkout/{id} with Pay and Cancel. webhookHandler is the
// handler mounted at the webhook path; secret signs the events.
func New(st *store.Store, webhookHandler http.Handler, secret string) http.Handler {
	h := &handler{st: st, webhook: webhookHandler, secret: secret}
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+payments.LocalCheckoutPath+"{id}", h.show)
	mux.HandleFunc("POST "+payments.LocalCheckoutPath+"{id}/pay", h.pay)
	mux.HandleFunc("POST "+payments.LocalCheckoutPath+"{id}/cancel", h.cancel)
	return mux
}

type handler struct {
	st      *store.Store
	webhook http.Handler
	secret  string
}

func (h *handler) session(w http.ResponseWriter, r *http.Request) (store.LocalSession, bool) {
	ls, err := h.st.GetLocalSession(r.Context(), r.PathValue("id"))
	if errors.Is(err, store.ErrNotFound) {
		http.Error(w, "Unknown checkout session.", http.StatusNotFound)
		return ls, false
	}
	if err != nil {
		http.Error(w, "Could not read the checkout session.", http.StatusInternalServerError)
		return ls, false
	}
	return ls, true
}

func (h *handler) show(w http.ResponseWriter, r *http.Request) {
	ls, ok := h.session(w, r)
	if !ok {
		return
	}
	h.render(w, ls, "", http.StatusOK)
}

func (h *handler) render(w http.ResponseWriter, ls store.LocalSession, errMsg string, status int) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = page.Execute(w, pageData{
		Product: ls.ProductName, Amount: fmt.Sprintf("$%.2f", float64(ls.AmountCents)/100),
		PayURL: payments.LocalCheckoutPath + ls.ID + "/pay", CancelURL: payments.LocalCheckoutPath + ls.ID + "/cancel",
		Status: ls.Status, Open: ls.Status == "open", Error: errMsg,
	})
}

func (h *handler) pay(w http.ResponseWriter, r *http.Request) {
	ls, ok := h.session(w, r)
	if !ok {
		return
	}
	if ls.Status == "open" {
		paid, err := h.st.CompleteLocalSession(r.Context(), ls.ID, "pi_local_"+ls.ID[len("cs_local_"):])
		if err != nil && !errors.Is(err, store.ErrOrderState) {
			h.render(w, ls, "Could not complete the payment. Please try again.", http.StatusInternalServerError)
			return
		}
		if err == nil {
			ls = paid
		} else if ls, err = h.st.GetLocalSession(r.Context(), ls.ID); err != nil {
			h.render(w, ls, "Could not complete the payment. Please try again.", http.StatusInternalServerError)
			return
		}
	}
	if ls.Status != "complete" {
		h.render(w, ls, "", http.StatusConflict)
		return
	}
	// Deliver the event as Stripe would. Delivering it again on a repeated
	// Pay is harmless: fulfilment is idempotent.
	if status, body := h.deliver(ls); status != http.StatusOK {
		slog.ErrorContext(r.Context(), "local webhook delivery failed", "status", status, "body", body)
		h.render(w, ls, "The webhook refused the payment event: "+body, http.StatusBadGateway)
		return
	}
	http.Redirect(w, r, strings.ReplaceAll(ls.SuccessURL, "{CHECKOUT_SESSION_ID}", ls.ID), http.StatusSeeOther)
}

func (h *handler) cancel(w http.ResponseWriter, r *http.Request) {
	ls, ok := h.session(w, r)
	if !ok {
		return
	}
	http.Redirect(w, r, ls.CancelURL, http.StatusSeeOther)
}

// deliver signs a checkout.session.completed event and posts it to the
// webhook handler in-process.
func (h *handler) deliver(ls store.LocalSession) (int, string) {
	payload, err := json.Marshal(CompletedEvent(ls, time.Now()))
	if err != nil {
		return http.StatusInternalServerError, err.Error()
	}
	signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: h.secret, Timestamp: time.Now()})
	req := httptest.NewRequest(http.MethodPost, routes.WebhookPath, strings.NewReader(string(signed.Payload)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Stripe-Signature", signed.Header)
	rec := httptest.NewRecorder()
	h.webhook.ServeHTTP(rec, req)
	return rec.Code, rec.Body.String()
}

// CompletedEvent is the Stripe-format event for a paid local session.
func CompletedEvent(ls store.LocalSession, now time.Time) map[string]any {
	return map[string]any{
		"id": "evt_local_" + ls.ID[len("cs_local_"):], "object": "event", "api_version": stripe.APIVersion,
		"created": now.Unix(), "livemode": false, "pending_webhooks": 1, "type": "checkout.session.completed",
		"data": map[string]any{"object": map[string]any{
			"id": ls.ID, "object": "checkout.session", "mode": "payment", "status": ls.Status,
			"payment_status": ls.PaymentStatus, "amount_total": ls.AmountCents, "currency": ls.Currency,
			"client_reference_id": ls.ClientRef, "metadata": ls.Metadata, "payment_intent": ls.PaymentIntent,
			"success_url": ls.SuccessURL, "cancel_url": ls.CancelURL, "created": ls.Created,
		}},
	}
}
