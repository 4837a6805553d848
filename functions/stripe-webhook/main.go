// Command stripe-webhook receives Stripe's events at POST /api/v1/payments/webhook.
package main

import (
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
	st := store.NewFromAWS(awsCfg, cfg.Store)
	lambda.Start(lambdaadapter.NewProxy(webhookapi.New(st, cfg.WebhookSecret, "stripe"), lambdaadapter.OriginSecret(ctx, secrets)))

}
