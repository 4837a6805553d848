// Command payments is the payments route group's Lambda.
package main

import (
	"context"

	"github.com/aws/aws-lambda-go/lambda"

	"aiwork/shared/api/paymentsapi"
	"aiwork/shared/auth"
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
	cfg, err := config.LoadPayments(ctx, config.SecretsClient(awsCfg))
	if err != nil {
		lambdaadapter.Fatal("config", err)
	}
	if cfg.StripeSecretKey == "" {
		lambdaadapter.Fatal("config", errStripeKeyRequired)
	}
	st := store.NewFromAWS(awsCfg, cfg.Store)
	svc := paymentsapi.New(st, auth.NewTokens(cfg.JWTSecret, 0), paymentsapi.NewProvider(st, cfg), cfg)
	lambda.Start(lambdaadapter.NewProxy(svc.Handler()))
}
