package auth

import (
	"context"
	"net/http"
	"strings"

	"aiwork/shared/httpx"
)

type ctxKey struct{}

// UserID answers the signed-in user's id put in the context by Middleware.
func UserID(ctx context.Context) (string, bool) {
	id, ok := ctx.Value(ctxKey{}).(string)
	return id, ok && id != ""
}

// WithUserID stores a user id in ctx.
func WithUserID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, ctxKey{}, id)
}

// Optional reads a bearer token when present. A bad token is still a 401, so
// the client clears its stale session; no token at all is a visitor.
func (t *Tokens) Optional(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, present := bearer(r)
		if !present {
			next.ServeHTTP(w, r)
			return
		}
		id, err := t.Verify(raw)
		if err != nil {
			httpx.WriteError(w, r, httpx.Unauthorized("Your session has expired or is invalid. Please log in again."))
			return
		}
		next.ServeHTTP(w, r.WithContext(WithUserID(r.Context(), id)))
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
