// Command auth is the auth route group's Lambda: configuration, clients,
// handler, start. Everything else lives in shared/.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"aiwork/shared/api/authapi"
	"aiwork/shared/config"
	"aiwork/shared/lambdaadapter"
	"aiwork/shared/mail/sesmail"
	"aiwork/shared/store"
)

func main() {
	ctx, awsCfg, secrets := lambdaadapter.Boot()
	cfg, err := config.LoadAuth(ctx, secrets)
	if err != nil {
		lambdaadapter.Fatal("config", err)
	}
	st := store.NewFromAWS(awsCfg, cfg.Store)
	mailer, err := sesmail.Mailer(awsCfg, cfg.MailFrom)
	if err != nil {
		lambdaadapter.Fatal("mail", err)
	}
	lambda.Start(lambdaadapter.NewProxy(authapi.FromConfig(st, cfg, mailer).Handler(), lambdaadapter.OriginSecret(ctx, secrets)))

}
