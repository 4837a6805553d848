package mcpapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/mcp"
	"aiwork/shared/store"
)

// Limits of one connect request.
const (
	maxEndpointLen = 2048
	maxAPIKeyLen   = 4096
	connectWindow  = time.Minute
)

type connectServerInput struct {
	ServerID    string `json:"server_id"`
	ServerName  string `json:"server_name"`
	EndpointURL string `json:"endpoint_url"`
	ModelType   string `json:"model_type"`
	APIKey      string `json:"api_key"`
}

// connectServer does a real MCP handshake with a registry entry for the
// caller and stores the connection (the key only sealed). Every failure is
// told as it is; there is no success without a handshake.
func (s *Service) connectServer(w http.ResponseWriter, r *http.Request) error {
	var in connectServerInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	uid, _ := auth.UserID(r.Context())
	key := strings.TrimSpace(in.APIKey)
	srv, endpoint, err := s.admit(r, uid, admission{serverID: in.ServerID, override: in.EndpointURL, check: func(srv domain.MCPServer) error {
		if srv.APIKeyRequired && key == "" {
			return httpx.Invalid("API key is required for this server")
		}
		if len(key) > maxAPIKeyLen {
			return httpx.Invalid("The API key is too long.")
		}
		return nil
	}})
	if err != nil {
		return err
	}

	ctx, cancel := context.WithTimeout(r.Context(), s.connectTimeout)
	defer cancel()
	res, err := mcp.Handshake(ctx, s.client, mcp.Target{Endpoint: endpoint, Transport: srv.Transport, APIKey: key, KeyHeader: srv.APIKeyHeader})
	if err != nil {
		// The detail is safe to log and show: shared/mcp never puts the key in it.
		slog.InfoContext(r.Context(), "mcp connect failed", "server", srv.ID, "err", err)
		return clientError(err)
	}
	now := time.Now().UTC().Format(time.RFC3339Nano)
	c := domain.MCPConnection{
		ID: newID(), ServerID: srv.ID, ServerName: displayName(srv), EndpointURL: endpoint,
		EndpointHost: overriddenHost(endpoint, srv.EndpointURL), Transport: res.Transport,
		ModelType: srv.ModelType, ProtocolVersion: res.ProtocolVersion, ServerInfo: res.ServerInfo, Tools: res.Tools,
		APIKeyHeader: srv.APIKeyHeader, ConnectedAt: now, ToolsCheckedAt: now,
	}
	if key != "" {
		if c.SealedAPIKey, err = s.sealer.Seal(key, uid, srv.ID); err != nil {
			return fmt.Errorf("seal key: %w", err)
		}
		c.APIKeyLast4 = mcp.Last4(key)
	}
	if err := s.st.PutMCPConnection(r.Context(), uid, c); err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, presentConnection(c))
	return nil
}

// clientError maps a handshake failure to the status DESIGN §4 gives it.
func clientError(err error) error {
	var me *mcp.Error
	if !errors.As(err, &me) {
		return err
	}
	switch me.Kind {
	case mcp.KindRefused:
		return httpx.Invalid(me.Detail)
	case mcp.KindTimeout:
		return &httpx.Error{Code: httpx.CodeTimeout, Detail: me.Detail}
	default:
		return &httpx.Error{Code: httpx.CodeUpstream, Detail: me.Detail}
	}
}

// listConnections answers the caller's MCP connections, newest first.
func (s *Service) listConnections(w http.ResponseWriter, r *http.Request) error {
	uid, _ := auth.UserID(r.Context())
	conns, err := s.st.ListMCPConnections(r.Context(), uid)
	if err != nil {
		return err
	}
	out := make([]connectionListItem, 0, len(conns))
	for _, c := range conns {
		out = append(out, presentConnectionRow(c))
	}
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}

// deleteConnection removes one of the caller's connections; anyone else's
// id is indistinguishable from an unknown one.
func (s *Service) deleteConnection(w http.ResponseWriter, r *http.Request) error {
	uid, _ := auth.UserID(r.Context())
	id := r.PathValue("id")
	if id == "" || len(id) > 100 {
		return httpx.NotFound("Connection not found.")
	}
	s.revokeSignIn(r.Context(), uid, id)
	err := s.st.DeleteMCPConnection(r.Context(), uid, id)
	if errors.Is(err, store.ErrNotFound) {
		return httpx.NotFound("Connection not found.")
	}
	if err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func displayName(s domain.MCPServer) string {
	if s.Title != "" {
		return s.Title
	}
	return s.Name
}
