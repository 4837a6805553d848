// Package lambdaadapter runs a route group's http.Handler behind API Gateway
// REST proxy events, the same handler the devserver mounts.
package lambdaadapter

import (
	"context"

	"github.com/aws/aws-lambda-go/events"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"
	"net/http"
)

// Proxy answers REST API (v1) proxy events with h.
type Proxy func(ctx context.Context, ev events.APIGatewayProxyRequest) (events.APIGatewayProxyResponse, error)

// NewProxy adapts h to API Gateway REST proxy events.
func NewProxy(h http.Handler) Proxy {
	return httpadapter.New(h).ProxyWithContext
}
