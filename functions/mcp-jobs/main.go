// Command mcp-jobs runs the registry's scheduled jobs (shared/lambdas): each
// EventBridge rule invokes it with {"job": "<name>"}.
package main

import (
	"context"
	"log/slog"

	"github.com/aws/aws-lambda-go/lambda"

	"aiwork/shared/config"
	"aiwork/shared/lambdaadapter"
	"aiwork/shared/mcpjobs"
	"aiwork/shared/store"
)

type event struct {
	Job string `json:"job"`
}

func main() {
	_, awsCfg, _ := lambdaadapter.Boot()
	cfg := config.LoadMCPJobs()
	runner, err := mcpjobs.FromConfig(store.NewFromAWS(awsCfg, cfg.Store), cfg, slog.Default())
	if err != nil {
		lambdaadapter.Fatal("mcp-jobs", err)
	}
	lambda.Start(func(ctx context.Context, ev event) error { return runner.Run(ctx, ev.Job) })
}
