package agentsapi

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/store"
)

// Auth kinds of an agent's server, from the registry: what a user does to
// connect it.
const (
	authNone  = "none"
	authKey   = "key"
	authOAuth = "oauth"
)

type creatorJSON struct {
	Username    string `json:"username"`
	DisplayName string `json:"display_name"`
}

type cardServerJSON struct {
	ServerID string `json:"server_id"`
	Name     string `json:"name"`
	Auth     string `json:"auth"`
}

// cardJSON is an agent in the list. It has no instructions field: no
// card carries them, a free agent's either.
type cardJSON struct {
	ID           string           `json:"id"`
	Name         string           `json:"name"`
	Description  string           `json:"description"`
	Creator      *creatorJSON     `json:"creator"`
	Provider     string           `json:"provider"`
	Model        string           `json:"model"`
	Servers      []cardServerJSON `json:"servers"`
	Price        float64          `json:"price"`
	IsFree       bool             `json:"is_free"`
	RatingAvg    float64          `json:"rating_avg"`
	RatingCount  int              `json:"rating_count"`
	CategoryID   string           `json:"category_id"`
	CategoryName string           `json:"category_name"`
	CreatedAt    string           `json:"created_at"`
}

type detailServerJSON struct {
	ServerID     string   `json:"server_id"`
	Name         string   `json:"name"`
	Auth         string   `json:"auth"`
	Tools        []string `json:"tools"`
	ConnectionID *string  `json:"connection_id"`
}

// detailJSON is an agent's page. Instructions is set for a free agent
// only (detail); a paid agent's page leaves the field out.
type detailJSON struct {
	ID           string             `json:"id"`
	Name         string             `json:"name"`
	Description  string             `json:"description"`
	Creator      *creatorJSON       `json:"creator"`
	Provider     string             `json:"provider"`
	Model        string             `json:"model"`
	Servers      []detailServerJSON `json:"servers"`
	Starters     []string           `json:"starters"`
	Price        float64            `json:"price"`
	IsFree       bool               `json:"is_free"`
	Owned        bool               `json:"owned"`
	RatingAvg    float64            `json:"rating_avg"`
	RatingCount  int                `json:"rating_count"`
	Version      int                `json:"version"`
	CategoryID   string             `json:"category_id"`
	CategoryName string             `json:"category_name"`
	CreatedAt    string             `json:"created_at"`
	Instructions *string            `json:"instructions,omitempty"`
}

// serverInfo is what the pages show of a registry server.
type serverInfo struct {
	name string
	auth string
}

// servers reads (once per request) the registry entries of the servers
// agents use; one the registry lost is shown by its id, with no auth.
type servers struct {
	s     *Service
	r     *http.Request
	known map[string]serverInfo
}

func (s *Service) servers(r *http.Request) *servers {
	return &servers{s: s, r: r, known: map[string]serverInfo{}}
}

func (sv *servers) info(id string) (serverInfo, error) {
	if in, ok := sv.known[id]; ok {
		return in, nil
	}
	srv, err := sv.s.st.GetMCPServer(sv.r.Context(), id)
	in := serverInfo{name: id, auth: authNone}
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return in, err
	default:
		in.name = strings.TrimSpace(srv.Title)
		if in.name == "" {
			in.name = srv.Name
		}
		switch {
		case srv.OAuthRequired:
			in.auth = authOAuth
		case srv.APIKeyRequired:
			in.auth = authKey
		}
	}
	sv.known[id] = in
	return in, nil
}

func creatorOf(a domain.Agent) *creatorJSON {
	if a.CreatorID == "" {
		return nil
	}
	return &creatorJSON{Username: a.CreatorUsername, DisplayName: a.CreatorDisplayName}
}

func (sv *servers) card(a domain.Agent, names map[string]string) (cardJSON, error) {
	c := cardJSON{ID: a.ID, Name: a.Name, Description: a.Description, Creator: creatorOf(a), Provider: a.Provider, Model: a.Model,
		Servers: []cardServerJSON{}, Price: a.Price, IsFree: a.IsFree(), RatingAvg: a.RatingAvg(), RatingCount: a.RatingCount,
		CategoryID: a.CategoryID, CategoryName: names[a.CategoryID], CreatedAt: createdAt(a)}
	for _, s := range a.Servers {
		in, err := sv.info(s.ServerID)
		if err != nil {
			return c, err
		}
		c.Servers = append(c.Servers, cardServerJSON{ServerID: s.ServerID, Name: in.name, Auth: in.auth})
	}
	return c, nil
}

// detail is a's page for a caller with acc; conns are the caller's MCP
// connections (none for a visitor).
func (sv *servers) detail(a domain.Agent, acc access, names map[string]string, conns []domain.MCPConnection) (detailJSON, error) {
	d := detailJSON{ID: a.ID, Name: a.Name, Description: a.Description, Creator: creatorOf(a), Provider: a.Provider, Model: a.Model,
		Servers: []detailServerJSON{}, Starters: append([]string{}, a.Starters...), Price: a.Price, IsFree: a.IsFree(),
		Owned: acc.owned(), RatingAvg: a.RatingAvg(), RatingCount: a.RatingCount, Version: a.Published, CategoryID: a.CategoryID,
		CategoryName: names[a.CategoryID], CreatedAt: createdAt(a)}
	for _, s := range a.Servers {
		in, err := sv.info(s.ServerID)
		if err != nil {
			return d, err
		}
		ds := detailServerJSON{ServerID: s.ServerID, Name: in.name, Auth: in.auth, Tools: append([]string{}, s.Tools...)}
		for _, c := range conns {
			if c.ServerID == s.ServerID {
				id := c.ID
				ds.ConnectionID = &id
				break
			}
		}
		d.Servers = append(d.Servers, ds)
	}
	if a.IsFree() {
		instructions := a.Instructions
		d.Instructions = &instructions
	}
	return d, nil
}

// createdAt is when a was made, as the API writes times (RFC 3339, UTC, seconds).
func createdAt(a domain.Agent) string { return a.CreatedAt.UTC().Format(time.RFC3339) }
