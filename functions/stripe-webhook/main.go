// Command stripe-webhook receives Stripe's events at POST /api/v1/payments/webhook.
package main

import (
	"context"

	"github.com/aws/aws-lambda-go/lambda"

	"aiwork/shared/api/webhookapi"
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
	cfg, err := config.LoadWebhook(ctx, config.SecretsClient(awsCfg))
	if err != nil {
		lambdaadapter.Fatal("config", err)
	}
	st := store.NewFromAWS(awsCfg, cfg.Store)
	lambda.Start(lambdaadapter.NewProxy(webhookapi.New(st, cfg.WebhookSecret, "stripe")))
}
