package authapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/oauth2"

	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/routes"
	"aiwork/shared/store"
)

// msgGoogleUnavailable is what users see when the site has no Google
// client; the operator's hint goes to the log.
const msgGoogleUnavailable = "Google sign-in is not available on this site."

// stateTTL bounds how long a user may take at Google's consent screen.
const stateTTL = 10 * time.Minute

const callbackPath = routes.GoogleCallbackPath

// stateCookie ties a sign-in to the browser that started it: the callback
// must come with the state's nonce in this cookie, so a callback link made by
// someone else (login CSRF) signs nobody in.
const stateCookie = "google_oauth_nonce"

// oidcClient is the discovered provider; discovery happens at first use, not
// at cold start, and is retried after a failure.
type oidcClient struct {
	provider *oidc.Provider
	verifier *oidc.IDTokenVerifier
}

type stateClaims struct {
	Nonce string `json:"nonce"`
	jwt.RegisteredClaims
}

func (s *Service) provider(ctx context.Context) (*oidcClient, error) {
	s.oidcOnce.Lock()
	defer s.oidcOnce.Unlock()
	if s.oidc != nil {
		return s.oidc, nil
	}
	p, err := oidc.NewProvider(ctx, s.cfg.Google.IssuerURL)
	if err != nil {
		return nil, fmt.Errorf("oidc discovery: %w", err)
	}
	s.oidc = &oidcClient{provider: p, verifier: p.Verifier(&oidc.Config{ClientID: s.cfg.Google.ClientID})}
	return s.oidc, nil
}

func (s *Service) oauthConfig(r *http.Request, p *oidc.Provider) *oauth2.Config {
	return &oauth2.Config{
		ClientID:     s.cfg.Google.ClientID,
		ClientSecret: s.cfg.Google.ClientSecret,
		Endpoint:     p.Endpoint(),
		RedirectURL:  s.publicURL(r) + callbackPath,
		Scopes:       []string{oidc.ScopeOpenID, "email", "profile"},
	}
}

// googleLogin answers {auth_url}: Google's consent page with a signed,
// single-use state and a PKCE challenge whose verifier stays in the table.
func (s *Service) googleLogin(w http.ResponseWriter, r *http.Request) error {
	if !s.cfg.Google.Enabled() {
		slog.WarnContext(r.Context(), "Google sign-in was asked for but is off: set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET (docs/deploy.md, Google sign-in)")
		return &httpx.Error{Code: httpx.CodeUnavailable, Detail: msgGoogleUnavailable}
	}
	p, err := s.provider(r.Context())
	if err != nil {
		slog.ErrorContext(r.Context(), "google discovery", "err", err)
		return httpx.Errorf(httpx.CodeUpstream, "Google sign-in is unavailable right now. Please try again later.")
	}
	now := s.now()
	nonce, verifier := newID(), oauth2.GenerateVerifier()
	if err := s.st.SaveOAuthState(r.Context(), nonce, verifier, now.Add(stateTTL)); err != nil {
		return err
	}
	state, err := s.tokens.Sign(stateClaims{Nonce: nonce, RegisteredClaims: jwt.RegisteredClaims{
		ExpiresAt: jwt.NewNumericDate(now.Add(stateTTL)), Audience: jwt.ClaimStrings{"google-state"},
	}})
	if err != nil {
		return err
	}
	authURL := s.oauthConfig(r, p.provider).AuthCodeURL(state, oauth2.S256ChallengeOption(verifier), oauth2.AccessTypeOnline)
	http.SetCookie(w, &http.Cookie{
		Name: stateCookie, Value: nonce, Path: "/api/v1/auth/google/", MaxAge: int(stateTTL.Seconds()),
		HttpOnly: true, Secure: strings.HasPrefix(s.publicURL(r), "https:"), SameSite: http.SameSiteLaxMode,
	})
	httpx.WriteJSON(w, http.StatusOK, map[string]string{"auth_url": authURL})
	return nil
}

