// Package remote is the registry jobs asked of the mcp-jobs function over
// Lambda Invoke: the events it answers and the client the admin function
// uses for Probe now and Sync from registry now. The admin function links
// this instead of shared/mcpjobs, whose MCP SDK costs its cold start
// (DESIGN §10 Lambda init).
package remote

import "aiwork/shared/domain"

// Actions an admin asks for.
const (
	ActionProbe = "probe"
	ActionSync  = "sync"
)

// Event is what mcp-jobs is invoked with: a schedule's {"job": name}
// (EventBridge), or an admin's {"action": "probe", "server_id": id} or
// {"action": "sync"}.
type Event struct {
	Job      string `json:"job,omitempty"`
	Action   string `json:"action,omitempty"`
	ServerID string `json:"server_id,omitempty"`
}

// SyncReport is what a sync did; Registry says whether one is configured
// (without one a sync writes the committed seed only).
type SyncReport struct {
	Upserted    int  `json:"upserted"`
	Deactivated int  `json:"deactivated"`
	Skipped     int  `json:"skipped"`
	Pages       int  `json:"pages"`
	Registry    bool `json:"registry"`
}

// Reply answers an action: its result, or Error, the job's failure in the
// words the admin reads (NotFound: the server is gone).
type Reply struct {
	Health   *domain.MCPHealth `json:"health,omitempty"`
	Sync     *SyncReport       `json:"sync,omitempty"`
	Error    string            `json:"error,omitempty"`
	NotFound bool              `json:"not_found,omitempty"`
}
