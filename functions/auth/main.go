// Command auth is the auth route group's Lambda: configuration, clients,
// handler, start. Everything else lives in shared/.
package main

import (
	"context"

	"github.com/aws/aws-lambda-go/lambda"

	"aiwork/shared/api/authapi"
	"aiwork/shared/config"
	"aiwork/shared/lambdaadapter"
	"aiwork/shared/store"
)

func main() {
	lambdaadapter.Logging()
	ctx := context.Background()
	awsCfg, err := config.AWS(ctx, config.LoadStore().Region)
	if err != nil {
		lambdaadapter.Fatal("aws config", err)
	}
	cfg, err := config.LoadAuth(ctx, config.SecretsClient(awsCfg))
	if err != nil {
		lambdaadapter.Fatal("config", err)
	}
	st := store.NewFromAWS(awsCfg, cfg.Store)
	lambda.Start(lambdaadapter.NewProxy(authapi.New(st, cfg).Handler()))
}
