package agentsapi

import (
	"errors"
	"net/http"

	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/store"
)

// Buying a paid agent: the prompts' checkout (paymentsapi.Service.Checkout),
// so the same local checkout page, session reuse, fee split, fulfilment and
// refunds; the order and the ownership it grants say "agent".

const (
	msgAgentFree       = "This agent is free: start a chat."
	msgOwnAgent        = "You cannot buy your own agent."
	msgAgentOwned      = "You already own this agent."
	msgAgentNotForSale = "This agent is not for sale right now."
)

// checkout opens (or answers the open) checkout of the agent for the
// caller: {"checkout_url", "session_id"}.
func (s *Service) checkout(w http.ResponseWriter, r *http.Request) error {
	if s.opts.Checkout == nil {
		return httpx.Errorf(httpx.CodeUnavailable, "Buying agents is not available on this site.")
	}
	ctx := r.Context()
	uid, _ := auth.UserID(ctx)
	a, err := s.st.GetAgent(ctx, r.PathValue("id"))
	if errors.Is(err, store.ErrNotFound) {
		return httpx.NotFound(msgNotFound)
	}
	if err != nil {
		return err
	}
	own := a.CreatorID == uid
	bought, err := s.st.Owns(ctx, uid, a.ID)
	if err != nil {
		return err
	}
	// An agent never published is not found (as its page), but for its
	// creator; one taken off sale since is said to be.
	if !a.OnSale() && a.Published == 0 && !own && !bought {
		return httpx.NotFound(msgNotFound)
	}
	switch {
	case a.IsFree():
		return httpx.Invalid(msgAgentFree)
	case own:
		return httpx.Forbidden(msgOwnAgent)
	case bought:
		return httpx.Conflict(msgAgentOwned)
	case !a.OnSale():
		return httpx.Conflict(msgAgentNotForSale)
	}
	out, err := s.opts.Checkout.Checkout(r, uid, domain.SellableAgent(a))
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}
