package mcpapi

import (
	"cmp"
	"errors"
	"net/http"
	"slices"
	"strings"

	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/store"
)

// maxQueryLen bounds the search and filter values; longer ones match nothing anyway.
const maxQueryLen = 200

// listServers answers the active registry entries, filtered by exact
// model_type and a case-insensitive search over name and description.
func (s *Service) listServers(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	modelType, search := strings.TrimSpace(q.Get("model_type")), strings.ToLower(strings.TrimSpace(q.Get("search")))
	if len(modelType) > maxQueryLen || len(search) > maxQueryLen {
		return httpx.Invalid("The search text is too long (at most 200 characters).")
	}
	servers, err := s.st.ListMCPServers(r.Context())
	if err != nil {
		return err
	}
	out := make([]serverView, 0, len(servers))
	for _, srv := range servers {
		// An entry that turned inactive (deleted or deprecated upstream) leaves the listing.
		if !srv.IsActive || (modelType != "" && srv.ModelType != modelType) || !matches(srv, search) {
			continue
		}
		out = append(out, presentServer(srv))
	}
	// Working servers first, then by name.
	slices.SortStableFunc(out, func(a, b serverView) int {
		return cmp.Or(cmp.Compare(healthRank(a.Health.Status), healthRank(b.Health.Status)),
			cmp.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)))
	})
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}

func matches(s domain.MCPServer, search string) bool {
	if search == "" {
		return true
	}
	for _, field := range []string{s.Title, s.Name, s.Description} {
		if strings.Contains(strings.ToLower(field), search) {
			return true
		}
	}
	return false
}

func healthRank(status string) int {
	switch status {
	case domain.HealthUp:
		return 0
	case domain.HealthAuthRequired:
		return 1
	case domain.HealthUnknown:
		return 2
	default:
		return 3
	}
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
