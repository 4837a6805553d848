// Package usersapi is the users route group: the caller's recent activities.
package usersapi

import (
	"net/http"

	"aiwork/shared/auth"
	"aiwork/shared/httpx"
	"aiwork/shared/store"
)

// New builds the users group's handler.
func New(st *store.Store, tokens *auth.Tokens) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /api/v1/users/activities", tokens.Required(httpx.Handle(func(w http.ResponseWriter, r *http.Request) error {
		uid, _ := auth.UserID(r.Context())
		acts, err := st.Activities(r.Context(), uid)
		if err != nil {
			return err
		}
		httpx.WriteJSON(w, http.StatusOK, acts)
		return nil
	})))
	return httpx.WithNotFound(mux)
}
