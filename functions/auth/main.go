// Command auth is the auth route group's Lambda: configuration, clients,
// handler, start. Everything else lives in shared/.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"aiwork/shared/api/authapi"
	"aiwork/shared/config"
	"aiwork/shared/lambdaadapter"
	"aiwork/shared/store"
)

func main() {
	ctx, awsCfg, secrets := lambdaadapter.Boot()
	cfg, err := config.LoadAuth(ctx, secrets)
	if err != nil {
		lambdaadapter.Fatal("config", err)
	}
	st := store.NewFromAWS(awsCfg, cfg.Store)
	lambda.Start(lambdaadapter.NewProxy(authapi.New(st, cfg).Handler()))
}
