package devstack_test

import (
	"context"
	"net/http"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/testbed/mcptest"
)

// echoMCPServer serves an in-process MCP server (the go-sdk's) named name
// with one tool, echo, for the test's life, and answers its endpoint.
func echoMCPServer(t *testing.T, name string) string {
	t.Helper()
	server := sdk.NewServer(&sdk.Implementation{Name: name, Version: "0.1.0"}, nil)
	server.AddTool(&sdk.Tool{Name: "echo", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{}, nil
		})
	return mcptest.Serve(t, sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, nil)).URL + "/mcp"
}
