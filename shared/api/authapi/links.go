package authapi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"aiwork/shared/api/authapi/accountmail"
	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/mail"
	"aiwork/shared/store"
)

// The web page a reset link opens (it calls reset-password with the
// token; a confirmation link's is accountmail.VerifyEmailPage).
const resetPasswordPage = "/reset-password"

// newLinkToken is a mailed link's secret and the hash it is stored under
// (accountmail: one kind of link token for every mailed link).
func newLinkToken() (token, hash string) { return accountmail.NewLinkToken() }

// hashLinkToken is the SHA-256 (hex) a link is stored under.
func hashLinkToken(token string) string { return accountmail.HashLinkToken(token) }

// passwordTag fingerprints the password a reset link replaces: once the
// password changes, links sent before no longer work.
func passwordTag(hash string) string {
	sum := sha256.Sum256([]byte("reset:" + hash))
	return hex.EncodeToString(sum[:8])
}

// link is the absolute address of a web page with ?token=: PUBLIC_URL, else
// the host the browser asked the product's CloudFront for (httpx.PublicURL
// never reads a forwarded host a client could write itself): a reset link
// mailed to an account's owner cannot point at a host of a sender's choosing.
func (s *Service) link(r *http.Request, page, token string) string {
	return accountmail.Link(s.publicURL(r), page, token)
}

// clientAddress is the caller's address for the per-address throttles.
func (s *Service) clientAddress(r *http.Request) string {
	return httpx.ClientAddress(r)
}

type linkInput struct {
	Token string `json:"token"`
}

type statusResponse struct {
	Status string `json:"status"`
	Detail string `json:"detail"`
}

type verifiedResponse struct {
	Status string      `json:"status"`
	Detail string      `json:"detail"`
	User   domain.User `json:"user"`
}

// sendVerification mails u a new single-use confirmation link (24 h): the
// mail an admin's Resend confirmation sends too (accountmail).
func (s *Service) sendVerification(ctx context.Context, r *http.Request, u domain.User) error {
	return accountmail.SendConfirmation(ctx, s.st, s.mailer, s.publicURL(r), u, s.now())
}

// verifyEmail spends a confirmation link: the account's email is verified
// and, when ADMIN_EMAILS lists it, the account becomes an admin. No sign-in
// is needed (the link may be opened in another browser).
func (s *Service) verifyEmail(w http.ResponseWriter, r *http.Request) error {
	var in linkInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	ctx := r.Context()
	lt, err := s.useLink(ctx, store.LinkVerifyEmail, in.Token, verifyLinkWords)
	if err != nil {
		return err
	}
	u, err := s.st.GetUser(ctx, lt.UserID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && !strings.EqualFold(u.Email, lt.Email)) {
		return &httpx.Error{Code: httpx.CodeLinkInvalid, Detail: verifyLinkWords.invalid}
	}
	if err != nil {
		return fmt.Errorf("verify email: %w", err)
	}
	if !u.IsVerified || (s.isAdminEmail(u.Email) && !u.IsSuperuser) {
		if u, err = s.st.MarkVerified(ctx, u.ID, s.isAdminEmail(u.Email)); err != nil {
			return fmt.Errorf("verify email: %w", err)
		}
		s.recordActivity(ctx, u.ID, domain.Activity{
			ID: "email-verified", Type: domain.ActivityOther, Title: "Email confirmed",
			Description: "Confirmed " + u.Email + ". Free prompts are unlocked.", CreatedAt: s.now().UTC(),
		})
	}
	httpx.WriteJSON(w, http.StatusOK, verifiedResponse{Status: "verified", Detail: "Your email address is confirmed.", User: u})
	return nil
}

// resendVerification mails the signed-in user a new confirmation link.
func (s *Service) resendVerification(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	u, err := s.currentUser(r)
	if err != nil {
		return err
	}
	if u.IsVerified {
		httpx.WriteJSON(w, http.StatusOK, statusResponse{Status: "already_verified", Detail: "Your email address is already confirmed."})
		return nil
	}
	if err := s.admit(ctx, scopeResend, u.ID, resendLimit, resendWindow, msgResendThrottled); err != nil {
		return err
	}
	if err := s.sendVerification(ctx, r, u); err != nil {
		return mailError(ctx, err)
	}
	httpx.WriteJSON(w, http.StatusOK, statusResponse{Status: "sent", Detail: "We sent a new confirmation link to " + u.Email + ". It works once, for 24 hours."})
	return nil
}

