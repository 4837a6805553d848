// Command chat streams chat replies and serves the conversations kept with
// the account, through Lambda response streaming.
package main

import (
	"net/http"

	"github.com/aws/aws-lambda-go/lambda"

	"aiwork/shared/api/chatapi"
	"aiwork/shared/api/conversationsapi"
	"aiwork/shared/config"
	"aiwork/shared/lambdaadapter"
	"aiwork/shared/llm/providers"
	"aiwork/shared/routes"
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
	h, err := routes.Function("chat", map[string]http.Handler{
		"chat": chat.Handler(), "conversations": conversationsapi.FromConfig(st, cfg).Handler()})
	if err != nil {
		lambdaadapter.Fatal("chat", err)
	}
	lambda.Start(lambdaadapter.NewStreaming(h, lambdaadapter.OriginSecret(ctx, secrets)))
}
