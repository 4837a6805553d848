// Command payments is the payments route group's Lambda.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"aiwork/shared/api/paymentsapi"
	"aiwork/shared/config"
	"aiwork/shared/lambdaadapter"
	"aiwork/shared/store"
)

func main() {
	ctx, awsCfg, secrets := lambdaadapter.Boot()
	cfg, err := config.LoadPayments(ctx, secrets)
	if err != nil {
		lambdaadapter.Fatal("config", err)
	}
	if cfg.StripeSecretKey == "" {
		lambdaadapter.Fatal("config", errStripeKeyRequired)
	}
	st := store.NewFromAWS(awsCfg, cfg.Store)
	lambda.Start(lambdaadapter.NewProxy(paymentsapi.FromConfig(st, cfg).Handler(), lambdaadapter.OriginSecret(ctx, secrets)))
}