// googleCallback finishes sign-in and sends the browser to the app's
// /auth/callback with a token, or with error=oauth_failed. The redirect is a
// relative URL, so it lands on the host the browser is already using.
func (s *Service) googleCallback(w http.ResponseWriter, r *http.Request) {
	token, err := s.finishGoogle(r)
	http.SetCookie(w, &http.Cookie{Name: stateCookie, Path: "/api/v1/auth/google/", MaxAge: -1, HttpOnly: true})
	if errors.Is(err, errAccountDisabled) {
		slog.InfoContext(r.Context(), "google sign-in to a disabled account refused")
		http.Redirect(w, r, "/auth/callback?error="+string(httpx.CodeAccountDisabled), http.StatusFound)
		return
	}
	if err != nil {
		slog.WarnContext(r.Context(), "google callback failed", "err", err)
		http.Redirect(w, r, "/auth/callback?error=oauth_failed", http.StatusFound)
		return
	}
	http.Redirect(w, r, "/auth/callback?"+url.Values{"token": {token}, "type": {"google"}}.Encode(), http.StatusFound)
}

func (s *Service) finishGoogle(r *http.Request) (string, error) {
	if !s.cfg.Google.Enabled() {
		return "", errors.New("google not configured")
	}
	q := r.URL.Query()
	if e := q.Get("error"); e != "" {
		return "", fmt.Errorf("google answered error %q", e)
	}
	var claims stateClaims
	if err := s.tokens.Parse(q.Get("state"), &claims); err != nil || claims.Nonce == "" {
		return "", fmt.Errorf("bad state: %v", err)
	}
	if !slices.Contains(claims.Audience, "google-state") {
		return "", errors.New("state of another kind")
	}
	if c, err := r.Cookie(stateCookie); err != nil || c.Value != claims.Nonce {
		return "", errors.New("state was not started in this browser")
	}
	ctx := r.Context()
	verifier, err := s.st.TakeOAuthState(ctx, claims.Nonce, s.now())
	if err != nil {
		return "", fmt.Errorf("state already used or expired: %w", err)
	}
	p, err := s.provider(ctx)
	if err != nil {
		return "", err
	}
	tok, err := s.oauthConfig(r, p.provider).Exchange(ctx, q.Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		return "", fmt.Errorf("exchange code: %w", err)
	}
	rawID, ok := tok.Extra("id_token").(string)
	if !ok {
		return "", errors.New("no id_token in the token response")
	}
	idToken, err := p.verifier.Verify(ctx, rawID)
	if err != nil {
		return "", fmt.Errorf("verify id token: %w", err)
	}
	var id struct {
		Email         string `json:"email"`
		EmailVerified bool   `json:"email_verified"`
		Name          string `json:"name"`
	}
	if err := idToken.Claims(&id); err != nil {
		return "", fmt.Errorf("id token claims: %w", err)
	}
	u, err := s.googleUser(ctx, idToken.Subject, normalizeEmail(id.Email), id.EmailVerified, strings.TrimSpace(id.Name))
	if err != nil {
		return "", err
	}
	token, err := s.openEnabledSession(ctx, u)
	if err != nil {
		return "", err
	}
	s.recordActivity(ctx, u.ID, domain.Activity{
		ID: newID(), Type: domain.ActivityLogin, Title: "Signed in",
		Description: "Signed in with Google.", CreatedAt: s.now().UTC(),
	})
	return token, nil
}

