package mcpapi

import (
	"context"
	"fmt"
	"log/slog"

	"aiwork/shared/domain"
	"aiwork/shared/mcp/mcpauth"
)

// operatorClient is the client an admin pre-registered for srv, as
// ClientFor takes it, for a sign-in at endpoint whose authorization server
// is found; else the registry's client id (a public client, none when
// empty). Its secret is only ever sent to the authorization server it is
// for:
//   - an admin named that server (the entry's issuer): ClientFor refuses
//     another one, saying the operator must update it;
//   - none named yet: a sign-in at the entry's own endpoint records the
//     one it meets (the first sign-in with the client);
//   - at an endpoint a user gave (another server under the same entry),
//     the client is used only where it is for; elsewhere the sign-in goes
//     on as without it (the metadata document, or a registration).
func (s *Service) operatorClient(ctx context.Context, srv domain.MCPServer, endpoint string, found mcpauth.Server) (mcpauth.Client, error) {
	op := srv.Operator
	registry := mcpauth.Client{ID: srv.OAuthClientID}
	if op.ClientID == "" {
		return registry, nil
	}
	issuer := found.Auth.Issuer
	if endpoint != srv.EndpointURL {
		if op.Issuer != issuer {
			return registry, nil
		}
	} else if op.Issuer == "" {
		bound, err := s.st.BindMCPOperatorIssuer(ctx, srv.ID, op.ClientID, issuer)
		if err != nil {
			return mcpauth.Client{}, fmt.Errorf("record the operator client's authorization server: %w", err)
		}
		if bound == issuer {
			slog.InfoContext(ctx, "mcp sign-in: the operator client's authorization server recorded", "server", srv.ID, "issuer", issuer)
		}
		op.Issuer = bound
	}
	c := mcpauth.Client{ID: op.ClientID, Issuer: op.Issuer}
	if len(op.SealedSecret) > 0 {
		secret, err := s.sealer.Open(op.SealedSecret, domain.MCPOperatorSealOwner, srv.ID)
		if err != nil {
			return mcpauth.Client{}, fmt.Errorf("open the operator client's secret of %s: %w", srv.ID, err)
		}
		c.Secret = secret
	}
	return c, nil
}
