package adminapi

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"slices"

	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/prompts"
	"aiwork/shared/random"
	"aiwork/shared/store"
)

// promptBodyLimit bounds a prompt's request body.
const promptBodyLimit = 512 << 10

type promptView struct {
	ID           string          `json:"id"`
	Title        string          `json:"title"`
	Description  string          `json:"description"`
	Content      string          `json:"content"`
	Price        float64         `json:"price"`
	CategoryID   string          `json:"category_id"`
	CategoryName string          `json:"category_name"`
	Featured     bool            `json:"featured"`
	Published    bool            `json:"published"`
	CreatedAt    string          `json:"created_at"`
	UpdatedAt    string          `json:"updated_at"`
	Version      int             `json:"version"`
	Stats        promptStatsView `json:"stats"`
}

type promptStatsView struct {
	domain.PromptStats
	RatingAvg   float64 `json:"rating_avg"`
	RatingCount int     `json:"rating_count"`
}

func presentPrompt(p domain.Prompt, categories map[string]string) promptView {
	updated := p.UpdatedAt
	if updated.IsZero() {
		updated = p.CreatedAt
	}
	return promptView{ID: p.ID, Title: p.Title, Description: p.Description, Content: p.Content, Price: p.Price, CategoryID: p.CategoryID,
		CategoryName: categories[p.CategoryID], Featured: p.Featured, Published: !p.Unpublished, CreatedAt: utcSeconds(p.CreatedAt),
		UpdatedAt: utcSeconds(updated), Version: p.Version,
		Stats: promptStatsView{PromptStats: p.Stats, RatingAvg: p.RatingAvg(), RatingCount: p.RatingCount}}
}

func (s *Service) promptRoutes(mux *http.ServeMux) {
	mux.Handle("GET "+Prefix+"prompts", s.admin(s.listPrompts))
	mux.Handle("POST "+Prefix+"prompts", s.admin(s.createPrompt))
	mux.Handle("PATCH "+Prefix+"prompts/{id}", s.admin(s.patchPrompt))
	mux.Handle("DELETE "+Prefix+"prompts/{id}", s.admin(s.deletePrompt))
}

func (s *Service) categoryNames(r *http.Request) (map[string]string, error) {
	return s.st.CategoryNames(r.Context())
}

// listPrompts answers a page of the catalogue, unpublished prompts too,
// newest first: q= on title and description, category=, state= (read
// from the table a page at a time, store.AdminPrompts). total is null
// while a search spanning pages has not counted its matches.
func (s *Service) listPrompts(w http.ResponseWriter, r *http.Request) error {
	limit, _, err := pageParams(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	filter := prompts.Filter{Search: q.Get("q"), CategoryID: q.Get("category"), State: prompts.State(cmp.Or(q.Get("state"), string(prompts.AnyState)))}
	if !slices.Contains(prompts.States, filter.State) {
		return httpx.Invalid("state must be published, unpublished or all")
	}
	pg, err := s.st.AdminPrompts(r.Context(), store.AdminPromptQuery{Filter: filter, Limit: limit, Cursor: q.Get("cursor")})
	if errors.Is(err, store.ErrBadCursor) {
		return httpx.Invalid("cursor is not one this API gave")
	}
	if err != nil {
		return err
	}
	names, err := s.categoryNames(r)
	if err != nil {
		return err
	}
	views := make([]promptView, len(pg.Prompts))
	for i, p := range pg.Prompts {
		views[i] = presentPrompt(p, names)
	}
	var total any // null: not known
	if pg.TotalKnown {
		total = pg.Total
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"items": views, "next_cursor": pg.NextCursor, "total": total})
	return nil
}

// ruleBroken is a broken prompt rule as the client's 400, other errors as
// they are.
func ruleBroken(err error) error {
	if bad, ok := errors.AsType[*prompts.InvalidError](err); ok {
		return httpx.Invalid(bad.Message)
	}
	return err
}

