package authapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"time"

	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/random"
	"aiwork/shared/store"
)

type tokenResponse struct {
	AccessToken string      `json:"access_token"`
	TokenType   string      `json:"token_type"`
	User        domain.User `json:"user"`
}

// Throttle scopes (store.Admit keys).
const (
	scopeLoginEmail    = auth.LoginThrottleScope
	scopeLoginSource   = "login-source-email"
	scopeLoginAddress  = "login-address"
	scopeRegister      = "register-address"
	scopeResend        = "resend-user"
	scopeForgotEmail   = "forgot-email"
	scopeForgotAddress = "forgot-address"
)

// register creates an unverified account, mails the confirmation link and
// signs the new user in. Registrations are counted per client address
// before any work is done.
func (s *Service) register(w http.ResponseWriter, r *http.Request) error {
	var in registerInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	if err := in.validate(); err != nil {
		return err
	}
	ctx := r.Context()
	if limit := s.cfg.RegisterLimitPerIP; limit > 0 {
		if err := s.admit(ctx, scopeRegister, s.clientAddress(r), limit, registerWindow, msgRegisterThrottled); err != nil {
			return err
		}
	}
	hash, err := auth.HashPassword(in.Password)
	if err != nil {
		return fmt.Errorf("register: %w", err)
	}
	// Not verified, so not an admin yet whatever ADMIN_EMAILS says: that
	// comes with the proof of the address (verifyEmail).
	u := domain.User{
		ID: newID(), Email: in.Email, Username: in.Username, FullName: in.FullName,
		PasswordHash: hash, CreatedAt: s.now().UTC(),
	}
	switch err := s.st.CreateUser(ctx, u); {
	case errors.Is(err, store.ErrEmailTaken):
		return httpx.Conflict("Email already registered")
	case errors.Is(err, store.ErrUsernameTaken):
		return httpx.Conflict("Username already taken")
	case err != nil:
		return fmt.Errorf("register: %w", err)
	}
	s.recordActivity(ctx, u.ID, domain.Activity{
		ID: "account-created", Type: domain.ActivityAccountCreated, Title: "Account created",
		Description: "Welcome, " + u.Username + "! Your account is ready.", CreatedAt: u.CreatedAt,
	})
	// A mail that did not go is logged; the user can ask again
	// (resend-verification), so the registration stands.
	if err := s.sendVerification(ctx, r, u); err != nil {
		slog.ErrorContext(ctx, "verification mail not sent", "user", u.ID, "err", err)
	}
	return s.answerSignedIn(w, r, http.StatusCreated, u)
}

// login counts the attempt before it checks the password, so concurrent
// guesses cannot outrun the limits: per client address (every email), per
// client address and email (of 50 concurrent wrong passwords for one email
// from one source, 5 are checked and 45 refused), and per email from every
// source (the account's ceiling, high enough that holding it shut takes
// many sources). Wrong passwords from one source do not lock the account
// for the others: its owner, signing in from anywhere else, gets in.
func (s *Service) login(w http.ResponseWriter, r *http.Request) error {
	var in loginInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	if err := in.validate(); err != nil {
		return err
	}
	ctx := r.Context()
	source := signInSource(s.clientAddress(r))
	if err := s.admit(ctx, scopeLoginAddress, source, loginLimitAddress, loginWindow, msgLoginThrottled); err != nil {
		return err
	}
	fromSource := sourceKey(source, in.Email)
	sourceWin, err := s.admitCounted(ctx, scopeLoginSource, fromSource, loginLimitSource, loginWindow, msgLoginThrottled)
	if err != nil {
		return err
	}
	accountWin, err := s.admitCounted(ctx, scopeLoginEmail, in.Email, loginLimitEmail, loginWindow, msgLoginThrottled)
	if err != nil {
		// Refused by the ceiling: no password was tried, so this source's
		// own budget keeps the attempt.
		if relErr := s.st.Release(ctx, scopeLoginSource, fromSource, sourceWin); relErr != nil {
			slog.WarnContext(ctx, "release login attempt", "err", relErr)
		}
		return err
	}
	u, err := s.st.UserByEmail(ctx, in.Email)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("login: %w", err)
	}
	if !auth.CheckPassword(u.PasswordHash, in.Password) {
		return httpx.Unauthorized(msgBadCredentials)
	}
	// Said only to whoever knows the password.
	if u.Disabled {
		return errAccountDisabled
	}
	// The owner got in: their typos from this source no longer count
	// against them, and this attempt was no failure. Others' failures
	// still count towards the ceiling.
	if err := s.st.ClearFailures(ctx, scopeLoginSource, fromSource); err != nil {
		slog.WarnContext(ctx, "clear login attempts", "err", err)
	}
	if err := s.st.Release(ctx, scopeLoginEmail, in.Email, accountWin); err != nil {
		slog.WarnContext(ctx, "release login attempt", "err", err)
	}
	token, sid, err := s.openSession(ctx, u.ID)
	if err != nil {
		return err
	}
	// A password reset, a Google take-over or an admin's Disable may have
	// run while the password was being checked; they end every session
	// they can see, so this one, opened after, must check again that the
	// password it accepted is still the account's, and the account enabled.
	cur, err := s.st.GetUser(ctx, u.ID)
	if err != nil || cur.PasswordHash != u.PasswordHash || cur.Disabled {
		if endErr := s.st.EndSession(ctx, u.ID, sid); endErr != nil {
			return endErr
		}
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("login: %w", err)
		}
		if err == nil && cur.PasswordHash == u.PasswordHash {
			return errAccountDisabled
		}
		return httpx.Unauthorized(msgBadCredentials)
	}
	s.recordActivity(ctx, u.ID, domain.Activity{
		ID: newID(), Type: domain.ActivityLogin, Title: "Signed in",
		Description: "Signed in with email and password.", CreatedAt: s.now().UTC(),
	})
	httpx.WriteJSON(w, http.StatusOK, tokenResponse{AccessToken: token, TokenType: "bearer", User: cur})
	return nil
}

