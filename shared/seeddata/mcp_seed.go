package seeddata

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"log/slog"

	"aiwork/shared/domain"
	"aiwork/shared/mcp/registry"
	"aiwork/shared/store"
)

// mcp-servers.json is a snapshot of real public remote MCP servers in the
// official registry's list-response shape (GET /v0.1/servers). What
// server.json cannot say (the catalogue's model type, whether the server
// wants OAuth, its features) is in each entry's "com.aiwork/catalog" _meta;
// a required secret header in remotes[].headers marks a server needing an
// API key.
//
//go:embed mcp-servers.json
var mcpServersJSON []byte

// SourceSeed marks catalogue entries that come from the snapshot.
const SourceSeed = "seed"

// MCPServers is the seed snapshot, parsed as a registry page, every entry
// active with Source "seed". Any entry the parser cannot use is an error:
// the snapshot is ours and must be whole.
func MCPServers() ([]domain.MCPServer, error) {
	var raw struct {
		Servers []json.RawMessage `json:"servers"`
	}
	if err := json.Unmarshal(mcpServersJSON, &raw); err != nil {
		return nil, fmt.Errorf("seed data: mcp-servers.json: %w", err)
	}
	entries, deleted, _, err := registry.Parse(mcpServersJSON, slog.Default())
	if err != nil {
		return nil, fmt.Errorf("seed data: mcp-servers.json: %w", err)
	}
	if len(entries) != len(raw.Servers) || len(deleted) > 0 {
		return nil, fmt.Errorf("seed data: mcp-servers.json: %d of %d entries usable", len(entries), len(raw.Servers))
	}
	for i := range entries {
		entries[i].Source = SourceSeed
	}
	return entries, nil
}

// SeedMCPServers writes the snapshot into the catalogue. It is idempotent and
// keeps what the prober recorded (UpsertMCPServer writes listing fields only).
// An entry the registry sync has taken over (Source "registry") is left to
// the sync, so a restart does not undo what the registry said since (such as
// a deletion). So is an inactive one: only the sync deactivates a seeded entry
// (a deletion upstream), without taking it over, and the next incremental
// sync would not repeat the deletion.
func SeedMCPServers(ctx context.Context, st *store.Store) error {
	servers, err := MCPServers()
	if err != nil {
		return err
	}
	stored, err := st.ListMCPServers(ctx)
	if err != nil {
		return fmt.Errorf("seed mcp servers: %w", err)
	}
	synced := map[string]bool{}
	for _, s := range stored {
		if s.Source == "registry" || !s.IsActive {
			synced[s.ID] = true
		}
	}
	for _, s := range servers {
		if synced[s.ID] {
			continue
		}
		if err := st.UpsertMCPServer(ctx, s); err != nil {
			return fmt.Errorf("seed mcp servers: %w", err)
		}
	}
	return nil
}
