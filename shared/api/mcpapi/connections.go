package mcpapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"net/url"
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
	srv, err := s.activeServer(r, in.ServerID)
	if err != nil {
		return err
	}
	key := strings.TrimSpace(in.APIKey)
	if srv.APIKeyRequired && key == "" {
		return httpx.Invalid("API key is required for this server")
	}
	if len(key) > maxAPIKeyLen {
		return httpx.Invalid("The API key is too long.")
	}
	endpoint, err := s.admitEndpoint(r.Context(), uid, srv, in.EndpointURL)
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
		ID: newID(), ServerID: srv.ID, ServerName: displayName(srv), EndpointURL: endpoint, Transport: res.Transport,
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

// activeServer is the registry entry id, if it is still active.
func (s *Service) activeServer(r *http.Request, id string) (domain.MCPServer, error) {
	srv, err := s.serverOr404(r, id)
	if err != nil {
		return srv, err
	}
	if !srv.IsActive {
		return srv, httpx.Conflict(fmt.Sprintf("%s is no longer listed as active in the registry.", displayName(srv)))
	}
	return srv, nil
}

// admitEndpoint is the endpoint a connect or sign-in reaches (the user's
// override, else the entry's), once the outbound rules allow it and the
// attempt is counted (admitConnect).
func (s *Service) admitEndpoint(ctx context.Context, uid string, srv domain.MCPServer, override string) (string, error) {
	endpoint := strings.TrimSpace(override)
	if endpoint == "" {
		endpoint = srv.EndpointURL
	}
	if len(endpoint) > maxEndpointLen {
		return "", httpx.Invalid("The endpoint URL is too long.")
	}
	if err := s.policy.CheckURL(endpoint); err != nil {
		return "", clientError(err)
	}
	return endpoint, s.admitConnect(ctx, uid, endpoint)
}

// admitConnect counts the attempt against the caller's and the target
// host's per-minute limits before any packet leaves, so the service cannot be
// used to scan.
func (s *Service) admitConnect(ctx context.Context, uid, endpoint string) error {
	now := time.Now()
	if win, ok, err := s.st.Admit(ctx, "mcp-connect", uid, s.userLimit, connectWindow, now); err != nil {
		return err
	} else if !ok {
		return tooMany("You are connecting too often. Please wait a minute and try again.", win.Ends(connectWindow), now)
	}
	host := endpoint
	if u, err := url.Parse(endpoint); err == nil {
		host = strings.ToLower(u.Hostname())
	}
	if win, ok, err := s.st.Admit(ctx, "mcp-connect-host", host, s.hostLimit, connectWindow, now); err != nil {
		return err
	} else if !ok {
		return tooMany("Too many connections to this server right now. Please try again in a minute.", win.Ends(connectWindow), now)
	}
	return nil
}

func tooMany(detail string, ends, now time.Time) error {
	return &httpx.Error{Code: httpx.CodeRateLimited, Detail: detail, RetryAfterSeconds: max(1, int(math.Ceil(ends.Sub(now).Seconds())))}
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