// logout ends the caller's session: its token is refused from now on, by
// every route group.
func (s *Service) logout(w http.ResponseWriter, r *http.Request) error {
	uid, _ := auth.UserID(r.Context())
	if err := s.st.EndSession(r.Context(), uid, auth.SessionID(r.Context())); err != nil {
		return fmt.Errorf("logout: %w", err)
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Service) me(w http.ResponseWriter, r *http.Request) error {
	u, err := s.currentUser(r)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, u)
	return nil
}

// currentUser is the signed-in caller's account; 401 when it is gone.
func (s *Service) currentUser(r *http.Request) (domain.User, error) {
	id, _ := auth.UserID(r.Context())
	u, err := s.st.GetUser(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		return u, httpx.Unauthorized("This account no longer exists.")
	}
	if err != nil {
		return u, fmt.Errorf("current user: %w", err)
	}
	return u, nil
}

// openSession starts a server-side session for uid and signs a token that
// names it; the session lasts as long as the token.
func (s *Service) openSession(ctx context.Context, uid string) (token, sid string, err error) {
	sid = newID()
	if err := s.st.CreateSession(ctx, uid, sid, time.Now().Add(s.tokens.TTL())); err != nil {
		return "", "", err
	}
	token, err = s.tokens.IssueSession(uid, sid)
	return token, sid, err
}

// answerSignedIn opens a session for u and answers the login shape.
func (s *Service) answerSignedIn(w http.ResponseWriter, r *http.Request, status int, u domain.User) error {
	token, _, err := s.openSession(r.Context(), u.ID)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, status, tokenResponse{AccessToken: token, TokenType: "bearer", User: u})
	return nil
}

// msgAccountDisabled is what a disabled account's sign-in is told.
const msgAccountDisabled = "This account has been disabled. If you think this is a mistake, please contact support."

// errAccountDisabled refuses a sign-in to a disabled account.
var errAccountDisabled = &httpx.Error{Code: httpx.CodeAccountDisabled, Detail: msgAccountDisabled}

// openEnabledSession is openSession for an account that must not be
// disabled: an admin's Disable ends every session it sees, and this one may
// be opened just after, so the account is read again once the session is
// open, and a disabled one's session is ended (errAccountDisabled).
func (s *Service) openEnabledSession(ctx context.Context, u domain.User) (string, error) {
	if u.Disabled {
		return "", errAccountDisabled
	}
	token, sid, err := s.openSession(ctx, u.ID)
	if err != nil {
		return "", err
	}
	cur, err := s.st.GetUser(ctx, u.ID)
	if err == nil && !cur.Disabled {
		return token, nil
	}
	if endErr := s.st.EndSession(ctx, u.ID, sid); endErr != nil {
		return "", endErr
	}
	if err != nil {
		return "", fmt.Errorf("sign in: %w", err)
	}
	return "", errAccountDisabled
}

// isAdminEmail reports whether ADMIN_EMAILS lists email; callers grant it
// only to a proven address.
func (s *Service) isAdminEmail(email string) bool { return slices.Contains(s.cfg.AdminEmails, email) }

// recordActivity writes an activity; a failure is logged, never fatal to the
// action it describes.
func (s *Service) recordActivity(ctx context.Context, uid string, a domain.Activity) {
	if err := s.st.AddActivity(ctx, uid, a); err != nil {
		slog.WarnContext(ctx, "record activity", "type", a.Type, "err", err)
	}
}

func newID() string { return random.Hex(16) }
