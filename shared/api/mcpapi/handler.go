// Package mcpapi is the mcp route group: connections to chat providers (and
// the MCP server registry). Streaming replies live in chatapi.
package mcpapi

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"time"

	"aiwork/shared/auth"
	"aiwork/shared/httpx"
	"aiwork/shared/llm"
	"aiwork/shared/store"
)

// Service holds what the handlers need.
type Service struct {
	st     *store.Store
	tokens *auth.Tokens
	real   map[string]bool
}

// New builds the mcp group. real says which providers are served by their
// APIs (llm.RealProviders); the others by the local demo model. Knowing that
// is enough here, so this function links none of the provider SDKs.
func New(st *store.Store, tokens *auth.Tokens, real map[string]bool) *Service {
	return &Service{st: st, tokens: tokens, real: real}
}

// Handler routes /api/v1/mcp-connections/{provider}.
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("POST /api/v1/mcp-connections/{provider}", s.tokens.Required(httpx.Handle(s.connectProvider)))
	return httpx.WithNotFound(mux)
}

type connectInput struct {
	Model string `json:"model"`
}

type connectResponse struct {
	ID         string `json:"id"`
	ServerName string `json:"server_name"`
	Model      string `json:"model"`
	Demo       bool   `json:"demo"`
}

// connectProvider opens a chat connection to a provider for one model.
func (s *Service) connectProvider(w http.ResponseWriter, r *http.Request) error {
	p, ok := llm.FindProvider(r.PathValue("provider"))
	if !ok {
		return httpx.NotFound(fmt.Sprintf("Unknown provider '%s'. Choose openai, meta, anthropic or google.", r.PathValue("provider")))
	}
	var in connectInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	in.Model = strings.TrimSpace(in.Model)
	if _, ok := p.FindModel(in.Model); !ok {
		return httpx.Invalid(fmt.Sprintf("Model '%s' is not offered by %s. Choose one of: %s.", in.Model, p.Label, strings.Join(p.ModelNames(), ", ")))
	}
	demo := !s.real[p.ID]
	name := p.Label
	if demo {
		name += " (local demo)"
	}
	uid, _ := auth.UserID(r.Context())
	c := store.Connection{
		ID: newID(), Kind: "llm", Provider: p.ID, Model: in.Model, ServerName: name,
		CreatedAt: time.Now().UTC().Format(time.RFC3339Nano),
	}
	if err := s.st.PutConnection(r.Context(), uid, c); err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, connectResponse{ID: c.ID, ServerName: c.ServerName, Model: c.Model, Demo: demo})
	return nil
}

func newID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
