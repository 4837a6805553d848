// Package paymentsapi is the payments route group: checkout, its
// verification on the success page, and what the caller owns.
package paymentsapi

import (
	"net/http"

	"aiwork/shared/auth"
	"aiwork/shared/config"
	"aiwork/shared/httpx"
	"aiwork/shared/payments"
	"aiwork/shared/store"
)

// Service holds what the handlers need.
type Service struct {
	st        *store.Store
	tokens    *auth.Tokens
	provider  payments.Provider
	fulfiller *payments.Fulfiller
	cfg       config.Payments
}

// New builds the payments group with its checkout provider.
func New(st *store.Store, tokens *auth.Tokens, provider payments.Provider, cfg config.Payments) *Service {
	return &Service{st: st, tokens: tokens, provider: provider, fulfiller: payments.NewFulfiller(st, provider), cfg: cfg}
}

// FromConfig builds the group from its function's configuration.
func FromConfig(st *store.Store, cfg config.Payments) *Service {
	return New(st, auth.FromConfig(cfg.Base, 0, st), NewProvider(st, cfg), cfg)
}

// NewProvider is the checkout provider cfg names (payments.ProviderFor).
func NewProvider(st *store.Store, cfg config.Payments) payments.Provider {
	return payments.ProviderFor(st, cfg.StripeSecretKey, cfg.StripeAPIURL)
}

// Handler routes /api/v1/payments/* (the webhook is its own function).
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	required := s.tokens.Required
	mux.Handle("GET /api/v1/payments/owned-prompts", required(httpx.Handle(s.ownedPrompts)))
	mux.Handle("POST /api/v1/payments/create-checkout-session", required(httpx.Handle(s.createCheckout)))
	mux.Handle("GET /api/v1/payments/verify-session/{session_id}", required(httpx.Handle(s.verifySession)))
	return httpx.WithNotFound(mux)
}

func (s *Service) ownedPrompts(w http.ResponseWriter, r *http.Request) error {
	uid, _ := auth.UserID(r.Context())
	ids, err := s.st.OwnedPromptIDs(r.Context(), uid)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, map[string][]string{"owned_prompt_ids": ids})
	return nil
}
