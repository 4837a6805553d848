// Command stripe-webhook receives Stripe's events at POST /api/v1/payments/webhook.
package main

import (
	"errors"

	"github.com/aws/aws-lambda-go/lambda"

	"aiwork/shared/api/webhookapi"
	"aiwork/shared/config"
	"aiwork/shared/lambdaadapter"
	"aiwork/shared/store"
)

func main() {
	ctx, awsCfg, secrets := lambdaadapter.Boot()
	cfg, err := config.LoadWebhook(ctx, secrets)
	if err != nil {
		lambdaadapter.Fatal("config", err)
	}
	// A duplicate payment is refunded through Stripe's API.
	if cfg.StripeSecretKey == "" {
		lambdaadapter.Fatal("config", errors.New("STRIPE_SECRET_KEY is required: a duplicate payment is refunded through Stripe"))
	}
	st := store.NewFromAWS(awsCfg, cfg.Store)
	lambda.Start(lambdaadapter.NewProxy(webhookapi.FromConfig(st, cfg), lambdaadapter.OriginSecret(ctx, secrets)))
}
