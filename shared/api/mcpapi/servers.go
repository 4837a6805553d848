package mcpapi

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/prompts"
	"aiwork/shared/store"
)

// The list's page size: DefaultLimit servers unless limit= asks for 1 to
// MaxLimit (the marketplace's).
const (
	DefaultLimit = 24
	MaxLimit     = 60
)

// maxQueryLen bounds the model type filter; longer ones match nothing anyway.
const maxQueryLen = 200

// listJSON is one page of the registry list: the servers, the cursor of
// the next page (null on the last) and how many servers the list has:
// exactly when count_exact, else at least that many (a search of several
// words spanning pages, which would read them all to count).
type listJSON struct {
	Items      []serverView `json:"items"`
	NextCursor *string      `json:"next_cursor"`
	Count      int          `json:"count"`
	CountExact bool         `json:"count_exact"`
}

// listServers answers one page of the listed servers by name, filtered by
// exact model_type and searched by whole words (the marketplace's,
// prompts.QueryTokens) in the title, registry name and description, from
// the table's registry list (store.ListMCPServerPage): the same few reads
// at any registry size. A card shows its server's health status; the
// probe's other figures are on the server's own page.
func (s *Service) listServers(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	modelType, search := strings.TrimSpace(q.Get("model_type")), strings.TrimSpace(q.Get("search"))
	if len(modelType) > maxQueryLen || utf8.RuneCountInString(search) > prompts.MaxQueryLength {
		return httpx.Invalid("The search text is too long (at most 200 characters).")
	}
	words, err := prompts.QueryTokens(search)
	if err != nil {
		return httpx.Invalid(err.Error())
	}
	limit := DefaultLimit
	if raw := q.Get("limit"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > MaxLimit {
			return httpx.Invalid("limit must be a whole number from 1 to " + strconv.Itoa(MaxLimit))
		}
		limit = n
	}
	page, err := s.st.ListMCPServerPage(r.Context(), store.MCPListQuery{ModelType: modelType, Words: words, Limit: limit, Cursor: q.Get("cursor")})
	if errors.Is(err, store.ErrBadCursor) {
		return httpx.Invalid("cursor is not one this list gave; start again without it")
	}
	if err != nil {
		return err
	}
	out := listJSON{Items: make([]serverView, 0, len(page.Servers)), Count: page.Count, CountExact: page.CountExact}
	for _, srv := range page.Servers {
		out.Items = append(out.Items, presentServer(srv))
	}
	if page.NextCursor != "" {
		out.NextCursor = &page.NextCursor
	}
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}

// getServer answers one listed entry with the tools its last probe saw. An
// entry the listing leaves out (inactive upstream, or disabled by an
// admin, whose endpoint and probe errors are the admins' to see through
// the admin routes) is not found here either.
func (s *Service) getServer(w http.ResponseWriter, r *http.Request) error {
	srv, err := s.serverOr404(r, r.PathValue("id"))
	if err != nil {
		return err
	}
	if !srv.IsActive {
		return noServer()
	}
	httpx.WriteJSON(w, http.StatusOK, presentServerDetail(srv))
	return nil
}

// serverOr404 reads a registry entry; an unknown or malformed id is 404.
func (s *Service) serverOr404(r *http.Request, id string) (domain.MCPServer, error) {
	id, ok := serverID(id)
	if !ok {
		return domain.MCPServer{}, noServer()
	}
	srv, err := s.st.GetMCPServer(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		return domain.MCPServer{}, noServer()
	}
	return srv, err
}

func noServer() error { return httpx.NotFound("MCP server not found.") }

// serverID is id trimmed, and whether it can name an entry at all.
func serverID(id string) (string, bool) {
	id = strings.TrimSpace(id)
	return id, id != "" && len(id) <= 200
}
