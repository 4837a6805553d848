package agentsapi

import (
	"cmp"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"aiwork/shared/agents"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/store"
)

// The list's page size, as the prompt marketplace's.
const (
	DefaultLimit = 24
	MaxLimit     = 60
)

// Orders of the list (sort=), newest the default.
var orders = []string{"newest", "price-low", "price-high", "rating"}

func newestFirst(a, b domain.Agent) int {
	if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
		return c
	}
	return cmp.Compare(b.ID, a.ID)
}

// inOrder compares two agents by their places in the list's order.
func inOrder(order string) func(a, b domain.Agent) int {
	return func(a, b domain.Agent) int {
		switch order {
		case "price-low":
			if c := cmp.Compare(a.Price, b.Price); c != 0 {
				return c
			}
		case "price-high":
			if c := cmp.Compare(b.Price, a.Price); c != 0 {
				return c
			}
		case "rating":
			if c := cmp.Compare(b.RatingAvg(), a.RatingAvg()); c != 0 {
				return c
			}
			if c := cmp.Compare(b.RatingCount, a.RatingCount); c != 0 {
				return c
			}
		}
		return newestFirst(a, b)
	}
}

// list answers a page of the agents on sale: search= on name,
// description and category name, category=, sort=, limit=, cursor= (the
// place the page before ended, as given: cursor.go).
func (s *Service) list(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	order := cmp.Or(q.Get("sort"), "newest")
	if !slices.Contains(orders, order) {
		return httpx.Invalid("sort must be one of newest, price-low, price-high, rating")
	}
	limit := DefaultLimit
	if raw := q.Get("limit"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > MaxLimit {
			return httpx.Invalid("limit must be a whole number from 1 to " + strconv.Itoa(MaxLimit))
		}
		limit = n
	}
	var after *domain.Agent
	if c := q.Get("cursor"); c != "" {
		place, ok := decodeCursor(c)
		if !ok {
			return httpx.Invalid("cursor is not one this list gave; start again without it")
		}
		after = &place
	}
	listed, err := s.st.ListedAgents(r.Context())
	if err != nil {
		return err
	}
	names, err := s.st.CategoryNames(r.Context())
	if err != nil {
		return err
	}
	search := strings.ToLower(strings.TrimSpace(cmp.Or(q.Get("search"), q.Get("q"))))
	category := strings.TrimSpace(cmp.Or(q.Get("category"), q.Get("category_id")))
	kept := []domain.Agent{}
	for _, a := range listed {
		if category != "" && a.CategoryID != category {
			continue
		}
		if search != "" && !strings.Contains(strings.ToLower(a.Name), search) && !strings.Contains(strings.ToLower(a.Description), search) &&
			!strings.Contains(strings.ToLower(names[a.CategoryID]), search) {
			continue
		}
		kept = append(kept, a)
	}
	compare := inOrder(order)
	slices.SortStableFunc(kept, compare)
	start := 0
	if after != nil {
		start = len(kept)
		if i := slices.IndexFunc(kept, func(a domain.Agent) bool { return compare(a, *after) > 0 }); i >= 0 {
			start = i
		}
	}
	end := min(start+limit, len(kept))
	sv := s.servers(r)
	cards := make([]cardJSON, 0, end-start)
	for _, a := range kept[start:end] {
		c, err := sv.card(a, names)
		if err != nil {
			return err
		}
		cards = append(cards, c)
	}
	next := ""
	if end < len(kept) && end > start {
		next = encodeCursor(kept[end-1])
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"items": cards, "next_cursor": next, "total": len(kept)})
	return nil
}

// get answers an agent's page: its servers with the caller's connection
// to each, and a free agent's instructions.
func (s *Service) get(w http.ResponseWriter, r *http.Request) error {
	a, acc, err := s.visible(r)
	if err != nil {
		return err
	}
	names, err := s.st.CategoryNames(r.Context())
	if err != nil {
		return err
	}
	var conns []domain.MCPConnection
	if acc.uid != "" && len(a.Servers) > 0 {
		if conns, err = s.st.ListMCPConnections(r.Context(), acc.uid); err != nil {
			return err
		}
	}
	d, err := s.servers(r).detail(a, acc, names, conns)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, d)
	return nil
}

// MsgPaidNotExported answers an export of a paid agent by anyone but its
// creator.
const MsgPaidNotExported = "A paid agent's instructions are not exported."

var unsafeFileChars = regexp.MustCompile(`[^a-z0-9]+`)

// export answers the agent file: a free agent's to anyone who can see it,
// a paid agent's to its creator alone.
func (s *Service) export(w http.ResponseWriter, r *http.Request) error {
	a, acc, err := s.visible(r)
	if err != nil {
		return err
	}
	if !a.IsFree() && !acc.creator {
		return httpx.Forbidden(MsgPaidNotExported)
	}
	body, err := json.MarshalIndent(agents.Export(a), "", "  ")
	if err != nil {
		return err
	}
	name := strings.Trim(unsafeFileChars.ReplaceAllString(strings.ToLower(a.Name), "-"), "-")
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Disposition", `attachment; filename="`+cmp.Or(name, a.ID)+`.agent.json"`)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(append(body, '\n'))
	return nil
}

// Messages of a rating refused.
const (
	MsgRateOwn  = "You cannot rate your own agent."
	MsgRateBuy  = "Buy this agent to rate it."
	msgBadStars = "rating must be a whole number from 1 to 5"
)

// rate records the caller's rating (1 to 5): a buyer's, or any signed-in
// user's of a free agent on sale; never its creator's.
func (s *Service) rate(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Rating json.Number `json:"rating"`
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	stars, err := strconv.Atoi(in.Rating.String())
	if err != nil || stars < 1 || stars > 5 {
		return httpx.Invalid(msgBadStars)
	}
	a, acc, err := s.visible(r)
	if err != nil {
		return err
	}
	switch {
	case acc.creator:
		return httpx.Forbidden(MsgRateOwn)
	case !acc.bought && !(a.IsFree() && a.OnSale()):
		return httpx.Forbidden(MsgRateBuy)
	}
	after, err := s.st.RateAgent(r.Context(), acc.uid, a.ID, stars, s.opts.Now())
	if errors.Is(err, store.ErrNotFound) {
		return httpx.NotFound(msgNotFound)
	}
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"id": a.ID, "rating": stars, "rating_avg": after.RatingAvg(), "rating_count": after.RatingCount})
	return nil
}
