// Package paymentsapi is the payments route group: what the caller owns, and
// (with the payments work) checkout and its verification.
package paymentsapi

import (
	"net/http"

	"aiwork/shared/auth"
	"aiwork/shared/httpx"
	"aiwork/shared/store"
)

// Service holds what the handlers need.
type Service struct {
	st     *store.Store
	tokens *auth.Tokens
}

// New builds the payments group.
func New(st *store.Store, tokens *auth.Tokens) *Service {
	return &Service{st: st, tokens: tokens}
}

// Handler routes /api/v1/payments/*.
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /api/v1/payments/owned-prompts", s.tokens.Required(httpx.Handle(s.ownedPrompts)))
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
