// Command creators is the creators route group's Lambda.
package main

import (
	"errors"

	"github.com/aws/aws-lambda-go/lambda"

	"aiwork/shared/api/creatorsapi"
	"aiwork/shared/config"
	"aiwork/shared/lambdaadapter"
	"aiwork/shared/store"
)

// In AWS payouts go through Stripe Connect: the local stand-in, which
// enables payouts at once, exists on the devserver alone.
var errStripeKeyRequired = errors.New("STRIPE_SECRET_KEY (or STRIPE_SECRET_KEY_ARN) is required in Lambda")

func main() {
	ctx, awsCfg, secrets := lambdaadapter.Boot()
	cfg, err := config.LoadCreators(ctx, secrets)
	if err != nil {
		lambdaadapter.Fatal("config", err)
	}
	if cfg.StripeSecretKey == "" {
		lambdaadapter.Fatal("config", errStripeKeyRequired)
	}
	st := store.NewFromAWS(awsCfg, cfg.Store)
	lambda.Start(lambdaadapter.NewProxy(creatorsapi.FromConfig(st, cfg).Handler(), lambdaadapter.OriginSecret(ctx, secrets)))
}
