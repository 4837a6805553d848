package store

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	smithyendpoints "github.com/aws/smithy-go/endpoints"
)

type countingResolver struct {
	next  dynamodb.EndpointResolverV2
	calls int
}

func (c *countingResolver) ResolveEndpoint(ctx context.Context, p dynamodb.EndpointParameters) (smithyendpoints.Endpoint, error) {
	c.calls++
	return c.next.ResolveEndpoint(ctx, p)
}

// The cache answers what the SDK's resolver answers, resolving each set of
// parameters once; parameters that differ in any field are resolved apart.
func TestCachedEndpointsMatchTheSDK(t *testing.T) {
	sdk := dynamodb.NewDefaultEndpointResolverV2()
	counting := &countingResolver{next: sdk}
	c := newCachedEndpoints()
	c.next = counting
	params := []dynamodb.EndpointParameters{
		{Region: aws.String("us-east-1")},
		{Region: aws.String("eu-west-1")},
		{Region: aws.String("us-east-1"), UseFIPS: aws.Bool(true)},
		{Region: aws.String("us-east-1"), UseDualStack: aws.Bool(true)},
		{Region: aws.String("us-east-1"), Endpoint: aws.String("http://127.0.0.1:4567")},
		{Region: aws.String("us-east-1"), AccountId: aws.String("123456789012"), AccountIdEndpointMode: aws.String("preferred")},
	}
	for round := range 3 {
		for i, p := range params {
			got, err := c.ResolveEndpoint(t.Context(), p)
			if err != nil {
				t.Fatalf("params %d: %v", i, err)
			}
			want, err := sdk.ResolveEndpoint(t.Context(), p)
			if err != nil {
				t.Fatal(err)
			}
			if got.URI.String() != want.URI.String() {
				t.Errorf("round %d params %d: %s, the SDK says %s", round, i, got.URI.String(), want.URI.String())
			}
		}
	}
	if counting.calls != len(params) {
		t.Errorf("the SDK resolved %d times, want once per parameter set (%d)", counting.calls, len(params))
	}
	// A caller changing the headers it got changes nothing cached.
	e, _ := c.ResolveEndpoint(t.Context(), params[0])
	e.Headers.Set("X-Mine", "1")
	if again, _ := c.ResolveEndpoint(t.Context(), params[0]); again.Headers.Get("X-Mine") != "" {
		t.Error("a caller's header change reached the cache")
	}
}
