// Package authapi is the auth route group: register, login, me, health and
// Google sign-in. Lambda and the devserver mount the same Handler.
package authapi

import (
	"net/http"
	"sync"
	"time"

	"aiwork/shared/auth"
	"aiwork/shared/config"
	"aiwork/shared/httpx"
	"aiwork/shared/store"
)

// Login throttling (DESIGN §8): per email, and a looser limit per client address.
const (
	throttleWindow    = 15 * time.Minute
	maxFailuresEmail  = 5
	maxFailuresRemote = 100
)

// Service holds what the handlers need.
type Service struct {
	store  *store.Store
	tokens *auth.Tokens
	cfg    config.Auth
	now    func() time.Time

	oidcOnce sync.Mutex
	oidc     *oidcClient
}

// New builds the auth group's handler.
func New(st *store.Store, cfg config.Auth) *Service {
	return &Service{store: st, tokens: auth.NewTokens(cfg.JWTSecret, cfg.TokenTTL), cfg: cfg, now: time.Now}
}

// Tokens is the group's token issuer (shared with tests).
func (s *Service) Tokens() *auth.Tokens { return s.tokens }

// Handler routes /api/v1/auth/*.
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("POST /api/v1/auth/register", httpx.Handle(s.register))
	mux.Handle("POST /api/v1/auth/login", httpx.Handle(s.login))
	mux.Handle("GET /api/v1/auth/me", s.tokens.Required(httpx.Handle(s.me)))
	mux.Handle("GET /api/v1/auth/health", httpx.Handle(health))
	mux.Handle("GET /api/v1/auth/google/login", httpx.Handle(s.googleLogin))
	mux.Handle("GET /api/v1/auth/google/callback", http.HandlerFunc(s.googleCallback))
	return httpx.WithNotFound(mux)
}

func health(w http.ResponseWriter, r *http.Request) error {
	httpx.WriteJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	return nil
}
