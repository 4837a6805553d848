package adminapi

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/random"
	"aiwork/shared/store"
)

// MaxCategoryName bounds a category's name.
const MaxCategoryName = 60

type categoryView struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	PromptCount int    `json:"prompt_count"`
}

func (s *Service) categoryRoutes(mux *http.ServeMux) {
	mux.Handle("GET "+Prefix+"categories", s.admin(s.listCategories))
	mux.Handle("POST "+Prefix+"categories", s.admin(s.createCategory))
	mux.Handle("PATCH "+Prefix+"categories/{id}", s.admin(s.renameCategory))
	mux.Handle("DELETE "+Prefix+"categories/{id}", s.admin(s.deleteCategory))
}

// promptCounts counts the prompts in categories cids, published or not
// (their partitions' COUNT items, not the catalogue).
func (s *Service) promptCounts(r *http.Request, cids ...string) (map[string]int, error) {
	return s.st.CategoryPromptCounts(r.Context(), cids)
}

func (s *Service) listCategories(w http.ResponseWriter, r *http.Request) error {
	cats, err := s.st.Categories(r.Context())
	if err != nil {
		return err
	}
	ids := make([]string, len(cats))
	for i, c := range cats {
		ids[i] = c.ID
	}
	counts, err := s.promptCounts(r, ids...)
	if err != nil {
		return err
	}
	items := make([]categoryView, len(cats))
	for i, c := range cats {
		items[i] = categoryView{ID: c.ID, Name: c.Name, PromptCount: counts[c.ID]}
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"items": items})
	return nil
}

type categoryInput struct {
	Name *string `json:"name"`
}

// categoryName reads and checks a name; taken by another category (ignoring
// case) is 409.
func (s *Service) categoryName(w http.ResponseWriter, r *http.Request, self string) (string, error) {
	var in categoryInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return "", err
	}
	if in.Name == nil {
		return "", httpx.Invalid("name is required")
	}
	name := strings.Join(strings.Fields(*in.Name), " ")
	switch {
	case name == "":
		return "", httpx.Invalid("name is required")
	case utf8.RuneCountInString(name) > MaxCategoryName:
		return "", httpx.Invalid(fmt.Sprintf("name must be at most %d characters", MaxCategoryName))
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return "", httpx.Invalid("name must not contain control characters")
	}
	cats, err := s.st.Categories(r.Context())
	if err != nil {
		return "", err
	}
	for _, c := range cats {
		if c.ID != self && strings.EqualFold(c.Name, name) {
			return "", nameTaken(name)
		}
	}
	return name, nil
}

func nameTaken(name string) error {
	return httpx.Conflict(fmt.Sprintf("A category named %q exists already.", name))
}

func (s *Service) createCategory(w http.ResponseWriter, r *http.Request) error {
	name, err := s.categoryName(w, r, "")
	if err != nil {
		return err
	}
	c := domain.Category{ID: categoryID(name), Name: name}
	err = s.st.CreateCategory(r.Context(), c, s.audit(r.Context(), "category.create", "category", c.ID, nil, c))
	switch {
	case errors.Is(err, store.ErrCategoryNameTaken), errors.Is(err, store.ErrVersionConflict):
		return nameTaken(name)
	case err != nil:
		return err
	}
	httpx.WriteJSON(w, http.StatusCreated, categoryView{ID: c.ID, Name: c.Name})
	return nil
}

// categoryID is a readable id made from the name, with a random tail so
// that a name used before (deleted since) gets a new one.
func categoryID(name string) string {
	slug := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			return r
		case r >= 'A' && r <= 'Z':
			return unicode.ToLower(r)
		}
		return '-'
	}, name)
	slug = strings.Trim(strings.Join(strings.FieldsFunc(slug, func(r rune) bool { return r == '-' }), "-"), "-")
	if len(slug) > 40 {
		slug = slug[:40]
	}
	return strings.TrimPrefix(slug+"-"+random.Hex(3), "-")
}

func (s *Service) categoryOr404(r *http.Request) (domain.Category, error) {
	c, err := s.st.Category(r.Context(), r.PathValue("id"))
	if errors.Is(err, store.ErrNotFound) {
		return c, httpx.NotFound("Category not found.")
	}
	return c, err
}

func (s *Service) renameCategory(w http.ResponseWriter, r *http.Request) error {
	cur, err := s.categoryOr404(r)
	if err != nil {
		return err
	}
	name, err := s.categoryName(w, r, cur.ID)
	if err != nil {
		return err
	}
	next := domain.Category{ID: cur.ID, Name: name}
	err = s.st.RenameCategory(r.Context(), cur, name, s.audit(r.Context(), "category.rename", "category", cur.ID, cur, next))
	switch {
	case errors.Is(err, store.ErrCategoryNameTaken):
		return nameTaken(name)
	case errors.Is(err, store.ErrVersionConflict):
		return httpx.Conflict("This category changed since you opened it; reload it and try again.")
	case err != nil:
		return err
	}
	counts, err := s.promptCounts(r, next.ID)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, categoryView{ID: next.ID, Name: next.Name, PromptCount: counts[next.ID]})
	return nil
}

func (s *Service) deleteCategory(w http.ResponseWriter, r *http.Request) error {
	cur, err := s.categoryOr404(r)
	if err != nil {
		return err
	}
	counts, err := s.promptCounts(r, cur.ID)
	if err != nil {
		return err
	}
	if n := counts[cur.ID]; n > 0 {
		return httpx.Conflict(fmt.Sprintf("%q has %d prompts; move them to another category first.", cur.Name, n))
	}
	err = s.st.DeleteCategory(r.Context(), cur, s.audit(r.Context(), "category.delete", "category", cur.ID, cur, nil))
	switch {
	case errors.Is(err, store.ErrVersionConflict):
		return httpx.NotFound("Category not found.")
	case err != nil:
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
