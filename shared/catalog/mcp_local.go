package catalog

import (
	"context"
	"errors"

	"aiwork/shared/domain"
	"aiwork/shared/store"
)

// LocalReferenceID is the catalogue id of the reference server that local
// runs start on loopback.
const LocalReferenceID = "local-everything"

// LocalReferenceServer is the catalogue entry for the MCP reference server
// (@modelcontextprotocol/server-everything) running locally at endpoint:
// anyone can connect to it with no network and no key.
func LocalReferenceServer(endpoint string) domain.MCPServer {
	return domain.MCPServer{
		ID:                LocalReferenceID,
		Name:              "local/everything",
		Title:             "Everything (local reference server)",
		Description:       "The MCP project's reference server, started on this machine by `make run`: echo, sums, images, prompts and resources to try every MCP feature. No key, no network.",
		EndpointURL:       endpoint,
		Transport:         domain.TransportStreamableHTTP,
		ModelType:         "reference",
		IsActive:          true,
		SupportedFeatures: []string{"tools", "prompts", "resources", "logging", "completions"},
		WebsiteURL:        "https://github.com/modelcontextprotocol/servers/tree/main/src/everything",
		Repository:        "https://github.com/modelcontextprotocol/servers",
		Version:           "2026.8.31",
		Source:            "local",
	}
}

// SetLocalReference lists the running reference server at endpoint, or,
// with an empty endpoint (it did not start), takes a stored entry out of the
// listing so nobody is offered a dead local port.
func SetLocalReference(ctx context.Context, st *store.Store, endpoint string) error {
	if endpoint != "" {
		return st.UpsertMCPServer(ctx, LocalReferenceServer(endpoint))
	}
	err := st.SetMCPServerActive(ctx, LocalReferenceID, false)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	return err
}
