// Command admin is the admin route group's Lambda.
package main

import (
	"log/slog"

	"github.com/aws/aws-lambda-go/lambda"

	"aiwork/shared/api/adminapi"
	"aiwork/shared/config"
	"aiwork/shared/lambdaadapter"
	"aiwork/shared/mail/sesmail"
	"aiwork/shared/mcpjobs/remote"
	"aiwork/shared/store"
)

func main() {
	ctx, awsCfg, secrets := lambdaadapter.Boot()
	cfg, err := config.LoadAdmin(ctx, secrets)
	if err != nil {
		lambdaadapter.Fatal("config", err)
	}
	st := store.NewFromAWS(awsCfg, cfg.Store)
	mailer, err := sesmail.Mailer(awsCfg, cfg.MailFrom)
	if err != nil {
		lambdaadapter.Fatal("mail", err)
	}
	// Probe now and Sync run in the mcp-jobs function, so this one links no
	// MCP SDK (its package inits cost every cold start).
	var jobs adminapi.Jobs
	if cfg.MCPJobsFunction != "" {
		jobs = remote.New(awsCfg, cfg.MCPJobsFunction)
	} else {
		slog.Warn(config.MCPJobsFunctionVar + " is not set: Probe now and Sync from registry now answer 503")
	}
	lambda.Start(lambdaadapter.NewProxy(adminapi.FromConfig(st, cfg, mailer, jobs).Handler(), lambdaadapter.OriginSecret(ctx, secrets)))
}
