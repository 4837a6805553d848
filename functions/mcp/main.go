// Command mcp is the mcp route group's Lambda: provider connections and the
// MCP server registry.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"aiwork/shared/api/mcpapi"
	"aiwork/shared/auth"
	"aiwork/shared/config"
	"aiwork/shared/lambdaadapter"
	"aiwork/shared/llm"
	"aiwork/shared/store"
)

func main() {
	ctx, awsCfg, secrets := lambdaadapter.Boot()
	cfg, err := config.LoadChat(ctx, secrets)
	if err != nil {
		lambdaadapter.Fatal("config", err)
	}
	st := store.NewFromAWS(awsCfg, cfg.Store)
	lambda.Start(lambdaadapter.NewProxy(mcpapi.New(st, auth.NewTokens(cfg.JWTSecret, 0), llm.RealProviders(cfg)).Handler()))
}
