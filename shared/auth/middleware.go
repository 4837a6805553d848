package auth

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"aiwork/shared/httpx"
)

type ctxKey struct{}

type sessionKey struct{}

// SessionID answers the session of the signed-in request (empty for a
// token issued without one).
func SessionID(ctx context.Context) string {
	sid, _ := ctx.Value(sessionKey{}).(string)
	return sid
}

// UserID answers the signed-in user's id put in the context by Middleware.
func UserID(ctx context.Context) (string, bool) {
	id, ok := ctx.Value(ctxKey{}).(string)
	return id, ok && id != ""
}

// WithUserID stores a user id in ctx.
func WithUserID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, ctxKey{}, id)
}

// msgSessionEnded answers a valid token whose session was ended (logout,
// password reset) or whose account no longer exists.
const msgSessionEnded = "Your session has ended. Please log in again."

// Optional reads a bearer token when present. A bad token is still a 401, so
// the client clears its stale session; no token at all is a visitor.
func (t *Tokens) Optional(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, present := bearer(r)
		if !present {
			next.ServeHTTP(w, r)
			return
		}
		c, err := t.VerifyClaims(raw)
		if err != nil {
			httpx.WriteError(w, r, httpx.Unauthorized("Your session has expired or is invalid. Please log in again."))
			return
		}
		if t.sessions != nil {
			// One read per signed-in request (a GetItem of the session).
			live := false
			if c.SessionID != "" {
				if live, err = t.sessions.SessionLive(r.Context(), c.Subject, c.SessionID); err != nil {
					httpx.WriteError(w, r, fmt.Errorf("check session: %w", err))
					return
				}
			}
			if !live {
				httpx.WriteError(w, r, httpx.Unauthorized(msgSessionEnded))
				return
			}
		}
		ctx := context.WithValue(WithUserID(r.Context(), c.Subject), sessionKey{}, c.SessionID)
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// Required answers 401 unless a valid bearer token is present.
func (t *Tokens) Required(next http.Handler) http.Handler {
	return t.Optional(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := UserID(r.Context()); !ok {
			w.Header().Set("WWW-Authenticate", "Bearer")
			httpx.WriteError(w, r, httpx.Unauthorized("Not authenticated."))
			return
		}
		next.ServeHTTP(w, r)
	}))
}

func bearer(r *http.Request) (string, bool) {
	h := strings.TrimSpace(r.Header.Get("Authorization"))
	if h == "" {
		return "", false
	}
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", true // present but unusable: refused as invalid
	}
	return strings.TrimSpace(token), true
}
