// Command agents is the agents route group's Lambda: the agent
// marketplace.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"aiwork/shared/api/agentsapi"
	"aiwork/shared/config"
	"aiwork/shared/lambdaadapter"
	"aiwork/shared/store"
)

func main() {
	ctx, awsCfg, secrets := lambdaadapter.Boot()
	cfg, err := config.LoadBase(ctx, secrets)
	if err != nil {
		lambdaadapter.Fatal("config", err)
	}
	st := store.NewFromAWS(awsCfg, cfg.Store)
	lambda.Start(lambdaadapter.NewProxy(agentsapi.FromConfig(st, cfg).Handler(), lambdaadapter.OriginSecret(ctx, secrets)))
}
