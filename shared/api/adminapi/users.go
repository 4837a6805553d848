package adminapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"

	"aiwork/shared/api/authapi/accountmail"
	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/mail"
	"aiwork/shared/store"
)

// Users: the listing (search by the start of the email or username), one
// account, and what an admin does to one (POST …/users/{id}/{action}).

type userView struct {
	ID          string `json:"id"`
	Email       string `json:"email"`
	Username    string `json:"username"`
	FullName    string `json:"full_name"`
	IsVerified  bool   `json:"is_verified"`
	IsSuperuser bool   `json:"is_superuser"`
	Disabled    bool   `json:"disabled"`
	// LockedUntil: the sign-in throttle refuses the email's password until
	// then (omitted when it does not).
	LockedUntil     string `json:"locked_until,omitempty"`
	CreatedAt       string `json:"created_at"`
	Purchases       int    `json:"purchases"`
	Connections     int    `json:"connections"`
	ChatTokensToday int    `json:"chat_tokens_today"`
}

// userSnapshot is an account in an audit line: the view, and what the
// action changed beyond it.
type userSnapshot struct {
	userView
	// Sessions: the open sessions (end-sessions, disable).
	Sessions *int `json:"sessions,omitempty"`
	// ConfirmationSentTo: where a confirmation link was mailed.
	ConfirmationSentTo string `json:"confirmation_sent_to,omitempty"`
}

// The actions of POST …/users/{id}/{action}, in the order an error lists them.
var userActions = []string{"resend-confirmation", "unlock", "end-sessions", "grant-admin", "revoke-admin", "disable", "enable"}

func (s *Service) userRoutes(mux *http.ServeMux) {
	mux.Handle("GET "+Prefix+"users", s.admin(s.listUsers))
	mux.Handle("GET "+Prefix+"users/{id}", s.admin(s.getUser))
	mux.Handle("POST "+Prefix+"users/{id}/{action}", s.admin(s.userAction))
}

// present is u as the admins see it: its sign-in lock and its counts.
func (s *Service) present(ctx context.Context, u domain.User) (userView, error) {
	now := s.opts.Now()
	v := userView{ID: u.ID, Email: u.Email, Username: u.Username, FullName: u.FullName, IsVerified: u.IsVerified,
		IsSuperuser: u.IsSuperuser, Disabled: u.Disabled, CreatedAt: utcSeconds(u.CreatedAt)}
	win, err := s.st.FailureWindow(ctx, auth.LoginThrottleScope, u.Email, auth.LoginWindow, now)
	if err != nil {
		return v, err
	}
	if win.Count >= auth.LoginLimitPerEmail {
		v.LockedUntil = utcSeconds(win.Ends(auth.LoginWindow))
	}
	c, err := s.st.CountsOf(ctx, u.ID, now)
	if err != nil {
		return v, err
	}
	v.Purchases, v.Connections, v.ChatTokensToday = c.Purchases, c.Connections, c.ChatTokensToday
	return v, nil
}

// presentAll presents users a few at a time.
func (s *Service) presentAll(ctx context.Context, users []domain.User) ([]userView, error) {
	out := make([]userView, len(users))
	errs := make([]error, len(users))
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for i, u := range users {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			out[i], errs[i] = s.present(ctx, u)
		})
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// listUsers answers the accounts, newest first; q= matches the start of
// the email or of the username (any case), so a whole one matches too.
func (s *Service) listUsers(w http.ResponseWriter, r *http.Request) error {
	limit, _, err := pageParams(r)
	if err != nil {
		return err
	}
	users, next, total, err := s.st.AdminUsers(r.Context(), store.UserQuery{Search: r.URL.Query().Get("q"), Limit: limit, Cursor: r.URL.Query().Get("cursor")})
	if errors.Is(err, store.ErrBadCursor) {
		return httpx.Invalid("cursor is not one this API gave (for this search)")
	}
	if err != nil {
		return err
	}
	items, err := s.presentAll(r.Context(), users)
	if err != nil {
		return err
	}
	writePage(w, items, next, total)
	return nil
}

func (s *Service) userOr404(ctx context.Context, uid string) (domain.User, error) {
	u, err := s.st.GetUser(ctx, uid)
	if errors.Is(err, store.ErrNotFound) {
		return u, httpx.NotFound("User not found.")
	}
	return u, err
}

func (s *Service) getUser(w http.ResponseWriter, r *http.Request) error {
	u, err := s.userOr404(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	return s.answerUser(r.Context(), w, u)
}

// answerUser answers 200 with the account as it is now.
func (s *Service) answerUser(ctx context.Context, w http.ResponseWriter, u domain.User) error {
	v, err := s.present(ctx, u)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, v)
	return nil
}

