package adminapi

import (
	"encoding/json"
	"errors"
	"net/http"

	"aiwork/shared/httpx"
	"aiwork/shared/store"
)

type auditView struct {
	ID         string          `json:"id"`
	At         string          `json:"at"`
	ActorID    string          `json:"actor_id"`
	ActorEmail string          `json:"actor_email"`
	Action     string          `json:"action"`
	TargetType string          `json:"target_type"`
	TargetID   string          `json:"target_id"`
	Before     json.RawMessage `json:"before"`
	After      json.RawMessage `json:"after"`
	Pending    bool            `json:"pending,omitempty"`
}

func (s *Service) auditRoutes(mux *http.ServeMux) {
	mux.Handle("GET "+Prefix+"audit", s.admin(s.listAudit))
}

// listAudit answers the audit log, newest first (actor= an id or email,
// target= an id), a page at a time; total counts every matching line.
func (s *Service) listAudit(w http.ResponseWriter, r *http.Request) error {
	limit, _, err := pageParams(r)
	if err != nil {
		return err
	}
	cursor := r.URL.Query().Get("cursor") // the store's, passed through (pageParams checked its form)
	query := store.AuditQuery{Actor: r.URL.Query().Get("actor"), Target: r.URL.Query().Get("target"), Limit: limit, Cursor: cursor}
	entries, next, err := s.st.AuditLog(r.Context(), query)
	if errors.Is(err, store.ErrBadCursor) {
		return httpx.Invalid("cursor is not one this API gave")
	}
	if err != nil {
		return err
	}
	total, err := s.st.AuditCount(r.Context(), query)
	if err != nil {
		return err
	}
	items := make([]auditView, len(entries))
	for i, e := range entries {
		items[i] = auditView{ID: e.ID, At: utcSeconds(e.At), ActorID: e.ActorID, ActorEmail: e.ActorEmail, Action: e.Action,
			TargetType: e.TargetType, TargetID: e.TargetID, Before: orNull(e.Before), After: orNull(e.After), Pending: e.Pending}
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"items": items, "next_cursor": next, "total": total})
	return nil
}

func orNull(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return json.RawMessage("null")
	}
	return b
}
