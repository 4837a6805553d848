// Command mcp is the mcp function's Lambda: the MCP server registry,
// users' MCP connections and chat provider connections (the mcp group),
// and the registry served as the official MCP Registry API (the registry
// group).
package main

import (
	"net/http"

	"github.com/aws/aws-lambda-go/lambda"

	"aiwork/shared/api/mcpapi"
	"aiwork/shared/api/registryapi"
	"aiwork/shared/config"
	"aiwork/shared/lambdaadapter"
	"aiwork/shared/routes"
	"aiwork/shared/store"
)

func main() {
	ctx, awsCfg, secrets := lambdaadapter.Boot()
	cfg, err := config.LoadMCP(ctx, secrets)
	if err != nil {
		lambdaadapter.Fatal("config", err)
	}
	st := store.NewFromAWS(awsCfg, cfg.Store)
	svc, err := mcpapi.FromConfig(st, cfg)
	if err != nil {
		lambdaadapter.Fatal("mcp", err)
	}
	h, err := routes.Function("mcp", map[string]http.Handler{
		"mcp": svc.Handler(), "registry": registryapi.FromConfig(st, cfg).Handler()})
	if err != nil {
		lambdaadapter.Fatal("mcp", err)
	}
	lambda.Start(lambdaadapter.NewProxy(h, lambdaadapter.OriginSecret(ctx, secrets)))
}
