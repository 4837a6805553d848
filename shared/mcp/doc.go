// Package mcp talks to remote MCP servers on behalf of users: the outbound
// rules every request obeys (outbound.go, client.go), the handshake that
// reads a server's identity and tools (handshake.go), the sealing of users'
// API keys (sealer.go) and the health prober (probe.go).
//
// Every URL handled here comes from a registry or a user, so it is treated as
// hostile: requests go through Policy.Client, errors reach users only as the
// short details of *Error, and API keys never appear in an error or a log.
package mcp
