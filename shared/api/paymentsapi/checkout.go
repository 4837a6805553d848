package paymentsapi

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"aiwork/shared/api/promptsapi/freeuse"
	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/payments"
	"aiwork/shared/store"
)

type checkoutInput struct {
	PromptID string `json:"prompt_id"`
}

// CheckoutResponse is a checkout's answer: where the buyer pays.
type CheckoutResponse struct {
	CheckoutURL string `json:"checkout_url"`
	SessionID   string `json:"session_id"`
}

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
	if errors.Is(err, store.ErrNotFound) || (err == nil && p.Unpublished) {
		return httpx.NotFound("Prompt not found") // an unpublished prompt is not sold
	}
	if err == nil && p.CreatorSuspended {
		return httpx.Conflict("This prompt is not for sale right now.")
	}
	if err == nil && p.CreatorID != "" && p.CreatorID == uid {
		return httpx.Forbidden("You cannot buy your own prompt.")
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
	// As the caller may see it: an unconfirmed alias is not told how many
	// uses the address's owner spent.
	free, err := freeuse.Status(ctx, s.st, uid, s.cfg.FreePromptsPerUser)
	if err != nil {
		return err
	}
	if slices.Contains(free.PromptIDs, p.ID) {
		return httpx.Conflict("You already have this prompt: you used it for free")
	}
	if free.Remaining > 0 {
		return httpx.Errorf(httpx.CodeFreeUseAvailable, "You can still use this prompt for free (%d of %d free prompts left).", free.Remaining, free.TotalAllowed)
	}
	out, err := s.Checkout(r, uid, domain.SellablePrompt(p))
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}

// Checkout opens (or answers the open) checkout of item for uid, as every
// sale is made: the same session reuse, fee split, order and fulfilment
// for prompts and agents. The caller has decided that uid may buy item
// (not its creator, not owned, on sale); a creator who cannot receive
// payments is refused here (409).
func (s *Service) Checkout(r *http.Request, uid string, item domain.Sellable) (CheckoutResponse, error) {
	ctx := r.Context()
	sl, err := s.saleOf(ctx, item)
	if err != nil {
		return CheckoutResponse{}, err
	}
	return s.openCheckout(ctx, uid, item, sl, httpx.PublicURL(r, s.cfg.PublicURL))
}

// StatusDuplicateRefunded is verify-session's status for a payment of a
// prompt the buyer already had: refunded, and the prompt stays theirs.
const StatusDuplicateRefunded = "duplicate_refunded"

type verifyResponse struct {
	PromptTitle string  `json:"prompt_title"` // an agent's name for an agent
	Amount      float64 `json:"amount"`
	SessionID   string  `json:"session_id"`
	Status      string  `json:"status"`
	// Kind is what was bought, "prompt" or "agent"; AgentID names the agent.
	Kind    string `json:"kind"`
	AgentID string `json:"agent_id,omitempty"`
}

// verified is the success page's answer about order.
func verified(order domain.Order, status string) verifyResponse {
	out := verifyResponse{PromptTitle: order.PromptTitle, Amount: order.Amount, SessionID: order.SessionID, Status: status,
		Kind: domain.KindOf(order.Kind)}
	if order.Kind == domain.KindAgent {
		out.AgentID = order.PromptID
	}
	return out
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
		if errors.Is(err, payments.ErrDuplicateRefunded) {
			// The buyer keeps the prompt; the page says the money went back.
			httpx.WriteJSON(w, http.StatusOK, verified(order, StatusDuplicateRefunded))
			return nil
		}
		if errors.Is(err, payments.ErrRefunded) {
			return httpx.Invalid(fmt.Sprintf("This payment was refunded, so the %s is no longer available.", domain.KindOf(order.Kind)))
		}
		if err != nil {
			return err
		}
	// The order knows what the provider's session may not show (the local
	// test checkout's sessions never change state on their own).
	case sess.Status == "expired" || order.Status == domain.OrderExpired:
		return httpx.Invalid("This checkout session expired before payment. Nothing was charged.")
	case order.Status == domain.OrderFailed:
		return httpx.Invalid("This payment failed. Nothing was charged.")
	default:
		return httpx.Invalid("This payment has not been completed yet.")
	}
	httpx.WriteJSON(w, http.StatusOK, verified(order, "paid"))
	return nil
}
