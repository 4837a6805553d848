package authapi

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"time"

	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/store"
)

type tokenResponse struct {
	AccessToken string      `json:"access_token"`
	TokenType   string      `json:"token_type"`
	User        domain.User `json:"user"`
}

func (s *Service) register(w http.ResponseWriter, r *http.Request) error {
	var in registerInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	if err := in.validate(); err != nil {
		return err
	}
	hash, err := auth.HashPassword(in.Password)
	if err != nil {
		return fmt.Errorf("register: %w", err)
	}
	u := domain.User{
		ID: newID(), Email: in.Email, Username: in.Username, FullName: in.FullName,
		PasswordHash: hash, IsSuperuser: slices.Contains(s.cfg.AdminEmails, in.Email),
		CreatedAt: s.now().UTC(),
	}
	switch err := s.store.CreateUser(r.Context(), u); {
	case errors.Is(err, store.ErrEmailTaken):
		return httpx.Conflict("Email already registered")
	case errors.Is(err, store.ErrUsernameTaken):
		return httpx.Conflict("Username already taken")
	case err != nil:
		return fmt.Errorf("register: %w", err)
	}
	s.recordActivity(r, u.ID, domain.Activity{
		ID: "account-created", Type: domain.ActivityAccountCreated, Title: "Account created",
		Description: "Welcome, " + u.Username + "! Your account is ready.", CreatedAt: u.CreatedAt,
	})
	return s.answerToken(w, http.StatusCreated, u)
}

func (s *Service) login(w http.ResponseWriter, r *http.Request) error {
	var in loginInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	if err := in.validate(); err != nil {
		return err
	}
	ctx, now, remote := r.Context(), s.now(), clientAddress(r)
	if err := s.checkThrottle(r, "email", in.Email, maxFailuresEmail, now); err != nil {
		return err
	}
	if err := s.checkThrottle(r, "remote", remote, maxFailuresRemote, now); err != nil {
		return err
	}
	u, err := s.store.UserByEmail(ctx, in.Email)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("login: %w", err)
	}
	if !auth.CheckPassword(u.PasswordHash, in.Password) {
		for scope, k := range map[string]string{"email": in.Email, "remote": remote} {
			if _, err := s.store.RecordFailure(ctx, scope, k, throttleWindow, now); err != nil {
				return fmt.Errorf("login: %w", err)
			}
		}
		return httpx.Unauthorized(msgBadCredentials)
	}
	if err := s.store.ClearFailures(ctx, "email", in.Email); err != nil {
		slog.WarnContext(ctx, "clear login failures", "err", err)
	}
	s.recordActivity(r, u.ID, domain.Activity{
		ID: newID(), Type: domain.ActivityLogin, Title: "Signed in",
		Description: "Signed in with email and password.", CreatedAt: now.UTC(),
	})
	return s.answerToken(w, http.StatusOK, u)
}

// checkThrottle refuses a sign-in while its failure window is full, saying
// when to retry; the password is not even checked then.
func (s *Service) checkThrottle(r *http.Request, scope, k string, limit int, now time.Time) error {
	win, err := s.store.FailureWindow(r.Context(), scope, k, throttleWindow, now)
	if err != nil {
		return fmt.Errorf("login: %w", err)
	}
	if win.Count < limit {
		return nil
	}
	wait := win.Ends(throttleWindow).Sub(now)
	minutes := int(wait.Minutes() + 0.999)
	unit := "minutes"
	if minutes == 1 {
		unit = "minute"
	}
	return &httpx.Error{
		Code:              httpx.CodeRateLimited,
		Detail:            fmt.Sprintf("Too many failed login attempts. Try again in %d %s (after %s UTC).", minutes, unit, win.Ends(throttleWindow).UTC().Format("15:04")),
		RetryAfterSeconds: int(wait.Seconds() + 0.999),
	}
}

func (s *Service) me(w http.ResponseWriter, r *http.Request) error {
	id, _ := auth.UserID(r.Context())
	u, err := s.store.GetUser(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		return httpx.Unauthorized("This account no longer exists.")
	}
	if err != nil {
		return fmt.Errorf("me: %w", err)
	}
	httpx.WriteJSON(w, http.StatusOK, u)
	return nil
}

func (s *Service) answerToken(w http.ResponseWriter, status int, u domain.User) error {
	token, err := s.tokens.Issue(u.ID)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, status, tokenResponse{AccessToken: token, TokenType: "bearer", User: u})
	return nil
}

// recordActivity writes an activity; a failure is logged, never fatal to the
// sign-in it describes.
func (s *Service) recordActivity(r *http.Request, uid string, a domain.Activity) {
	if err := s.store.AddActivity(r.Context(), uid, a); err != nil {
		slog.WarnContext(r.Context(), "record activity", "type", a.Type, "err", err)
	}
}

func clientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

func newID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
