// Package promptsapi is the prompts route group: the catalogue, free uses and
// ratings. Paid content leaves only through present, to callers with access.
package promptsapi

import (
	"net/http"

	"aiwork/shared/auth"
	"aiwork/shared/config"
	"aiwork/shared/httpx"
	"aiwork/shared/store"
)

// Service holds what the handlers need.
type Service struct {
	st        *store.Store
	tokens    *auth.Tokens
	freeLimit int
	// verifiedOnly: a free use needs a confirmed email (the default;
	// REQUIRE_EMAIL_VERIFICATION=false turns it off).
	verifiedOnly       bool
	categoryNamesCache *categoryCache
}

// New builds the prompts group; freeLimit is FREE_PROMPTS_PER_USER. Free
// uses need a confirmed email unless WithEmailVerification(false).
func New(st *store.Store, tokens *auth.Tokens, freeLimit int) *Service {
	return &Service{st: st, tokens: tokens, freeLimit: freeLimit, verifiedOnly: true, categoryNamesCache: &categoryCache{}}
}

// FromConfig builds the group from its function's configuration.
func FromConfig(st *store.Store, cfg config.Prompts) *Service {
	return New(st, auth.FromConfig(cfg.Base, 0, st), cfg.FreePromptsPerUser).WithEmailVerification(!cfg.SkipEmailVerification)
}

// WithEmailVerification sets whether free uses need a confirmed email
// (REQUIRE_EMAIL_VERIFICATION).
func (s *Service) WithEmailVerification(required bool) *Service {
	s.verifiedOnly = required
	return s
}

// Handler routes /api/v1/prompts/*.
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	optional, required := s.tokens.Optional, s.tokens.Required
	mux.Handle("GET /api/v1/prompts/{$}", optional(httpx.Handle(s.list)))
	mux.Handle("GET /api/v1/prompts/categories", httpx.Handle(s.categories))
	mux.Handle("GET /api/v1/prompts/featured", optional(httpx.Handle(s.featured)))
	mux.Handle("GET /api/v1/prompts/free-usage-status", required(httpx.Handle(s.freeStatus)))
	mux.Handle("GET /api/v1/prompts/{id}", optional(httpx.Handle(s.get)))
	mux.Handle("GET /api/v1/prompts/{id}/versions/{n}", required(httpx.Handle(s.version)))
	// "use-free-prompt/{id}" and "{id}/rate" overlap as mux patterns, so one
	// route takes both shapes and dispatches.
	mux.Handle("POST /api/v1/prompts/{first}/{second}", required(httpx.Handle(func(w http.ResponseWriter, r *http.Request) error {
		first, second := r.PathValue("first"), r.PathValue("second")
		switch {
		case first == "use-free-prompt":
			return s.useFree(w, r, second)
		case second == "rate":
			return s.rate(w, r, first)
		}
		return httpx.NotFound("Not found: " + r.Method + " " + r.URL.Path)
	})))
	return httpx.WithNotFound(mux)
}
