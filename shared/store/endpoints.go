package store

import (
	"context"
	"strconv"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	smithyendpoints "github.com/aws/smithy-go/endpoints"
)

// cachedEndpoints is the SDK's own endpoint resolver, remembered per set of
// parameters. The SDK evaluates its endpoint rules on every call, which was
// about half the client-side CPU of a store call (a chat message makes
// seven); the parameters of one process's calls hardly ever vary, and the
// rules map equal parameters to equal endpoints.
type cachedEndpoints struct {
	next  dynamodb.EndpointResolverV2
	mu    sync.RWMutex
	known map[string]smithyendpoints.Endpoint
}

// maxCachedEndpoints bounds the map (per-call parameters such as a table
// ARN could otherwise grow it); past it, endpoints are resolved each time.
const maxCachedEndpoints = 64

func newCachedEndpoints() *cachedEndpoints {
	return &cachedEndpoints{next: dynamodb.NewDefaultEndpointResolverV2(), known: map[string]smithyendpoints.Endpoint{}}
}

func (c *cachedEndpoints) ResolveEndpoint(ctx context.Context, p dynamodb.EndpointParameters) (smithyendpoints.Endpoint, error) {
	k := endpointKey(p)
	c.mu.RLock()
	e, ok := c.known[k]
	c.mu.RUnlock()
	if ok {
		return withOwnHeaders(e), nil
	}
	e, err := c.next.ResolveEndpoint(ctx, p)
	if err != nil {
		return e, err
	}
	c.mu.Lock()
	if len(c.known) < maxCachedEndpoints {
		c.known[k] = e
	}
	c.mu.Unlock()
	return withOwnHeaders(e), nil
}

// withOwnHeaders copies the headers, the one map a caller might change.
func withOwnHeaders(e smithyendpoints.Endpoint) smithyendpoints.Endpoint {
	e.Headers = e.Headers.Clone()
	return e
}

// endpointKey writes every parameter, nil and empty apart.
func endpointKey(p dynamodb.EndpointParameters) string {
	var b strings.Builder
	str := func(s *string) {
		if s == nil {
			b.WriteString("\x00-")
		} else {
			b.WriteString("\x00+" + *s)
		}
	}
	boolean := func(v *bool) {
		if v == nil {
			b.WriteString("\x00-")
		} else {
			b.WriteString("\x00" + strconv.FormatBool(*v))
		}
	}
	str(p.Region)
	boolean(p.UseDualStack)
	boolean(p.UseFIPS)
	str(p.Endpoint)
	str(p.AccountId)
	str(p.AccountIdEndpointMode)
	str(p.ResourceArn)
	b.WriteString("\x00" + strconv.Itoa(len(p.ResourceArnList)))
	for _, arn := range p.ResourceArnList {
		b.WriteString("\x00" + arn)
	}
	return b.String()
}
