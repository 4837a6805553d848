package paymentsapi

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	"aiwork/shared/auth"
	"aiwork/shared/httpx"
	"aiwork/shared/payments"
	"aiwork/shared/store"
)

type checkoutInput struct {
	PromptID string `json:"prompt_id"`
}

type checkoutResponse struct {
	CheckoutURL string `json:"checkout_url"`
	SessionID   string `json:"session_id"`
}

// idempotencyWindow: a double click within it gets the same session.
const idempotencyWindow = 10 * time.Minute

// createCheckout opens a checkout for one prompt and records the order as
// PENDING; fulfilment happens on the webhook or the success page.
func (s *Service) createCheckout(w http.ResponseWriter, r *http.Request) error {
	var in checkoutInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	in.PromptID = strings.TrimSpace(in.PromptID)
	if in.PromptID == "" {
		return httpx.Invalid("prompt_id is required")
	}
	ctx := r.Context()
	uid, _ := auth.UserID(ctx)
	p, err := s.st.GetPrompt(ctx, in.PromptID)
	if errors.Is(err, store.ErrNotFound) {
		return httpx.NotFound("Prompt not found")
	}
	if err != nil {
		return err
	}
	owned, err := s.st.Owns(ctx, uid, p.ID)
	if err != nil {
		return err
	}
	if owned {
		return httpx.Conflict("You already own this prompt")
	}
	free, err := s.st.FreeStatus(ctx, uid, s.cfg.FreePromptsPerUser)
	if err != nil {
		return err
	}
	if slices.Contains(free.PromptIDs, p.ID) {
		return httpx.Conflict("You already have this prompt: you used it for free")
	}
	if free.Remaining > 0 {
		return httpx.Invalid(fmt.Sprintf("You can still use this prompt for free (%d of %d free prompts left).", free.Remaining, free.TotalAllowed))
	}
	base := httpx.PublicURL(r, s.cfg.PublicURL)
	cents := int64(math.Round(p.Price * 100))
	sess, err := s.provider.CreateCheckout(ctx, payments.CheckoutRequest{
		UserID: uid, PromptID: p.ID, ProductName: p.Title, AmountCents: cents,
		SuccessURL:     base + "/payment/success?session_id={CHECKOUT_SESSION_ID}",
		CancelURL:      base + "/payment/cancel",
		IdempotencyKey: idempotencyKey(uid, p.ID, cents, time.Now()),
	})
	if err != nil {
		slog.ErrorContext(ctx, "create checkout", "provider", s.provider.Name(), "err", err)
		return httpx.Errorf(httpx.CodeUpstream, "The payment provider could not start a checkout. Please try again.")
	}
	if err := s.st.PutOrder(ctx, store.Order{
		SessionID: sess.ID, UserID: uid, PromptID: p.ID, PromptTitle: p.Title, Amount: float64(cents) / 100,
		Status: store.OrderPending, Provider: s.provider.Name(), CreatedAt: time.Now().UTC().Format(time.RFC3339Nano),
	}); err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, checkoutResponse{CheckoutURL: sess.URL, SessionID: sess.ID})
	return nil
}

func idempotencyKey(uid, pid string, cents int64, now time.Time) string {
	bucket := now.Truncate(idempotencyWindow).Unix()
	sum := sha256.Sum256(fmt.Appendf(nil, "checkout|%s|%s|%d|%d", uid, pid, cents, bucket))
	return hex.EncodeToString(sum[:16])
}

type verifyResponse struct {
	PromptTitle string  `json:"prompt_title"`
	Amount      float64 `json:"amount"`
	SessionID   string  `json:"session_id"`
	Status      string  `json:"status"`
}

// verifySession is the success page's check: it asks the provider and
// fulfils a paid session itself, in case the webhook has not arrived yet.
// Only the buyer may look: anyone else gets the same 404 as an unknown id.
func (s *Service) verifySession(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	uid, _ := auth.UserID(ctx)
	sid := r.PathValue("session_id")
	order, err := s.st.GetOrder(ctx, sid)
	if errors.Is(err, store.ErrNotFound) || (err == nil && order.UserID != uid) {
		return httpx.NotFound("Payment session not found")
	}
	if err != nil {
		return err
	}
	sess, err := s.provider.GetSession(ctx, sid)
	if errors.Is(err, payments.ErrUnknownSession) {
		return httpx.NotFound("Payment session not found")
	}
	if err != nil {
		slog.ErrorContext(ctx, "verify session", "err", err)
		return httpx.Errorf(httpx.CodeUpstream, "Could not reach the payment provider to verify this payment. Please try again.")
	}
	switch {
	case sess.Paid():
		order, err = s.fulfiller.Fulfil(ctx, s.provider.Name(), sess)
		if errors.Is(err, payments.ErrRefunded) {
			return httpx.Invalid("This payment was refunded, so the prompt is no longer available.")
		}
		if err != nil {
			return err
		}
	// The order knows what the provider's session may not show (the local
	// test checkout's sessions never change state on their own).
	case sess.Status == "expired" || order.Status == store.OrderExpired:
		return httpx.Invalid("This checkout session expired before payment. Nothing was charged.")
	case order.Status == store.OrderFailed:
		return httpx.Invalid("This payment failed. Nothing was charged.")
	default:
		return httpx.Invalid("This payment has not been completed yet.")
	}
	httpx.WriteJSON(w, http.StatusOK, verifyResponse{PromptTitle: order.PromptTitle, Amount: order.Amount, SessionID: order.SessionID, Status: "paid"})
	return nil
}