// googleUser finds the account for a Google identity. Google has proved
// the address, so the account is verified (and an admin when ADMIN_EMAILS
// lists it). In order: the account linked to the subject before; else the
// account with that email, linked now if its email was verified, taken
// over if not (see takeOver); else a new account.
func (s *Service) googleUser(ctx context.Context, sub, email string, verified bool, name string) (domain.User, error) {
	u, err := s.st.UserByGoogleSub(ctx, sub)
	switch {
	case err == nil && !u.IsVerified:
		// Linked before email verification existed: treated as below.
		return s.takeOver(ctx, u, sub)
	case err == nil:
		return s.grantAdmin(ctx, u)
	case !errors.Is(err, store.ErrNotFound):
		return domain.User{}, err
	}
	if email == "" || !verified {
		return domain.User{}, errors.New("google account has no verified email")
	}
	switch u, err := s.st.UserByEmail(ctx, email); {
	case err == nil && u.IsVerified:
		if err := s.st.LinkGoogle(ctx, sub, u.ID); err != nil {
			return domain.User{}, err
		}
		return s.grantAdmin(ctx, u)
	case err == nil:
		return s.takeOver(ctx, u, sub)
	case !errors.Is(err, store.ErrNotFound):
		return domain.User{}, err
	}
	if name == "" {
		name = strings.Split(email, "@")[0]
	}
	base := usernameFrom(email)
	for attempt := 0; attempt < 5; attempt++ {
		username := base
		if attempt > 0 {
			username = fmt.Sprintf("%s-%s", base, newID()[:4])
		}
		nu := domain.User{
			ID: newID(), Email: email, Username: username, FullName: name, GoogleSub: sub,
			IsVerified: true, IsSuperuser: s.isAdminEmail(email), CreatedAt: s.now().UTC(),
		}
		err := s.st.CreateUser(ctx, nu)
		switch {
		case errors.Is(err, store.ErrUsernameTaken):
			continue
		case errors.Is(err, store.ErrEmailTaken):
			// Registered meanwhile with the same email: link or take over.
			return s.googleUser(ctx, sub, email, verified, name)
		case err != nil:
			return domain.User{}, err
		}
		if err := s.st.LinkGoogle(ctx, sub, nu.ID); err != nil {
			return domain.User{}, err
		}
		s.recordActivity(ctx, nu.ID, domain.Activity{
			ID: "account-created", Type: domain.ActivityAccountCreated, Title: "Account created",
			Description: "Welcome, " + nu.Username + "! Your account is ready.", CreatedAt: nu.CreatedAt,
		})
		return nu, nil
	}
	return domain.User{}, errors.New("could not find a free username")
}

// takeOver gives an account whose email was never verified to the Google
// identity that has just proved the address. Whoever registered it with a
// password never proved it (a pre-hijack: registering victim@gmail.com
// before the victim signs in with Google), so that password is removed and
// every earlier session ends, in this order: the password goes first (one
// conditional write that also records the subject), then the sessions (a
// sign-in racing with it re-checks the password after opening its session
// and ends it), then the Google guard. A retry after a failure finds the
// account verified and links it.
func (s *Service) takeOver(ctx context.Context, u domain.User, sub string) (domain.User, error) {
	taken, err := s.st.TakeOverForGoogle(ctx, u.ID, sub, s.isAdminEmail(u.Email))
	if errors.Is(err, store.ErrAlreadyVerified) {
		// Verified by its owner meanwhile: link instead.
		if err := s.st.LinkGoogle(ctx, sub, u.ID); err != nil {
			return domain.User{}, err
		}
		return s.st.GetUser(ctx, u.ID)
	}
	if err != nil {
		return domain.User{}, err
	}
	var ended int
	for attempt := 0; ; attempt++ {
		if ended, err = s.st.EndSessions(ctx, u.ID); err == nil {
			break
		}
		if attempt == 2 {
			return domain.User{}, fmt.Errorf("take-over: %w", err)
		}
	}
	if err := s.st.LinkGoogle(ctx, sub, u.ID); err != nil {
		return domain.User{}, err
	}
	slog.InfoContext(ctx, "google sign-in took over an unverified account", "user", u.ID, "sessions_ended", ended, "had_password", u.PasswordHash != "")
	s.recordActivity(ctx, u.ID, domain.Activity{
		ID: newID(), Type: domain.ActivityOther, Title: "Account secured with Google",
		Description: "Google confirmed your email address. The password set before it was confirmed was removed and every other session was signed out.",
		CreatedAt:   s.now().UTC(),
	})
	return taken, nil
}

// grantAdmin makes a verified account listed in ADMIN_EMAILS an admin.
func (s *Service) grantAdmin(ctx context.Context, u domain.User) (domain.User, error) {
	if u.IsSuperuser || !s.isAdminEmail(u.Email) {
		return u, nil
	}
	return s.st.MarkVerified(ctx, u.ID, true)
}

var notUsername = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9._-]+`) })

func usernameFrom(email string) string {
	local := notUsername().ReplaceAllString(strings.Split(email, "@")[0], "")
	if len(local) < minUsername {
		local += "-user"
	}
	if len(local) > maxUsername-5 {
		local = local[:maxUsername-5]
	}
	return local
}

func (s *Service) publicURL(r *http.Request) string { return httpx.PublicURL(r, s.cfg.PublicURL) }
