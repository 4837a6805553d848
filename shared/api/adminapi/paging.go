package adminapi

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"slices"
	"strconv"

	"aiwork/shared/httpx"
)

// Bounds of a listing page.
const (
	DefaultPageSize = 25
	MaxPageSize     = 100
)

// pageParams reads limit= and cursor= (a cursor is the place the page
// before ended: pageByPlace).
func pageParams(r *http.Request) (limit int, after string, err error) {
	limit = DefaultPageSize
	if l := r.URL.Query().Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > MaxPageSize {
			return 0, "", httpx.Invalid(fmt.Sprintf("limit must be a whole number from 1 to %d", MaxPageSize))
		}
		limit = n
	}
	if c := r.URL.Query().Get("cursor"); c != "" {
		raw, err := base64.RawURLEncoding.DecodeString(c)
		if err != nil || len(raw) == 0 {
			return 0, "", httpx.Invalid("cursor is not one this API gave")
		}
		after = string(raw)
	}
	return limit, after, nil
}

// Directions of a list ordered by place.
const (
	ascending  = false
	descending = true
)

// pageByPlace is one page of all, already filtered and ordered by place (a
// string that sorts as the list does, ascending or descending): at most
// limit items after the place after, and the cursor of the next page. The
// cursor is the place the page ended, not an item: an item that left the
// list between two pages (decided, suspended, disabled) neither sends the
// next page back to the start nor makes it skip one.
func pageByPlace[T any](all []T, place func(T) string, desc bool, limit int, after string) (items []T, next string) {
	start := 0
	if after != "" {
		beyond := func(it T) bool { return place(it) > after }
		if desc {
			beyond = func(it T) bool { return place(it) < after }
		}
		start = len(all)
		if i := slices.IndexFunc(all, beyond); i >= 0 {
			start = i
		}
	}
	end := min(start+limit, len(all))
	items = all[start:end]
	if end < len(all) && len(items) > 0 {
		next = base64.RawURLEncoding.EncodeToString([]byte(place(items[len(items)-1])))
	}
	if items == nil {
		items = []T{}
	}
	return items, next
}

// writePage answers a listing page.
func writePage[T any](w http.ResponseWriter, items []T, next string, total int) {
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"items": items, "next_cursor": next, "total": total})
}

// writeConflict answers 409 with the target as it now is.
func writeConflict(w http.ResponseWriter, detail string, current any) {
	httpx.WriteJSON(w, http.StatusConflict, map[string]any{"detail": detail, "code": httpx.CodeConflict, "current": current})
}
