package lambdaadapter

import (
	"context"
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/lambdacontext"
	"github.com/aws/aws-sdk-go-v2/aws"

	"aiwork/shared/config"
	"aiwork/shared/gcpace"
)

// Logging makes slog write JSON with the Lambda request id on every line.
func Logging() {
	slog.SetDefault(slog.New(requestIDHandler{slog.NewJSONHandler(os.Stdout, nil)}))
}

// Fatal logs a start-up failure and exits; Lambda reports the init error.
func Fatal(what string, err error) {
	slog.Error(what, "err", err)
	os.Exit(1)
}

type requestIDHandler struct{ slog.Handler }

func (h requestIDHandler) Handle(ctx context.Context, r slog.Record) error {
	if lc, ok := lambdacontext.FromContext(ctx); ok {
		r.AddAttrs(slog.String("request_id", lc.AwsRequestID))
	}
	return h.Handler.Handle(ctx, r)
}

func (h requestIDHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return requestIDHandler{h.Handler.WithAttrs(as)}
}

func (h requestIDHandler) WithGroup(name string) slog.Handler {
	return requestIDHandler{h.Handler.WithGroup(name)}
}

// Boot prepares a Lambda's process: the collector's pace (gcpace), JSON
// logging, the AWS configuration
// for its region, and the Secrets Manager reader (nil when no secret is
// read by ARN). A failure ends the process, which Lambda reports.
func Boot() (context.Context, aws.Config, config.SecretFetcher) {
	gcpace.Apply()
	Logging()
	awsCfg := config.AWS(config.LoadStore().Region)
	return context.Background(), awsCfg, config.SecretsClient(awsCfg)
}
