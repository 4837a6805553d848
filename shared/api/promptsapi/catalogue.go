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

// The list's page size: DefaultLimit cards unless limit= asks for 1 to
// MaxLimit.
const (
	DefaultLimit = 24
	MaxLimit     = 60
)

// Who the list is of (filter=): every published prompt, or only the
// caller's own (SPEC §2's filter=purchased, linked from the dashboard, and
// the marketplace's "Show only my prompts").
const (
	filterPurchased = "purchased"
	filterMine      = "mine"
)

// listJSON is one page of the list: the cards, the cursor of the next page
// (null on the last) and how many prompts the list has: exactly when
// count_exact, else at least that many (a search spanning more than one
// page, which would read the whole catalogue to count).
type listJSON struct {
	Items      []promptJSON `json:"items"`
	NextCursor *string      `json:"next_cursor"`
	Count      int          `json:"count"`
	CountExact bool         `json:"count_exact"`
}

type listQuery struct {
	words      []string
	categoryID string
	order      prompts.Order
	limit      int
	cursor     string
	filter     string
}

// parseListQuery reads the list's query: q (or search, SPEC §7's name),
// category (or category_id), sort, limit, cursor and filter.
func parseListQuery(r *http.Request) (listQuery, error) {
	q := r.URL.Query()
	lq := listQuery{
		categoryID: strings.TrimSpace(cmp.Or(q.Get("category"), q.Get("category_id"))),
		order:      prompts.Order(cmp.Or(q.Get("sort"), string(prompts.Newest))),
		cursor:     q.Get("cursor"),
		filter:     q.Get("filter"),
	}
	if !slices.Contains(prompts.Orders, lq.order) {
		return lq, httpx.Invalid("sort must be one of newest, price-low, price-high")
	}
	if lq.filter != "" && lq.filter != filterPurchased && lq.filter != filterMine {
		return lq, httpx.Invalid("filter must be purchased or mine")
	}
	var err error
	if lq.words, err = prompts.QueryTokens(cmp.Or(q.Get("q"), q.Get("search"))); err != nil {
		return lq, httpx.Invalid(err.Error())
	}
	if lq.limit, err = intParam(q.Get("limit"), DefaultLimit, 1, MaxLimit, "limit"); err != nil {
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

// list answers one page of the catalogue, filtered, searched and sorted by
// the table's listing (store.ListPrompts): the same few reads at any
// catalogue size. The caller's own prompts on the page are read whole for
// their content; an unpublished prompt is listed only to those who own it,
// in their own list (filter=).
func (s *Service) list(w http.ResponseWriter, r *http.Request) error {
	lq, err := parseListQuery(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	// The reads are independent: at once, so the answer takes about as
	// long as the listing's own Query (DESIGN §10).
	var (
		names          map[string]string
		v              viewer
		namesErr, vErr error
		wg             sync.WaitGroup
	)
	wg.Go(func() { names, namesErr = s.categoryNames(ctx) })
	wg.Go(func() { v, vErr = s.loadViewer(ctx) })
	wg.Wait()
	if err := errors.Join(namesErr, vErr); err != nil {
		return err
	}
	query := store.PromptListQuery{Order: lq.order, CategoryID: lq.categoryID, Words: lq.words, CategoryNames: names, Limit: lq.limit, Cursor: lq.cursor}
	if lq.filter != "" {
		query.Only = v.own(lq.filter == filterMine)
	}
	page, err := s.st.ListPrompts(ctx, query)
	if errors.Is(err, store.ErrBadCursor) {
		return httpx.Invalid("cursor is not one this list gave; start again without it")
	}
	if err != nil {
		return err
	}
	// Content for the caller's own prompts on the page.
	full := page.Prompts
	var mine []string
	for _, c := range page.Cards {
		if _, ok := full[c.ID]; !ok && v.hasAccess(c.ID) {
			mine = append(mine, c.ID)
		}
	}
	if len(mine) > 0 {
		if full, err = s.st.GetPrompts(ctx, mine); err != nil {
			return err
		}
	}
	out := listJSON{Items: make([]promptJSON, 0, len(page.Cards)), Count: page.Count, CountExact: page.CountExact}
	for _, c := range page.Cards {
		var content *string
		if p, ok := full[c.ID]; ok && v.hasAccess(c.ID) {
			content = &p.Content
		}
		out.Items = append(out.Items, s.presentCard(c, content, v, names))
	}
	if page.NextCursor != "" {
		out.NextCursor = &page.NextCursor
	}
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}

// featured answers FeaturedCount published prompts: those flagged
// featured (the best rated first), then the newest (store.FeaturedPrompts:
// what it shows, not the catalogue).
func (s *Service) featured(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	var (
		picked              []domain.Prompt
		names               map[string]string
		v                   viewer
		err, namesErr, vErr error
		wg                  sync.WaitGroup
	)
	wg.Go(func() { picked, err = s.st.FeaturedPrompts(ctx, FeaturedCount) })
	wg.Go(func() { names, namesErr = s.categoryNames(ctx) })
	wg.Go(func() { v, vErr = s.loadViewer(ctx) })
	wg.Wait()
	if err := errors.Join(err, namesErr, vErr); err != nil {
		return err
	}
	out := []promptJSON{}
	for _, p := range picked {
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
	if !p.OnSale() && !v.hasAccess(p.ID) {
		return httpx.NotFound("Prompt not found") // taken off the catalogue; its owners still read it
	}
	out := s.present(p, v, names)
	if err := s.withVersions(r, p, &out); err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}
