// Package usersapi is the users route group: the caller's recent activities
// and chat usage.
package usersapi

import (
	"net/http"
	"time"

	"aiwork/shared/auth"
	"aiwork/shared/config"
	"aiwork/shared/httpx"
	"aiwork/shared/store"
)

// Paths of the group.
const (
	ActivitiesPath = "/api/v1/users/activities"
	UsagePath      = "/api/v1/users/usage"
)

// Options configure the group.
type Options struct {
	// ChatLimits are the chat function's limits, reported with the usage
	// (both functions read the same CHAT_* variables).
	ChatLimits config.ChatLimits
	// Now is the clock (tests move it across days).
	Now func() time.Time
}

// Service serves the users group.
type Service struct {
	st     *store.Store
	tokens *auth.Tokens
	opts   Options
}

// New builds the users group.
func New(st *store.Store, tokens *auth.Tokens, opts Options) *Service {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Service{st: st, tokens: tokens, opts: opts}
}

// FromConfig builds the group from its function's configuration.
func FromConfig(st *store.Store, cfg config.Users) *Service {
	return New(st, auth.FromConfig(cfg.Base, 0, st), Options{ChatLimits: cfg.ChatLimits})
}

// Handler routes the group.
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET "+ActivitiesPath, s.tokens.Required(httpx.Handle(s.activities)))
	mux.Handle("GET "+UsagePath, s.tokens.Required(httpx.Handle(s.usage)))
	return httpx.WithNotFound(mux)
}

// activities answers the caller's recent activities, newest first.
func (s *Service) activities(w http.ResponseWriter, r *http.Request) error {
	uid, _ := auth.UserID(r.Context())
	acts, err := s.st.Activities(r.Context(), uid)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, acts)
	return nil
}
