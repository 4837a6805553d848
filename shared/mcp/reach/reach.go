// Package reach says how to reach a user's MCP connection: its endpoint
// and its credential, unsealed only for its owner. The chat's tool calls
// and the composer's prompts and resources (mcpapi) go the same way.
package reach

import (
	"context"
	"errors"
	"fmt"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/mcp"
	"aiwork/shared/mcp/mcpauth"
	"aiwork/shared/store"
)

// Reacher opens users' sealed keys and sign-ins: a sign-in's Keeper, whose
// refresh goes through Client (the outbound rules' client); Now may be nil
// (time.Now).
type Reacher mcpauth.Keeper

// Owner names a user's connection in a session pool.
func Owner(uid string, c domain.MCPConnection) string { return uid + "/" + c.ID }

// Target is how to reach c: its key unsealed for uid (bound to uid and
// the server: a key sealed for anyone else does not open), or its
// sign-in's access token, refreshed when about to expire. A key never
// reaches a model, a frame or a log line.
func (r Reacher) Target(ctx context.Context, uid string, c domain.MCPConnection) (mcp.Target, error) {
	t := mcp.Target{Endpoint: c.EndpointURL, Transport: c.Transport, KeyHeader: c.APIKeyHeader}
	if len(c.SealedAPIKey) == 0 {
		return t, nil
	}
	if c.OAuth {
		k := mcpauth.Keeper(r)
		if k.Now == nil {
			k.Now = time.Now
		}
		token, err := k.AccessToken(ctx, uid, c)
		if errors.Is(err, mcpauth.ErrReauth) {
			return mcp.Target{}, &mcp.Error{Kind: mcp.KindAuthRequired, Detail: fmt.Sprintf("Sign in to %s again in the MCP Registry.", c.Label())}
		}
		if err != nil {
			return mcp.Target{}, err
		}
		t.APIKey, t.KeyHeader = token, "Authorization"
		return t, nil
	}
	key, err := r.Sealer.Open(c.SealedAPIKey, uid, c.ServerID)
	if err != nil {
		return mcp.Target{}, &mcp.Error{Kind: mcp.KindKeyRefused, Detail: "The stored API key for this server could not be read; connect the server again."}
	}
	if t.KeyHeader == "" { // a connection made before the header was recorded
		srv, err := r.St.GetMCPServer(ctx, c.ServerID)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return mcp.Target{}, err
		}
		t.KeyHeader = srv.APIKeyHeader
	}
	t.APIKey = key
	return t, nil
}
