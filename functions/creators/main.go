// Command creators is the creators route group's Lambda.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"aiwork/shared/api/creatorsapi"
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
	lambda.Start(lambdaadapter.NewProxy(creatorsapi.FromConfig(st, cfg).Handler(), lambdaadapter.OriginSecret(ctx, secrets)))
}
