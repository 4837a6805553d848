// Package authapi is the auth route group: register, login, logout, me,
// email verification, password reset, health and Google sign-in. Lambda and
// the devserver mount the same Handler.
package authapi

import (
	"net/http"
	"sync"
	"time"

	"aiwork/shared/auth"
	"aiwork/shared/config"
	"aiwork/shared/httpx"
	"aiwork/shared/mail"
	"aiwork/shared/store"
)

// Throttles (DESIGN §8). Each counts an attempt before the work it guards
// (store.Admit: one conditional write that refuses past the limit), so a
// burst of concurrent requests cannot pass it.
const (
	// Sign-in: per client address and email (the burst limit, which one
	// source's wrong passwords fill for that source only), per email from
	// every source (the account's ceiling; an admin's Unlock clears it),
	// and per client address over every email.
	loginWindow       = auth.LoginWindow
	loginLimitSource  = auth.LoginLimitPerSource
	loginLimitEmail   = auth.LoginLimitPerEmail
	loginLimitAddress = 100
	// Registration: per client address (cfg.RegisterLimitPerIP).
	registerWindow = time.Hour
	// Verification mail asked again: per account.
	resendWindow = time.Hour
	resendLimit  = 5
	// Reset links asked for: per email and per client address.
	forgotWindow       = time.Hour
	forgotLimitEmail   = 5
	forgotLimitAddress = 20
)

// Lifetime of a mailed reset link (a confirmation link's is
// accountmail.VerifyLinkTTL).
const resetLinkTTL = time.Hour

// The store keeps the sessions every route group's middleware checks.
var _ auth.Sessions = (*store.Store)(nil)

// Service holds what the handlers need.
type Service struct {
	st     *store.Store
	tokens *auth.Tokens
	mailer mail.Mailer
	cfg    config.Auth
	now    func() time.Time

	oidcOnce sync.Mutex
	oidc     *oidcClient
}

// FromConfig builds the auth group from its function's configuration:
// mailer sends the verification and reset mail (SES in AWS, the local
// outbox on the devserver).
func FromConfig(st *store.Store, cfg config.Auth, mailer mail.Mailer) *Service {
	return New(st, cfg, mailer)
}

// New builds the auth group (FromConfig).
func New(st *store.Store, cfg config.Auth, mailer mail.Mailer) *Service {
	if cfg.RegisterLimitPerIP == 0 {
		cfg.RegisterLimitPerIP = config.DefaultRegisterLimitPerIP
	}
	if mailer == nil {
		mailer = mail.Disabled{}
	}
	return &Service{
		st: st, tokens: auth.FromConfig(cfg.Base, cfg.TokenTTL, st),
		mailer: mailer, cfg: cfg, now: time.Now,
	}
}

// WithClock replaces the clock of links and throttles (tests of expiry).
func (s *Service) WithClock(now func() time.Time) *Service {
	s.now = now
	return s
}

// Tokens is the group's token issuer (shared with tests).
func (s *Service) Tokens() *auth.Tokens { return s.tokens }

// Handler routes /api/v1/auth/*.
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	required := s.tokens.Required
	mux.Handle("POST /api/v1/auth/register", httpx.Handle(s.register))
	mux.Handle("POST /api/v1/auth/login", httpx.Handle(s.login))
	mux.Handle("POST /api/v1/auth/logout", required(httpx.Handle(s.logout)))
	mux.Handle("GET /api/v1/auth/me", required(httpx.Handle(s.me)))
	mux.Handle("POST /api/v1/auth/verify-email", httpx.Handle(s.verifyEmail))
	mux.Handle("POST /api/v1/auth/resend-verification", required(httpx.Handle(s.resendVerification)))
	mux.Handle("POST /api/v1/auth/forgot-password", httpx.Handle(s.forgotPassword))
	mux.Handle("POST /api/v1/auth/reset-password", httpx.Handle(s.resetPassword))
	mux.Handle("GET /api/v1/auth/health", httpx.Handle(health))
	mux.Handle("GET /api/v1/auth/google/login", httpx.Handle(s.googleLogin))
	mux.Handle("GET "+callbackPath, http.HandlerFunc(s.googleCallback))
	return httpx.WithNotFound(mux)
}

func health(w http.ResponseWriter, r *http.Request) error {
	httpx.WriteJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	return nil
}
