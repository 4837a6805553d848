// Command mcp is the mcp route group's Lambda: the MCP server registry,
// users' MCP connections and chat provider connections.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"aiwork/shared/api/mcpapi"
	"aiwork/shared/config"
	"aiwork/shared/lambdaadapter"
	"aiwork/shared/store"
)

func main() {
	ctx, awsCfg, secrets := lambdaadapter.Boot()
	cfg, err := config.LoadMCP(ctx, secrets)
	if err != nil {
		lambdaadapter.Fatal("config", err)
	}
	svc, err := mcpapi.FromConfig(store.NewFromAWS(awsCfg, cfg.Store), cfg)
	if err != nil {
		lambdaadapter.Fatal("mcp", err)
	}
	lambda.Start(lambdaadapter.NewProxy(svc.Handler(), lambdaadapter.OriginSecret(ctx, secrets)))

}
