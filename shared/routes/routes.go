// Package routes is the one table of API route groups: which path prefixes
// reach which function. The devserver mounts from it and the CDK stack builds
// API Gateway from it, so local and deployed routing cannot drift.
package routes

import (
	"strings"
	"time"
)

// Group is one Lambda function and the API paths it serves.
type Group struct {
	// Function is the folder under functions/ and the Lambda's name.
	Function string
	// Prefixes are path prefixes ending in "/" (a subtree) or exact paths.
	Prefixes []string
	// Streaming marks a response-streaming integration.
	Streaming bool
}

// APIPrefix is where every route group lives.
const APIPrefix = "/api/v1/"

// Groups lists every route group. More specific prefixes win, wherever they
// stand in the list (Match picks the longest).
var Groups = []Group{
	{Function: "auth", Prefixes: []string{"/api/v1/auth/"}},
	{Function: "users", Prefixes: []string{"/api/v1/users/"}},
	{Function: "prompts", Prefixes: []string{"/api/v1/prompts/"}},
	{Function: "payments", Prefixes: []string{"/api/v1/payments/"}},
	{Function: "stripe-webhook", Prefixes: []string{"/api/v1/payments/webhook"}},
	{Function: "mcp", Prefixes: []string{"/api/v1/mcp-servers/", "/api/v1/mcp-connections/"}},
	{Function: "chat", Prefixes: []string{"/api/v1/mcp-connections/message"}, Streaming: true},
}

// ExactPathMethods is the HTTP method of each exact-path route (a prefix
// without a trailing "/"); other exact paths take any method. The stack
// gives these resources that one method, so another is not routed.
var ExactPathMethods = map[string]string{
	"/api/v1/payments/webhook":        "POST",
	"/api/v1/mcp-connections/message": "POST",
}

// Match answers the group whose longest prefix matches path.
func Match(path string) (Group, bool) {
	g, _, ok := MatchPrefix(path)
	return g, ok
}

// MatchPrefix is Match that also answers the prefix that matched.
func MatchPrefix(path string) (Group, string, bool) {
	var best Group
	prefix := ""
	bestLen := -1
	for _, g := range Groups {
		for _, p := range g.Prefixes {
			if matches(path, p) && len(p) > bestLen {
				best, prefix, bestLen = g, p, len(p)
			}
		}
	}
	return best, prefix, bestLen >= 0
}

func matches(path, prefix string) bool {
	if strings.HasSuffix(prefix, "/") {
		return strings.HasPrefix(path, prefix) || path == strings.TrimSuffix(prefix, "/")
	}
	return path == prefix
}

// Job is work that runs on a schedule rather than on a request: in AWS an
// EventBridge rule invokes Function with the input {"job": Name}; the
// devserver runs it at start and then every LocalEvery.
type Job struct {
	Name       string
	Function   string
	Schedule   string // EventBridge schedule expression
	LocalEvery time.Duration
}

// JobFunctions are the Lambdas that serve only jobs (no API route).
var JobFunctions = []string{"mcp-jobs"}

// Jobs lists every scheduled job.
var Jobs = []Job{
	// Imports the MCP registry (MCP_REGISTRY_URL) into the catalogue.
	{Name: "mcp-sync", Function: "mcp-jobs", Schedule: "rate(1 day)", LocalEvery: 6 * time.Hour},
	// Handshakes with every active MCP server and records its health and tools.
	{Name: "mcp-probe", Function: "mcp-jobs", Schedule: "rate(15 minutes)", LocalEvery: 15 * time.Minute},
}
