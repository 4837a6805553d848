// Command chat streams chat replies through Lambda response streaming.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"aiwork/shared/api/chatapi"
	"aiwork/shared/config"
	"aiwork/shared/lambdaadapter"
	"aiwork/shared/llm/providers"
	"aiwork/shared/store"
)

func main() {
	ctx, awsCfg, secrets := lambdaadapter.Boot()
	cfg, err := config.LoadChat(ctx, secrets)
	if err != nil {
		lambdaadapter.Fatal("config", err)
	}
	registry, err := providers.RegistryFromConfig(ctx, cfg)
	if err != nil {
		lambdaadapter.Fatal("llm", err)
	}
	st := store.NewFromAWS(awsCfg, cfg.Store)
	chat, err := chatapi.FromConfig(st, registry, cfg)
	if err != nil {
		lambdaadapter.Fatal("chat", err)
	}
	lambda.Start(lambdaadapter.NewStreaming(chat.Handler(), lambdaadapter.OriginSecret(ctx, secrets)))
}
