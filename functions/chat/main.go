// Command chat streams chat replies through Lambda response streaming.
package main

import (
	"context"

	"github.com/aws/aws-lambda-go/lambda"

	"aiwork/shared/api/chatapi"
	"aiwork/shared/auth"
	"aiwork/shared/config"
	"aiwork/shared/lambdaadapter"
	"aiwork/shared/llm"
	"aiwork/shared/store"
)

func main() {
	lambdaadapter.Logging()
	ctx := context.Background()
	awsCfg, err := config.AWS(ctx, config.LoadStore().Region)
	if err != nil {
		lambdaadapter.Fatal("aws config", err)
	}
	cfg, err := config.LoadChat(ctx, config.SecretsClient(awsCfg))
	if err != nil {
		lambdaadapter.Fatal("config", err)
	}
	registry, err := llm.RegistryFromConfig(ctx, cfg)
	if err != nil {
		lambdaadapter.Fatal("llm", err)
	}
	st := store.NewFromAWS(awsCfg, cfg.Store)
	h := chatapi.New(st, auth.NewTokens(cfg.JWTSecret, 0), registry, chatapi.Options{StallTimeout: cfg.StallTimeout}).Handler()
	lambda.Start(lambdaadapter.NewStreaming(h))
}
