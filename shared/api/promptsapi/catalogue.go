package promptsapi

import (
	"cmp"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/prompts"
	"aiwork/shared/store"
)

// FeaturedCount is how many prompts the featured list answers.
const FeaturedCount = 6

// maxLimit caps one page of the list.
const maxLimit = 100

type listQuery struct {
	search     string
	categoryID string
	order      prompts.Order
	limit      int
	offset     int
}

func parseListQuery(r *http.Request) (listQuery, error) {
	q := r.URL.Query()
	lq := listQuery{
		search:     q.Get("search"),
		categoryID: strings.TrimSpace(q.Get("category_id")),
		order:      prompts.Order(cmp.Or(q.Get("sort"), string(prompts.Newest))),
	}
	if !slices.Contains(prompts.Orders, lq.order) {
		return lq, httpx.Invalid("sort must be one of newest, price-low, price-high")
	}
	var err error
	if lq.limit, err = intParam(q.Get("limit"), maxLimit, 1, maxLimit, "limit"); err != nil {
		return lq, err
	}
	if lq.offset, err = intParam(q.Get("offset"), 0, 0, 1<<30, "offset"); err != nil {
		return lq, err
	}
	return lq, nil
}

func intParam(raw string, def, lo, hi int, name string) (int, error) {
	if raw == "" {
		return def, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < lo || n > hi {
		return 0, httpx.Invalid(name + " must be a whole number from " + strconv.Itoa(lo) + " to " + strconv.Itoa(hi))
	}
	return n, nil
}

// list answers the catalogue filtered, sorted and paged: a JSON array.
func (s *Service) list(w http.ResponseWriter, r *http.Request) error {
	lq, err := parseListQuery(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	// The three reads are independent: at once, so the answer takes about
	// as long as the catalogue's own query (DESIGN §10).
	var (
		all                        []domain.Prompt
		names                      map[string]string
		v                          viewer
		promptsErr, namesErr, vErr error
		wg                         sync.WaitGroup
	)
	wg.Go(func() { all, promptsErr = s.st.Prompts(ctx) })
	wg.Go(func() { names, namesErr = s.categoryNames(ctx) })
	wg.Go(func() { v, vErr = s.loadViewer(ctx) })
	wg.Wait()
	if err := errors.Join(promptsErr, namesErr, vErr); err != nil {
		return err
	}
	// The search covers the category's name too ("by title, description or
	// category"); an unpublished prompt is listed only to those who own it
	// (My prompts).
	filter := prompts.Filter{Search: lq.search, CategoryNames: names, CategoryID: lq.categoryID}
	all = slices.DeleteFunc(all, func(p domain.Prompt) bool { return !filter.Matches(p) || (p.Unpublished && !v.hasAccess(p.ID)) })
	prompts.Sort(all, lq.order)
	page := window(all, lq.offset, lq.limit)
	out := make([]promptJSON, 0, len(page))
	for _, p := range page {
		out = append(out, s.present(p, v, names))
	}
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}

func window(ps []domain.Prompt, offset, limit int) []domain.Prompt {
	if offset >= len(ps) {
		return nil
	}
	return ps[offset:min(len(ps), offset+limit)]
}

// featured answers the first FeaturedCount published prompts in the
// featured order (prompts.SortFeatured).
func (s *Service) featured(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	all, err := s.st.Prompts(ctx)
	if err != nil {
		return err
	}
	names, err := s.categoryNames(ctx)
	if err != nil {
		return err
	}
	v, err := s.loadViewer(ctx)
	if err != nil {
		return err
	}
	all = slices.DeleteFunc(all, func(p domain.Prompt) bool { return p.Unpublished })
	prompts.SortFeatured(all)
	out := []promptJSON{}
	for _, p := range window(all, 0, FeaturedCount) {
		out = append(out, s.present(p, v, names))
	}
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}

func (s *Service) categories(w http.ResponseWriter, r *http.Request) error {
	cats, err := s.st.Categories(r.Context())
	if err != nil {
		return err
	}
	if cats == nil {
		cats = []domain.Category{}
	}
	httpx.WriteJSON(w, http.StatusOK, cats)
	return nil
}

// get answers one prompt as the caller may see it.
func (s *Service) get(w http.ResponseWriter, r *http.Request) error {
	p, err := s.st.GetPrompt(r.Context(), r.PathValue("id"))
	if errors.Is(err, store.ErrNotFound) {
		return httpx.NotFound("Prompt not found")
	}
	if err != nil {
		return err
	}
	names, err := s.categoryNames(r.Context())
	if err != nil {
		return err
	}
	v, err := s.loadViewer(r.Context())
	if err != nil {
		return err
	}
	if p.Unpublished && !v.hasAccess(p.ID) {
		return httpx.NotFound("Prompt not found") // taken off the catalogue; its owners still read it
	}
	httpx.WriteJSON(w, http.StatusOK, s.present(p, v, names))
	return nil
}
