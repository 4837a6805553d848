// Package lambdaadapter runs a route group's http.Handler behind API Gateway
// REST proxy events, the same handler the devserver mounts.
package lambdaadapter

import (
	"context"
	"net/http"

	"github.com/aws/aws-lambda-go/events"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"aiwork/shared/config"
	"aiwork/shared/httpx"
)

// Proxy answers REST API (v1) proxy events with h.
type Proxy func(ctx context.Context, ev events.APIGatewayProxyRequest) (events.APIGatewayProxyResponse, error)

// NewProxy adapts h to API Gateway REST proxy events. Only requests
// carrying originSecret in X-Origin-Secret reach h (httpx.RequireOrigin):
// the product's CloudFront adds it, a call straight to the execute-api
// address gets a JSON 403. Every API function passes OriginSecret here.
func NewProxy(h http.Handler, originSecret string) Proxy {
	return httpadapter.New(httpx.RequireOrigin(originSecret, h)).ProxyWithContext
}

// OriginSecret reads the origin secret (ORIGIN_SECRET_ARN) at start; a
// function that cannot read it does not start.
func OriginSecret(ctx context.Context, sm config.SecretFetcher) string {
	s, err := config.LoadOriginSecret(ctx, sm)
	if err != nil {
		Fatal("origin secret", err)
	}
	return s
}
