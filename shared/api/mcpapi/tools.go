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
	// UIResourceURI is the tool's view (MCP Apps) and Visibility who may
	// call it ("model", "app"; absent: both).
	UIResourceURI string   `json:"ui_resource_uri,omitempty"`
	Visibility    []string `json:"visibility,omitempty"`
}

// allowanceView is one "always allow": a tool on one endpoint of a
// registry entry, as it was defined when allowed.
type allowanceView struct {
	ServerID string `json:"server_id"`
	Tool     string `json:"tool"`
	// Endpoint is the allowance's endpoint (the revoke's ?endpoint=); ""
	// for one recorded before endpoints were, which allows nothing.
	Endpoint string `json:"endpoint"`
	// EndpointLabel is Endpoint as a user reads it: host and path.
	EndpointLabel string `json:"endpoint_label"`
	// Destructive: the tool may change or delete data (as the caller's
	// connection on that endpoint defines it now, else as when allowed).
	Destructive bool `json:"destructive"`
	// Changed names what no longer matches the tool as a connection on
	// that endpoint defines it now (store.Changed*); empty when it
	// matches or no connection there offers it.
	Changed   []string `json:"changed"`
	CreatedAt string   `json:"created_at"`
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
				ReadOnly: t.ReadOnly, Destructive: t.MayDestroy(), UIResourceURI: t.UIResourceURI, Visibility: t.Visibility})
		}
		out.Servers = append(out.Servers, v)
	}
	for _, a := range allowances {
		out.AlwaysAllowed = append(out.AlwaysAllowed, viewAllowance(a, conns))
	}
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}

// viewAllowance compares a with the tool as the caller's connections on
// its endpoint define it now.
func viewAllowance(a store.ToolAllowance, conns []domain.MCPConnection) allowanceView {
	v := allowanceView{ServerID: a.ServerID, Tool: a.Tool, Endpoint: a.Endpoint, EndpointLabel: store.EndpointLabel(a.Endpoint),
		Destructive: a.Destructive, Changed: []string{}, CreatedAt: a.CreatedAt}
	if !a.Recorded() {
		v.Changed = []string{store.ChangedUnrecorded}
	}
	for _, c := range conns {
		if c.ServerID != a.ServerID || (a.Recorded() && store.AllowanceEndpoint(c.EndpointURL) != a.Endpoint) {
			continue
		}
		for _, t := range c.Tools {
			if t.Name != a.Tool {
				continue
			}
			v.Destructive = v.Destructive || t.MayDestroy()
			if a.Recorded() {
				v.Changed = append(v.Changed[:0], a.Print.Changed(store.PrintTool(t))...)
			}
		}
	}
	return v
}

// revokeAlways forgets an "always allow": the chat asks again before that
// tool runs. ?endpoint= names one endpoint's allowance (empty: the one
// recorded before endpoints were); without it, every endpoint's goes.
// Another user's choice is indistinguishable from none.
func (s *Service) revokeAlways(w http.ResponseWriter, r *http.Request) error {
	uid, _ := auth.UserID(r.Context())
	endpoint := store.AnyEndpoint
	if q := r.URL.Query(); q.Has("endpoint") {
		endpoint = q.Get("endpoint")
	}
	err := s.st.RevokeToolAllowance(r.Context(), uid, r.PathValue("server_id"), r.PathValue("tool"), endpoint)
	if errors.Is(err, store.ErrNotFound) {
		return httpx.NotFound("This tool is not always allowed.")
	}
	if err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
