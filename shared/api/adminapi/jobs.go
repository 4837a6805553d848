package adminapi

import (
	"context"

	"aiwork/shared/domain"
	"aiwork/shared/mcpjobs/remote"
)

// Jobs run the registry jobs on demand: in-process on the devserver and in
// tests (mcpjobs.Runner), in the mcp-jobs function from the admin Lambda
// (remote.Client), which so links no MCP SDK.
type Jobs interface {
	// ProbeOne probes srv now and saves its health (remote.ErrNotFound:
	// the server is gone).
	ProbeOne(ctx context.Context, srv domain.MCPServer) (domain.MCPHealth, error)
	// Sync writes the seed and imports from the registry, if one is set.
	Sync(ctx context.Context) (remote.SyncReport, error)
}

// EndpointChecker says why the outbound rules refuse an endpoint (nil:
// allowed); the error's text is what the admin reads.
type EndpointChecker interface {
	CheckEndpoint(ctx context.Context, raw string) error
}
