package mcpapi

import (
	"encoding/json"
	"errors"
	"net/http"
	"sync"

	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/store"
)

// toolsView is what the chat's Tools control shows: the caller's connected
// servers with the tools the chat may offer, and the tools the caller lets
// run without asking.
type toolsView struct {
	Servers       []toolServerView `json:"servers"`
	AlwaysAllowed []allowanceView  `json:"always_allowed"`
}

type toolServerView struct {
	ConnectionID string `json:"connection_id"`
	ServerID     string `json:"server_id"`
	ServerName   string `json:"server_name"`
	EndpointURL  string `json:"endpoint_url"`
	// EndpointHost: as in connectionView, shown beside ServerName.
	EndpointHost string     `json:"endpoint_host"`
	ConnectedAt  string     `json:"connected_at"`
	Tools        []toolView `json:"tools"`
}

type toolView struct {
	Name        string          `json:"name"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
	ReadOnly    bool            `json:"read_only"`
	// Destructive is the MCP spec's reading: declared destructive, or not
	// read-only with no hint either way.
	Destructive bool `json:"destructive"`
}

type allowanceView struct {
	ServerID  string `json:"server_id"`
	Tool      string `json:"tool"`
	CreatedAt string `json:"created_at"`
}

// listTools answers the caller's connections with their tools and the
// caller's "always allow" choices, read at once.
func (s *Service) listTools(w http.ResponseWriter, r *http.Request) error {
	uid, _ := auth.UserID(r.Context())
	var (
		conns      []domain.MCPConnection
		allowances []store.ToolAllowance
		connErr    error
		allowErr   error
		wg         sync.WaitGroup
	)
	wg.Go(func() { conns, connErr = s.st.ListMCPConnections(r.Context(), uid) })
	wg.Go(func() { allowances, allowErr = s.st.ToolAllowances(r.Context(), uid) })
	wg.Wait()
	if err := errors.Join(connErr, allowErr); err != nil {
		return err
	}
	out := toolsView{Servers: make([]toolServerView, 0, len(conns)), AlwaysAllowed: make([]allowanceView, 0, len(allowances))}
	for _, c := range conns {
		v := toolServerView{ConnectionID: c.ID, ServerID: c.ServerID, ServerName: c.ServerName, EndpointURL: c.EndpointURL,
			EndpointHost: c.EndpointHost, ConnectedAt: c.ConnectedAt, Tools: make([]toolView, 0, len(c.Tools))}
		for _, t := range c.Tools {
			schema := t.InputSchema
			if len(schema) == 0 {
				schema = json.RawMessage(`{"type":"object"}`)
			}
			v.Tools = append(v.Tools, toolView{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: schema,
				ReadOnly: t.ReadOnly, Destructive: t.MayDestroy()})
		}
		out.Servers = append(out.Servers, v)
	}
	for _, a := range allowances {
		out.AlwaysAllowed = append(out.AlwaysAllowed, allowanceView{ServerID: a.ServerID, Tool: a.Tool, CreatedAt: a.CreatedAt})
	}
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}

// revokeAlways forgets one "always allow": the chat asks again before that
// tool runs. Another user's choice is indistinguishable from none.
func (s *Service) revokeAlways(w http.ResponseWriter, r *http.Request) error {
	uid, _ := auth.UserID(r.Context())
	err := s.st.RevokeToolAllowance(r.Context(), uid, r.PathValue("server_id"), r.PathValue("tool"))
	if errors.Is(err, store.ErrNotFound) {
		return httpx.NotFound("This tool is not always allowed.")
	}
	if err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