// msgAddressRefused: the mail provider will not send to the account's
// address. An account's address cannot be changed, so the way on is
// another account.
const msgAddressRefused = "We cannot send mail to this address. Check it, and register again with an address that receives mail."

// mailError tells the user a mail could not go, and the log why.
func mailError(ctx context.Context, err error) error {
	slog.ErrorContext(ctx, "mail not sent", "err", err)
	if errors.Is(err, mail.ErrNotConfigured) {
		return httpx.Errorf(httpx.CodeUnavailable, "This site cannot send email right now. Please contact support.")
	}
	if errors.Is(err, mail.ErrAddressRefused) {
		// Sending again cannot help: only another address can.
		return httpx.Invalid(msgAddressRefused)
	}
	return httpx.Errorf(httpx.CodeUpstream, "We could not send the email. Please try again in a few minutes.")
}

type forgotInput struct {
	Email string `json:"email"`
}

// msgResetSent is the one answer to a reset request, whether or not an
// account has that email.
const msgResetSent = "If an account exists for that email, we sent it a link to reset the password. The link works once, for 1 hour."

// forgotPassword mails a single-use reset link (1 h) to the account with
// that email, if there is one; the answer is the same either way.
func (s *Service) forgotPassword(w http.ResponseWriter, r *http.Request) error {
	var in forgotInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	email := normalizeEmail(in.Email)
	if err := validateEmail(email); err != nil {
		return err
	}
	ctx := r.Context()
	if err := s.admit(ctx, scopeForgotAddress, s.clientAddress(r), forgotLimitAddress, forgotWindow, msgForgotThrottled); err != nil {
		return err
	}
	if err := s.admit(ctx, scopeForgotEmail, email, forgotLimitEmail, forgotWindow, msgForgotThrottled); err != nil {
		return err
	}
	u, err := s.st.UserByEmail(ctx, email)
	switch {
	case errors.Is(err, store.ErrNotFound):
		slog.InfoContext(ctx, "password reset asked for an unknown email")
	case err != nil:
		return fmt.Errorf("forgot password: %w", err)
	default:
		if err := s.sendReset(ctx, r, u); err != nil {
			// Not told to the caller: the answer must not say the account exists.
			slog.ErrorContext(ctx, "reset mail not sent", "user", u.ID, "err", err)
		}
	}
	httpx.WriteJSON(w, http.StatusOK, statusResponse{Status: "sent", Detail: msgResetSent})
	return nil
}

func (s *Service) sendReset(ctx context.Context, r *http.Request, u domain.User) error {
	token, hash := newLinkToken()
	if err := s.st.SaveLinkToken(ctx, store.LinkResetPassword, hash, store.LinkToken{
		UserID: u.ID, Email: u.Email, Tag: passwordTag(u.PasswordHash), Expires: s.now().Add(resetLinkTTL),
	}); err != nil {
		return err
	}
	return s.mailer.Send(ctx, mail.Message{
		To: u.Email, ToName: u.FullName, Subject: "Reset your AIWork password",
		Text: fmt.Sprintf(`Hello %s,

Someone (hopefully you) asked to reset the password of the AIWork account for %s. To choose a new password, open this link:

%s

The link works once and expires in 1 hour. Setting a new password signs you out everywhere else.

If you did not ask for this, ignore this email: your password stays as it is.
`, u.FullName, u.Email, s.link(r, resetPasswordPage, token)),
	})
}

type resetInput struct {
	Token    string `json:"token"`
	Password string `json:"password"`
}

