// Command prompts is the prompts route group's Lambda.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"aiwork/shared/api/promptsapi"
	"aiwork/shared/auth"
	"aiwork/shared/config"
	"aiwork/shared/lambdaadapter"
	"aiwork/shared/store"
)

func main() {
	ctx, awsCfg, secrets := lambdaadapter.Boot()
	cfg, err := config.LoadPrompts(ctx, secrets)
	if err != nil {
		lambdaadapter.Fatal("config", err)
	}
	st := store.NewFromAWS(awsCfg, cfg.Store)
	h := promptsapi.New(st, auth.NewTokens(cfg.JWTSecret, 0).WithKeySource(cfg.JWTKeys).WithSessions(st), cfg.FreePromptsPerUser).
		WithEmailVerification(!cfg.SkipEmailVerification).Handler()
	lambda.Start(lambdaadapter.NewProxy(h, lambdaadapter.OriginSecret(ctx, secrets)))

}