// userAction runs one action on an account and answers it as it is after.
// An action that would change nothing (grant to an admin, enable an enabled
// account…) answers the account without an audit line.
func (s *Service) userAction(w http.ResponseWriter, r *http.Request) error {
	action := r.PathValue("action")
	if !slices.Contains(userActions, action) {
		return httpx.NotFound(fmt.Sprintf("Unknown action %q: use %s or %s.", action, strings.Join(userActions[:len(userActions)-1], ", "), userActions[len(userActions)-1]))
	}
	ctx := r.Context()
	u, err := s.userOr404(ctx, r.PathValue("id"))
	if err != nil {
		return err
	}
	switch action {
	case "resend-confirmation":
		err = s.resendConfirmation(ctx, r, u)
	case "unlock":
		err = s.unlock(ctx, u)
	case "end-sessions":
		err = s.endSessions(ctx, u)
	case "grant-admin":
		err = s.grantAdmin(ctx, u)
	case "revoke-admin":
		err = s.revokeAdmin(ctx, u)
	case "disable":
		err = s.disable(ctx, u)
	case "enable":
		err = s.enable(ctx, u)
	}
	var refused refusedWithAccount
	if errors.As(err, &refused) {
		return s.conflictWith(ctx, w, refused.detail, refused.u)
	}
	if err != nil {
		return err
	}
	cur, err := s.userOr404(ctx, u.ID)
	if err != nil {
		return err
	}
	return s.answerUser(ctx, w, cur)
}

// refusedWithAccount is an action refused with a 409 that shows the
// account as it is.
type refusedWithAccount struct {
	detail string
	u      domain.User
}

func (e refusedWithAccount) Error() string { return e.detail }

// snapshot is u's audit snapshot.
func (s *Service) snapshot(ctx context.Context, u domain.User) (userSnapshot, error) {
	v, err := s.present(ctx, u)
	return userSnapshot{userView: v}, err
}

// sessionsEnding is the account before and after an action that ends its
// sessions: the open ones counted, then none.
func (s *Service) sessionsEnding(ctx context.Context, u domain.User) (before, after userSnapshot, err error) {
	if before, err = s.snapshot(ctx, u); err != nil {
		return before, after, err
	}
	open, err := s.st.CountSessions(ctx, u.ID, s.opts.Now())
	if err != nil {
		return before, after, err
	}
	none := 0
	after = before
	before.Sessions, after.Sessions = &open, &none
	return before, after, nil
}

// conflictWith answers 409 with detail and the account as it is.
func (s *Service) conflictWith(ctx context.Context, w http.ResponseWriter, detail string, u domain.User) error {
	v, err := s.present(ctx, u)
	if err != nil {
		return err
	}
	writeConflict(w, detail, v)
	return nil
}

// resendConfirmation mails an unconfirmed account a new confirmation link,
// the mail the auth group sends (accountmail).
func (s *Service) resendConfirmation(ctx context.Context, r *http.Request, u domain.User) error {
	if u.IsVerified {
		return refusedWithAccount{u.Email + " is confirmed already: there is no confirmation to send.", u}
	}
	before, err := s.snapshot(ctx, u)
	if err != nil {
		return err
	}
	after := before
	after.ConfirmationSentTo = u.Email
	mailer := s.opts.Mailer
	if mailer == nil {
		mailer = mail.Disabled{}
	}
	err = s.st.WithAudit(ctx, s.audit(ctx, "user.resend_confirmation", "user", u.ID, before, after), func() error {
		return accountmail.SendConfirmation(ctx, s.st, mailer, httpx.PublicURL(r, s.opts.PublicURL), u, s.opts.Now())
	})
	switch {
	case errors.Is(err, mail.ErrNotConfigured):
		return httpx.Errorf(httpx.CodeUnavailable, "This site cannot send email (no sender is configured), so no confirmation was sent.")
	case errors.Is(err, mail.ErrAddressRefused):
		// Sending again cannot help: the account's address has to change.
		slog.WarnContext(ctx, "confirmation mail refused for its address", "user", u.ID, "err", err)
		return httpx.Invalid("Mail cannot be sent to this address: the mail provider refuses it.")
	case err != nil:
		slog.ErrorContext(ctx, "confirmation mail not sent", "user", u.ID, "err", err)
		return httpx.Errorf(httpx.CodeUpstream, "The confirmation email could not be sent. Please try again in a few minutes.")
	}
	return nil
}

// unlock clears the sign-in throttle of the account's email.
func (s *Service) unlock(ctx context.Context, u domain.User) error {
	before, err := s.snapshot(ctx, u)
	if err != nil {
		return err
	}
	after := before
	after.LockedUntil = ""
	return s.st.WithAudit(ctx, s.audit(ctx, "user.unlock", "user", u.ID, before, after), func() error {
		return s.st.ClearFailures(ctx, auth.LoginThrottleScope, u.Email)
	})
}

// endSessions ends every session of the account: its tokens stop working
// at once, on every route group.
func (s *Service) endSessions(ctx context.Context, u domain.User) error {
	before, after, err := s.sessionsEnding(ctx, u)
	if err != nil {
		return err
	}
	return s.st.WithAudit(ctx, s.audit(ctx, "user.end_sessions", "user", u.ID, before, after), func() error {
		_, err := s.st.EndSessions(ctx, u.ID)
		return err
	})
}

