// Package routes is how API paths reach functions: the route groups of
// shared/lambdas' table (one per function that serves API routes), matched
// by longest prefix. The devserver mounts from it and the CDK stack builds
// API Gateway from it, so local and deployed routing cannot drift.
package routes

import (
	"strings"

	"aiwork/shared/lambdas"
)

// Group is one function and the API paths it serves.
type Group struct {
	// Function is the folder under functions/ and the Lambda's name.
	Function string
	// Prefixes are path prefixes ending in "/" (a subtree) or exact paths.
	Prefixes []string
	// Streaming marks a response-streaming integration.
	Streaming bool
}

// APIPrefix is where every route group lives but the registry API's.
const APIPrefix = "/api/v1/"

// RegistryPrefix is the registry served as the official MCP Registry API,
// with its own versions (/api/registry/v0.1/...). It goes through the same
// CloudFront, WAF, origin secret and API Gateway as APIPrefix.
const RegistryPrefix = lambdas.RegistryPrefix

// APIPrefixes are the prefixes every route lives under.
var APIPrefixes = []string{APIPrefix, RegistryPrefix}

// Paths written in more than one place (lambdas' table names them).
const (
	ChatPath              = lambdas.ChatPath
	WebhookPath           = lambdas.WebhookPath
	GoogleCallbackPath    = lambdas.GoogleCallbackPath
	ChatConversationsPath = lambdas.ChatConversationsPath
	ChatAppsPrefix        = lambdas.ChatAppsPrefix
	// The sign-in to OAuth-protected MCP servers (lambdas' table).
	MCPOAuthPrefix       = lambdas.MCPOAuthPrefix
	MCPOAuthStartPath    = lambdas.MCPOAuthStartPath
	MCPOAuthCallbackPath = lambdas.MCPOAuthCallbackPath
	MCPOAuthMetadataPath = lambdas.MCPOAuthMetadataPath
)

// Groups lists every route group: the functions of lambdas.All that serve
// routes. More specific prefixes win, wherever they stand in the list
// (Match picks the longest).
var Groups = func() []Group {
	var out []Group
	for _, f := range lambdas.All {
		if f.API() {
			out = append(out, Group{Function: f.Name, Prefixes: f.Routes, Streaming: f.Streaming})
		}
	}
	return out
}()

// ExactPathMethods is the HTTP method of each exact-path route (a prefix
// without a trailing "/"); other exact paths take any method. The stack
// gives these resources that one method, so another is not routed.
var ExactPathMethods = func() map[string]string {
	out := map[string]string{}
	for _, f := range lambdas.All {
		for path, method := range f.Methods {
			out[path] = method
		}
	}
	return out
}()

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
