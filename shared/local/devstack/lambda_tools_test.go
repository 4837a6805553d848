package devstack_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/api/chatapi"
	"aiwork/shared/domain"
	"aiwork/shared/testbed/mcptest"
)

// Tools in chat through the binaries: the mcp function seals the user's
// key for an MCP server that requires one; the chat function (another
// process, reading the key-encryption key from the Secrets Manager
// stand-in) opens it, calls the server's tool for the demo model and
// streams the result and the answer.
func testChatToolLoop(t *testing.T, s *lambdaStack) {
	const key = "sk-mcp-lambda-test-key"
	srv := sdk.NewServer(&sdk.Implementation{Name: "lambda-tools", Version: "0.1.0"}, nil)
	srv.AddTool(&sdk.Tool{Name: "add", Description: "Adds two numbers.", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
		InputSchema: map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "number"}, "b": map[string]any{"type": "number"}}}},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var args struct{ A, B float64 }
			_ = json.Unmarshal(req.Params.Arguments, &args)
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprint(args.A + args.B)}}}, nil
		})
	mcpHandler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	mcpHTTP := mcptest.Serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+key {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		mcpHandler.ServeHTTP(w, r)
	}))
	if err := s.st.UpsertMCPServer(context.Background(), domain.MCPServer{ID: "lambda-tools", Name: "test/lambda-tools", Title: "Lambda tools",
		EndpointURL: mcpHTTP.URL + "/mcp", Transport: domain.TransportStreamableHTTP, ModelType: "general", IsActive: true,
		APIKeyRequired: true, SupportedFeatures: []string{"tools"}}); err != nil {
		t.Fatal(err)
	}

	token := s.register(t, "toolsuser")
	_, body := s.do(t, request{function: "mcp", method: "POST", path: "/api/v1/mcp-connections/", token: token,
		body: []byte(`{"server_id":"lambda-tools","api_key":"` + key + `"}`)}, http.StatusOK)
	var mcpConn struct {
		ConnectionID string `json:"connection_id"`
	}
	_ = json.Unmarshal(body, &mcpConn)
	// Anthropic has no key here: the demo model, which follows the tool rule.
	_, body = s.do(t, request{function: "mcp", method: "POST", path: "/api/v1/mcp-connections/anthropic", token: token,
		body: []byte(`{"model":"claude-3-5-sonnet"}`)}, http.StatusOK)
	var conn struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(body, &conn)
	if mcpConn.ConnectionID == "" || conn.ID == "" {
		t.Fatalf("connections %+v %+v", mcpConn, conn)
	}

	msg, _ := json.Marshal(map[string]any{"connection_id": conn.ID, "message": "use add with 2 and 3", "context": []any{},
		"mcp_connection_ids": []string{mcpConn.ConnectionID}})
	_, reply := s.do(t, request{function: "chat", method: "POST", path: chatapi.Path, body: msg, token: token}, http.StatusOK)
	got := string(reply)
	for _, want := range []string{`"tool_call":{`, `"tool":"add"`, `"tool_result":{`, `"text":"5"`, "answered:"} {
		if !strings.Contains(got, want) {
			t.Errorf("reply lacks %q:\n%s", want, got)
		}
	}
	if !strings.HasSuffix(got, "data: [DONE]\n\n") || strings.Contains(got, key) {
		t.Errorf("reply %q: want [DONE] at the end and no key", got)
	}
	if strings.Contains(s.logs.String(), key) {
		t.Error("a function logged the key")
	}
}