// grantAdmin makes a confirmed account an admin. An unconfirmed address
// may not be its owner's (someone registered it before them), so it is
// refused, as ADMIN_EMAILS grants only a proven one.
func (s *Service) grantAdmin(ctx context.Context, u domain.User) error {
	if u.IsSuperuser {
		return nil
	}
	if !u.IsVerified {
		return refusedWithAccount{u.Email + " is not confirmed yet: an admin's address must be proven first (resend the confirmation).", u}
	}
	before, err := s.snapshot(ctx, u)
	if err != nil {
		return err
	}
	after := before
	after.IsSuperuser = true
	return s.st.WithAudit(ctx, s.audit(ctx, "user.grant_admin", "user", u.ID, before, after), func() error {
		_, err := s.st.SetSuperuser(ctx, u.ID, true)
		return err
	})
}

// msgLastAdmin refuses taking away the only admin left.
const msgLastAdmin = "This is the last admin: grant admin to another confirmed account first, so that someone can still run the site."

// errAdminRightsBusy is a change that waited too long for another.
var errAdminRightsBusy = httpx.Conflict("Another change to admin rights is under way; please try again.")

// removingAdmin runs change, which may leave one admin fewer (revoke,
// disable), under the admin-rights lease: the actor must still be an
// enabled admin (a revoked or disabled actor gets 403), and target, read
// again, is handed to change. Two admins revoking each other at once end
// with one of them still an admin.
func (s *Service) removingAdmin(ctx context.Context, target string, change func(target domain.User) error) error {
	err := s.st.WithAdminRightsLease(ctx, newClaimID(), func() error {
		me, err := s.st.GetUser(ctx, actor(ctx).ID)
		if errors.Is(err, store.ErrNotFound) || (err == nil && (!me.IsSuperuser || me.Disabled)) {
			return httpx.Forbidden(MsgForbidden)
		}
		if err != nil {
			return err
		}
		u, err := s.userOr404(ctx, target)
		if err != nil {
			return err
		}
		return change(u)
	})
	if errors.Is(err, store.ErrAdminRightsBusy) {
		return errAdminRightsBusy
	}
	return err
}

// revokeAdmin takes the admin right away; never from the last enabled
// admin (which only the admin itself can be: whoever revokes is one).
func (s *Service) revokeAdmin(ctx context.Context, u domain.User) error {
	if !u.IsSuperuser {
		return nil
	}
	return s.removingAdmin(ctx, u.ID, func(u domain.User) error {
		if !u.IsSuperuser {
			return nil
		}
		if u.ID == actor(ctx).ID {
			other, err := s.st.OtherActiveAdmin(ctx, u.ID)
			if err != nil {
				return err
			}
			if !other {
				return refusedWithAccount{msgLastAdmin, u}
			}
		}
		before, err := s.snapshot(ctx, u)
		if err != nil {
			return err
		}
		after := before
		after.IsSuperuser = false
		return s.st.WithAudit(ctx, s.audit(ctx, "user.revoke_admin", "user", u.ID, before, after), func() error {
			_, err := s.st.SetSuperuser(ctx, u.ID, false)
			return err
		})
	})
}

// disable refuses the account's sign-in and ends every session of it
// (again, for a disabled one). Never the caller's own.
func (s *Service) disable(ctx context.Context, u domain.User) error {
	if u.ID == actor(ctx).ID {
		return refusedWithAccount{"You cannot disable your own account.", u}
	}
	return s.removingAdmin(ctx, u.ID, func(u domain.User) error {
		before, after, err := s.sessionsEnding(ctx, u)
		if err != nil {
			return err
		}
		after.Disabled = true
		var endErr error
		err = s.st.WithAudit(ctx, s.audit(ctx, "user.disable", "user", u.ID, before, after), func() error {
			if _, err := s.st.SetDisabled(ctx, u.ID, true); err != nil {
				return err
			}
			// Disabled: the change happened (sign-in is refused, and each
			// sign-in checks again after opening its session). The
			// sessions end after; should that fail, disabling again ends
			// them.
			for range 3 {
				if _, endErr = s.st.EndSessions(ctx, u.ID); endErr == nil {
					break
				}
			}
			return nil
		})
		if err == nil && endErr != nil {
			slog.ErrorContext(ctx, "disabled, sessions not ended", "user", u.ID, "err", endErr)
			return httpx.Errorf(httpx.CodeInternal, "The account is disabled, but not every session could be ended: disable it again to end them.")
		}
		return err
	})
}

// enable lets a disabled account sign in again.
func (s *Service) enable(ctx context.Context, u domain.User) error {
	if !u.Disabled {
		return nil
	}
	before, err := s.snapshot(ctx, u)
	if err != nil {
		return err
	}
	after := before
	after.Disabled = false
	return s.st.WithAudit(ctx, s.audit(ctx, "user.enable", "user", u.ID, before, after), func() error {
		_, err := s.st.SetDisabled(ctx, u.ID, false)
		return err
	})
}
