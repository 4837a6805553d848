// Command agents is the agents route group's Lambda: the agent
// marketplace.
package main

import (
	"errors"

	"github.com/aws/aws-lambda-go/lambda"

	"aiwork/shared/api/agentsapi"
	"aiwork/shared/config"
	"aiwork/shared/lambdaadapter"
	"aiwork/shared/store"
)

// Paid agents are sold through Stripe in AWS, as prompts are: the local
// test checkout exists on the devserver alone.
var errStripeKeyRequired = errors.New("STRIPE_SECRET_KEY (or STRIPE_SECRET_KEY_ARN) is required in Lambda")

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
	lambda.Start(lambdaadapter.NewProxy(agentsapi.FromConfig(st, cfg).Handler(), lambdaadapter.OriginSecret(ctx, secrets)))
}
