// Package webhookapi receives Stripe's webhook events: the signature is
// checked on the raw body, each event is applied once by the same
// idempotent fulfilment the success page runs, then recorded.
package webhookapi

import (
	"errors"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/stripe/stripe-go/v84/webhook"

	"aiwork/shared/config"
	"aiwork/shared/httpx"
	"aiwork/shared/payments"
	"aiwork/shared/routes"
	"aiwork/shared/store"
)

// Path is where Stripe posts events.
const Path = routes.WebhookPath

// Tolerance is how old a signature may be (replay protection).
const Tolerance = 300 * time.Second

// maxEventBytes caps an event body; Stripe's events are far smaller.
const maxEventBytes = 512 << 10

// FromConfig builds the webhook from its function's configuration, for the
// provider its Stripe key names (payments.ProviderFor).
func FromConfig(st *store.Store, cfg config.Webhook) http.Handler {
	return New(st, cfg.WebhookSecret, payments.ProviderFor(st, cfg.StripeSecretKey, cfg.StripeAPIURL))
}

// New builds the webhook handler for provider's sessions (it refunds
// duplicate payments and expires superseded sessions through it).
func New(st *store.Store, secret string, provider payments.Provider) http.Handler {
	f := payments.NewFulfiller(st, provider)
	mux := http.NewServeMux()
	mux.Handle("POST "+Path, httpx.Handle(func(w http.ResponseWriter, r *http.Request) error {
		payload, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxEventBytes))
		if err != nil {
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				return &httpx.Error{Code: httpx.CodeTooLarge, Detail: "Event body too large."}
			}
			return httpx.Invalid("Could not read the event body.")
		}
		ev, err := webhook.ConstructEventWithOptions(payload, r.Header.Get("Stripe-Signature"), secret,
			webhook.ConstructEventOptions{Tolerance: Tolerance})
		if err != nil {
			slog.WarnContext(r.Context(), "webhook refused", "err", err)
			return httpx.Invalid("Invalid webhook signature or payload.")
		}
		ctx := r.Context()
		done, err := st.EventProcessed(ctx, ev.ID)
		if err != nil {
			return err
		}
		if !done {
			if err := f.HandleEvent(ctx, provider.Name(), ev); err != nil {
				return err // 500: Stripe retries later
			}
			// Shown on the admins' order page.
			if err := f.RecordEvent(ctx, ev, time.Now()); err != nil {
				return err
			}
			if err := st.MarkEventProcessed(ctx, ev.ID, string(ev.Type), time.Now()); err != nil {
				return err
			}
		}
		httpx.WriteJSON(w, http.StatusOK, map[string]any{"received": true})
		return nil
	}))
	return httpx.WithNotFound(mux)
}
