// Package creatorsapi is the creators route group (/api/v1/creators/…): a
// creator's profile and their prompts, drafted, edited and submitted for
// review. The rules of a prompt are the prompts package's, as for the
// admins; review decisions are the admin group's. A creator reads only
// their own prompts (another's id is not found) and never a buyer.
package creatorsapi

import (
	"net/http"
	"time"

	"aiwork/shared/auth"
	"aiwork/shared/config"
	"aiwork/shared/httpx"
	"aiwork/shared/payments"
	"aiwork/shared/store"
)

// Prefix is where the group's routes live.
const Prefix = "/api/v1/creators/"

// Options configure the group.
type Options struct {
	// Now is the clock.
	Now func() time.Time
	// Connect sets up and reads creators' payouts (nil: payouts cannot be
	// set up here, 503).
	Connect payments.Connect
	// PublicURL is where Stripe sends a creator back after onboarding
	// (empty: the request's own address).
	PublicURL string
}

// Service serves the creators group.
type Service struct {
	st     *store.Store
	tokens *auth.Tokens
	opts   Options
}

// New builds the creators group.
func New(st *store.Store, tokens *auth.Tokens, opts Options) *Service {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Service{st: st, tokens: tokens, opts: opts}
}

// FromConfig builds the group from its function's configuration.
func FromConfig(st *store.Store, cfg config.Creators) *Service {
	return New(st, auth.FromConfig(cfg.Base, 0, st), Options{
		Connect: payments.ConnectFor(st, cfg.StripeSecretKey, cfg.StripeAPIURL), PublicURL: cfg.PublicURL})
}

// Handler routes the group.
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	signedIn := func(h httpx.HandlerFunc) http.Handler { return s.tokens.Required(httpx.Handle(h)) }
	mux.Handle("GET "+Prefix+"me", signedIn(s.getProfile))
	mux.Handle("PUT "+Prefix+"me", signedIn(s.putProfile))
	mux.Handle("POST "+Prefix+"me/onboarding", signedIn(s.startOnboarding))
	mux.Handle("GET "+Prefix+"me/dashboard", signedIn(s.getDashboard))
	mux.Handle("GET "+Prefix+"me/prompts", signedIn(s.listPrompts))
	mux.Handle("POST "+Prefix+"me/prompts", signedIn(s.createPrompt))
	mux.Handle("GET "+Prefix+"me/prompts/{id}", signedIn(s.getPrompt))
	mux.Handle("PATCH "+Prefix+"me/prompts/{id}", signedIn(s.patchPrompt))
	mux.Handle("DELETE "+Prefix+"me/prompts/{id}", signedIn(s.deletePrompt))
	mux.Handle("POST "+Prefix+"me/prompts/{id}/submit", signedIn(s.submitPrompt))
	s.agentRoutes(mux, signedIn)
	// Public: a creator's page ("me" is the caller's own, above).
	mux.Handle("GET "+Prefix+"{username}", httpx.Handle(s.publicProfile))
	return httpx.WithNotFound(mux)
}
