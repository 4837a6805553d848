// Command mcp-jobs runs the registry's jobs (shared/lambdas): each
// EventBridge rule invokes it with {"job": "<name>"}, and the admin
// function with {"action": …} for Probe now and Sync (shared/mcpjobs/remote).
package main

import (
	"log/slog"

	"github.com/aws/aws-lambda-go/lambda"

	"aiwork/shared/config"
	"aiwork/shared/lambdaadapter"
	"aiwork/shared/mcpjobs"
	"aiwork/shared/store"
)

func main() {
	_, awsCfg, _ := lambdaadapter.Boot()
	cfg := config.LoadMCPJobs()
	runner, err := mcpjobs.FromConfig(store.NewFromAWS(awsCfg, cfg.Store), cfg, slog.Default())
	if err != nil {
		lambdaadapter.Fatal("mcp-jobs", err)
	}
	lambda.Start(runner.Handle)
}