// resetPassword spends a reset link: the password is set (SPEC's rules),
// every session of the account ends, the address counts as verified (the
// link proved it) and the caller is signed in with a new session.
func (s *Service) resetPassword(w http.ResponseWriter, r *http.Request) error {
	var in resetInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	// The password first: a refused one does not spend the link.
	if err := validatePassword(in.Password); err != nil {
		return err
	}
	if len(in.Password) > maxPassword {
		return httpx.Invalid("Password must be at most 72 bytes")
	}
	ctx := r.Context()
	lt, err := s.useLink(ctx, store.LinkResetPassword, in.Token, resetLinkWords)
	if err != nil {
		return err
	}
	u, err := s.st.GetUser(ctx, lt.UserID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && !strings.EqualFold(u.Email, lt.Email)) {
		return &httpx.Error{Code: httpx.CodeLinkInvalid, Detail: resetLinkWords.invalid}
	}
	if err != nil {
		return fmt.Errorf("reset password: %w", err)
	}
	if lt.Tag != passwordTag(u.PasswordHash) {
		return &httpx.Error{Code: httpx.CodeLinkExpired, Detail: "This reset link no longer works: the password was changed after it was sent. Ask for a new link."}
	}
	if u.Disabled {
		// A reset signs in: not into a disabled account.
		return errAccountDisabled
	}
	hash, err := auth.HashPassword(in.Password)
	if err != nil {
		return fmt.Errorf("reset password: %w", err)
	}
	if u, err = s.st.ResetPassword(ctx, u.ID, hash, s.isAdminEmail(u.Email)); err != nil {
		return fmt.Errorf("reset password: %w", err)
	}
	if _, err := s.st.EndSessions(ctx, u.ID); err != nil {
		return fmt.Errorf("reset password: %w", err)
	}
	if err := s.st.ClearFailures(ctx, scopeLoginEmail, u.Email); err != nil {
		slog.WarnContext(ctx, "clear login attempts", "err", err)
	}
	s.recordActivity(ctx, u.ID, domain.Activity{
		ID: newID(), Type: domain.ActivityOther, Title: "Password reset",
		Description: "Set a new password with an emailed link; other sessions were signed out.", CreatedAt: s.now().UTC(),
	})
	token, err := s.openEnabledSession(ctx, u)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, tokenResponse{AccessToken: token, TokenType: "bearer", User: u})
	return nil
}

// linkWords are the refusals of one kind of link.
type linkWords struct {
	missing, invalid, used, expired string
}

var verifyLinkWords = linkWords{
	missing: "The confirmation link is incomplete: it has no token. Open the whole link from the email.",
	invalid: "This confirmation link is not valid. Open the whole link from the email, or ask for a new one from your dashboard.",
	used:    "This confirmation link has already been used. If your email address is confirmed, you are all set; otherwise ask for a new link from your dashboard.",
	expired: "This confirmation link has expired. Ask for a new one from your dashboard.",
}

var resetLinkWords = linkWords{
	missing: "The reset link is incomplete: it has no token. Open the whole link from the email.",
	invalid: "This reset link is not valid. Open the whole link from the email, or ask for a new one.",
	used:    "This reset link has already been used. Ask for a new one if you still need to reset your password.",
	expired: "This reset link has expired. Ask for a new one.",
}

// useLink spends the link token of purpose, answering the refusals in the
// link's own words with codes the web app branches on.
func (s *Service) useLink(ctx context.Context, purpose, token string, words linkWords) (store.LinkToken, error) {
	token = strings.TrimSpace(token)
	if token == "" {
		return store.LinkToken{}, &httpx.Error{Code: httpx.CodeLinkInvalid, Detail: words.missing}
	}
	lt, err := s.st.UseLinkToken(ctx, purpose, hashLinkToken(token), s.now())
	switch {
	case errors.Is(err, store.ErrLinkUnknown):
		return lt, &httpx.Error{Code: httpx.CodeLinkInvalid, Detail: words.invalid}
	case errors.Is(err, store.ErrLinkUsed):
		return lt, &httpx.Error{Code: httpx.CodeLinkUsed, Detail: words.used}
	case errors.Is(err, store.ErrLinkExpired):
		return lt, &httpx.Error{Code: httpx.CodeLinkExpired, Detail: words.expired}
	case err != nil:
		return lt, err
	}
	return lt, nil
}