// createPrompt adds a prompt (published unless told otherwise).
func (s *Service) createPrompt(w http.ResponseWriter, r *http.Request) error {
	var in prompts.Input
	if err := httpx.DecodeJSONLimit(w, r, &in, promptBodyLimit); err != nil {
		return err
	}
	names, err := s.categoryNames(r)
	if err != nil {
		return err
	}
	p, err := prompts.New(newPromptID(), in, s.opts.Now(), names)
	if err != nil {
		return ruleBroken(err)
	}
	audit := s.audit(r.Context(), "prompt.create", "prompt", p.ID, nil, presentPrompt(p, names))
	if err := s.st.WithAudit(r.Context(), audit, func() error { return s.st.CreatePrompt(r.Context(), p) }); err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusCreated, presentPrompt(p, names))
	return nil
}

func newPromptID() string { return "p-" + random.Hex(6) }

// patchPrompt edits a prompt at the version the admin read.
func (s *Service) patchPrompt(w http.ResponseWriter, r *http.Request) error {
	var in prompts.Input
	if err := httpx.DecodeJSONLimit(w, r, &in, promptBodyLimit); err != nil {
		return err
	}
	if _, err := in.VersionRead(); err != nil {
		return ruleBroken(err)
	}
	cur, names, err := s.promptOr404(r)
	if err != nil {
		return err
	}
	if cur.CreatorID != "" && cur.State != domain.PromptPublished && in.Published != nil && *in.Published {
		// Its creator edits it freely until approved: only review publishes it.
		return httpx.Conflict("A creator's prompt is published by approving it in the review queue.")
	}
	next, err := prompts.Edit(cur, in, s.opts.Now(), names)
	if errors.Is(err, prompts.ErrStale) {
		writeConflict(w, "This prompt changed since you opened it; here it is as it is now.", presentPrompt(cur, names))
		return nil
	}
	if err != nil {
		return ruleBroken(err)
	}
	audit := s.audit(r.Context(), "prompt.update", "prompt", cur.ID, presentPrompt(cur, names), presentPrompt(next, names))
	err = s.st.WithAudit(r.Context(), audit, func() error { return s.st.UpdatePrompt(r.Context(), next, cur.Version) })
	if errors.Is(err, store.ErrVersionConflict) {
		return s.promptConflict(w, r, names)
	}
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, presentPrompt(next, names))
	return nil
}

// deletePrompt removes a prompt nobody owns or used.
func (s *Service) deletePrompt(w http.ResponseWriter, r *http.Request) error {
	cur, names, err := s.promptOr404(r)
	if err != nil {
		return err
	}
	if v := r.URL.Query().Get("version"); v != "" && v != fmt.Sprint(cur.Version) {
		writeConflict(w, "This prompt changed since you opened it; here it is as it is now.", presentPrompt(cur, names))
		return nil
	}
	audit := s.audit(r.Context(), "prompt.delete", "prompt", cur.ID, presentPrompt(cur, names), nil)
	err = s.st.WithAudit(r.Context(), audit, func() error { return s.st.DeletePrompt(r.Context(), cur.ID, cur.Version) })
	switch {
	case errors.Is(err, store.ErrPromptInUse):
		return httpx.Conflict("Users bought or used this prompt, so it cannot be deleted: unpublish it instead (its owners keep it).")
	case errors.Is(err, store.ErrVersionConflict):
		return s.promptConflict(w, r, names)
	case err != nil:
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Service) promptOr404(r *http.Request) (domain.Prompt, map[string]string, error) {
	p, err := s.st.GetPrompt(r.Context(), r.PathValue("id"))
	if errors.Is(err, store.ErrNotFound) {
		return p, nil, httpx.NotFound("Prompt not found.")
	}
	if err != nil {
		return p, nil, err
	}
	names, err := s.categoryNames(r)
	return p, names, err
}

// promptConflict answers a write that lost a race: 409 with the prompt as
// it now is, or 404 when it is gone.
func (s *Service) promptConflict(w http.ResponseWriter, r *http.Request, names map[string]string) error {
	cur, err := s.st.GetPrompt(r.Context(), r.PathValue("id"))
	if errors.Is(err, store.ErrNotFound) {
		return httpx.NotFound("Prompt not found.")
	}
	if err != nil {
		return err
	}
	writeConflict(w, "This prompt changed since you opened it; here it is as it is now.", presentPrompt(cur, names))
	return nil
}
