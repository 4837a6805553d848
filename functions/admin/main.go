// Command admin is the admin route group's Lambda.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"aiwork/shared/api/adminapi"
	"aiwork/shared/config"
	"aiwork/shared/lambdaadapter"
	"aiwork/shared/store"
)

func main() {
	ctx, awsCfg, secrets := lambdaadapter.Boot()
	cfg, err := config.LoadAdmin(ctx, secrets)
	if err != nil {
		lambdaadapter.Fatal("config", err)
	}
	st := store.NewFromAWS(awsCfg, cfg.Store)
	lambda.Start(lambdaadapter.NewProxy(adminapi.FromConfig(st, cfg).Handler(), lambdaadapter.OriginSecret(ctx, secrets)))
}
