// Package agentsapi is the agents route group (/api/v1/agents/…): the
// agent marketplace's list and pages, an agent's file, ratings (and
// checkout, checkout.go). A paid agent's instructions leave through no
// route of this group, to anyone: the chat adds them on the server. A
// free agent's are on its page and in its file. An agent not on sale is
// not found, but for its creator and its buyers.
package agentsapi

import (
	"errors"
	"net/http"
	"time"

	"aiwork/shared/api/paymentsapi"
	"aiwork/shared/auth"
	"aiwork/shared/config"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/store"
)

// Prefix is where the group's routes live.
const Prefix = "/api/v1/agents/"

// Options configure the group.
type Options struct {
	// Now is the clock.
	Now func() time.Time
	// Checkout sells paid agents (the prompts' checkout); nil: no buying.
	Checkout *paymentsapi.Service
}

// Service serves the agents group.
type Service struct {
	st     *store.Store
	tokens *auth.Tokens
	opts   Options
}

// New builds the agents group.
func New(st *store.Store, tokens *auth.Tokens, opts Options) *Service {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Service{st: st, tokens: tokens, opts: opts}
}

// FromConfig builds the group from its function's configuration: the
// payments group's, as a paid agent is sold through the prompts' checkout
// (the Stripe key, PUBLIC_URL for its return pages, the platform's fee).
func FromConfig(st *store.Store, cfg config.Payments) *Service {
	return New(st, auth.FromConfig(cfg.Base, 0, st), Options{Checkout: paymentsapi.FromConfig(st, cfg)})
}

// Handler routes the group.
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	optional := func(h httpx.HandlerFunc) http.Handler { return s.tokens.Optional(httpx.Handle(h)) }
	required := func(h httpx.HandlerFunc) http.Handler { return s.tokens.Required(httpx.Handle(h)) }
	mux.Handle("GET "+Prefix+"{$}", optional(s.list))
	mux.Handle("GET "+Prefix+"{id}", optional(s.get))
	mux.Handle("GET "+Prefix+"{id}/export", optional(s.export))
	mux.Handle("POST "+Prefix+"{id}/rate", required(s.rate))
	mux.Handle("POST "+Prefix+"{id}/checkout", required(s.checkout))
	return httpx.WithNotFound(mux)
}

const msgNotFound = "Agent not found."

// access is what the caller may do with an agent.
type access struct {
	uid     string // "" for a visitor
	creator bool   // the caller made it
	bought  bool   // the caller bought it
}

// owned: the caller bought it or made it.
func (a access) owned() bool { return a.creator || a.bought }

// visible is the agent named in the path and the caller's access to it:
// 404 for an agent not on sale, but for its creator and its buyers.
func (s *Service) visible(r *http.Request) (domain.Agent, access, error) {
	a, err := s.st.GetAgent(r.Context(), r.PathValue("id"))
	if errors.Is(err, store.ErrNotFound) {
		return a, access{}, httpx.NotFound(msgNotFound)
	}
	if err != nil {
		return a, access{}, err
	}
	var acc access
	acc.uid, _ = auth.UserID(r.Context())
	if acc.uid != "" {
		acc.creator = a.CreatorID == acc.uid
		if !acc.creator {
			if acc.bought, err = s.st.Owns(r.Context(), acc.uid, a.ID); err != nil {
				return a, acc, err
			}
		}
	}
	if !a.OnSale() && !acc.owned() {
		return a, acc, httpx.NotFound(msgNotFound)
	}
	return a, acc, nil
}
