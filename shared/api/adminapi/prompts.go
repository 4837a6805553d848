package adminapi

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/store"
)

// Rules of a prompt's fields (the web app checks the same).
const (
	MaxPromptTitle       = 200
	MaxPromptDescription = 2000
	MaxPromptContent     = 50_000
	MaxPromptPrice       = 999.99
	promptBody           = 512 << 10
)

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
		CategoryName: categories[p.CategoryID], Featured: p.Featured, Published: !p.Unpublished, CreatedAt: rfc3339(p.CreatedAt),
		UpdatedAt: rfc3339(updated), Version: p.Version,
		Stats: promptStatsView{PromptStats: p.Stats, RatingAvg: p.RatingAvg(), RatingCount: p.RatingCount}}
}

func rfc3339(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func (s *Service) promptRoutes(mux *http.ServeMux) {
	mux.Handle("GET "+Prefix+"prompts", s.admin(s.listPrompts))
	mux.Handle("POST "+Prefix+"prompts", s.admin(s.createPrompt))
	mux.Handle("PATCH "+Prefix+"prompts/{id}", s.admin(s.patchPrompt))
	mux.Handle("DELETE "+Prefix+"prompts/{id}", s.admin(s.deletePrompt))
}

func (s *Service) categoryNames(r *http.Request) (map[string]string, error) {
	cats, err := s.st.Categories(r.Context())
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(cats))
	for _, c := range cats {
		out[c.ID] = c.Name
	}
	return out, nil
}

// listPrompts answers the catalogue, unpublished prompts too, newest
// first: q= on title and description, category=, state=.
func (s *Service) listPrompts(w http.ResponseWriter, r *http.Request) error {
	limit, after, err := pageParams(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	search, category, state := strings.ToLower(strings.TrimSpace(q.Get("q"))), q.Get("category"), cmpDefault(q.Get("state"), "all")
	if !slices.Contains([]string{"all", "published", "unpublished"}, state) {
		return httpx.Invalid("state must be published, unpublished or all")
	}
	all, err := s.st.Prompts(r.Context())
	if err != nil {
		return err
	}
	names, err := s.categoryNames(r)
	if err != nil {
		return err
	}
	var views []promptView
	for _, p := range all {
		if (search != "" && !strings.Contains(strings.ToLower(p.Title+" "+p.Description), search)) || (category != "" && p.CategoryID != category) ||
			(state == "published" && p.Unpublished) || (state == "unpublished" && !p.Unpublished) {
			continue
		}
		views = append(views, presentPrompt(p, names))
	}
	items, next := page(views, func(v promptView) string { return v.ID }, limit, after)
	writePage(w, items, next, len(views))
	return nil
}

func cmpDefault(v, d string) string {
	if v == "" {
		return d
	}
	return v
}

type promptInput struct {
	Version     *int     `json:"version"`
	Title       *string  `json:"title"`
	Description *string  `json:"description"`
	Content     *string  `json:"content"`
	Price       *float64 `json:"price"`
	CategoryID  *string  `json:"category_id"`
	Featured    *bool    `json:"featured"`
	Published   *bool    `json:"published"`
}

// apply sets what in gives on p.
func (in promptInput) apply(p *domain.Prompt) {
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = strings.TrimSpace(*v)
		}
	}
	set(&p.Title, in.Title)
	set(&p.Description, in.Description)
	if in.Content != nil {
		p.Content = *in.Content
	}
	set(&p.CategoryID, in.CategoryID)
	if in.Price != nil {
		p.Price = *in.Price
	}
	if in.Featured != nil {
		p.Featured = *in.Featured
	}
	if in.Published != nil {
		p.Unpublished = !*in.Published
	}
}

// checkPrompt holds p to the rules; categories are the known ones.
func checkPrompt(p domain.Prompt, categories map[string]string) error {
	switch n := utf8.RuneCountInString(p.Title); {
	case n == 0:
		return httpx.Invalid("title is required")
	case n > MaxPromptTitle:
		return httpx.Invalid(fmt.Sprintf("title must be at most %d characters", MaxPromptTitle))
	case strings.IndexFunc(p.Title, unicode.IsControl) >= 0:
		return httpx.Invalid("title must not contain control characters")
	}
	if utf8.RuneCountInString(p.Description) > MaxPromptDescription {
		return httpx.Invalid(fmt.Sprintf("description must be at most %d characters", MaxPromptDescription))
	}
	switch n := utf8.RuneCountInString(p.Content); {
	case strings.TrimSpace(p.Content) == "":
		return httpx.Invalid("content is required")
	case n > MaxPromptContent:
		return httpx.Invalid(fmt.Sprintf("content must be at most %d characters (it has %d)", MaxPromptContent, n))
	}
	if math.IsNaN(p.Price) || p.Price <= 0 || p.Price > MaxPromptPrice {
		return httpx.Invalid(fmt.Sprintf("price must be more than 0 and at most %.2f", MaxPromptPrice))
	}
	if cents := p.Price * 100; math.Abs(cents-math.Round(cents)) > 1e-6 {
		return httpx.Invalid("price must have at most two decimals")
	}
	if _, ok := categories[p.CategoryID]; !ok {
		if p.CategoryID == "" {
			return httpx.Invalid("category_id is required")
		}
		return httpx.Invalid(fmt.Sprintf("category %q does not exist", p.CategoryID))
	}
	return nil
}

// createPrompt adds a prompt (published unless told otherwise).
func (s *Service) createPrompt(w http.ResponseWriter, r *http.Request) error {
	var in promptInput
	if err := httpx.DecodeJSONLimit(w, r, &in, promptBody); err != nil {
		return err
	}
	names, err := s.categoryNames(r)
	if err != nil {
		return err
	}
	now := s.opts.Now().UTC()
	p := domain.Prompt{ID: newPromptID(), CreatedAt: now, UpdatedAt: now, Version: 1}
	in.apply(&p)
	if err := checkPrompt(p, names); err != nil {
		return err
	}
	if err := s.st.CreatePrompt(r.Context(), p, s.audit(r.Context(), "prompt.create", "prompt", p.ID, nil, presentPrompt(p, names))); err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusCreated, presentPrompt(p, names))
	return nil
}

func newPromptID() string { return "p-" + randomHex(6) }

// patchPrompt edits a prompt at the version the admin read.
func (s *Service) patchPrompt(w http.ResponseWriter, r *http.Request) error {
	var in promptInput
	if err := httpx.DecodeJSONLimit(w, r, &in, promptBody); err != nil {
		return err
	}
	if in.Version == nil {
		return httpx.Invalid("version is required (the version you read)")
	}
	cur, names, err := s.promptOr404(r)
	if err != nil {
		return err
	}
	if cur.Version != *in.Version {
		writeConflict(w, "This prompt changed since you opened it; here it is as it is now.", presentPrompt(cur, names))
		return nil
	}
	next := cur
	in.apply(&next)
	if err := checkPrompt(next, names); err != nil {
		return err
	}
	next.Version, next.UpdatedAt = cur.Version+1, s.opts.Now().UTC()
	err = s.st.UpdatePrompt(r.Context(), next, cur.Version, next.UpdatedAt,
		s.audit(r.Context(), "prompt.update", "prompt", cur.ID, presentPrompt(cur, names), presentPrompt(next, names)))
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
	err = s.st.DeletePrompt(r.Context(), cur.ID, cur.Version, s.audit(r.Context(), "prompt.delete", "prompt", cur.ID, presentPrompt(cur, names), nil))
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
