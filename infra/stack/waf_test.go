package stack_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2"

	"aiwork/infra/stack"
)

// The API stage has a REGIONAL web ACL whose one rule rate-limits each
// client address (the viewer's, from CloudFront's X-Viewer-Address; never
// X-Forwarded-For) to the configured requests per 5 minutes, answering a
// JSON 429 with Retry-After; Stripe's webhook is left out.
func TestAPIFirewallRateLimitsEachClient(t *testing.T) {
	for name, limit := range map[string]int{mainStack: testWAFRateLimit, plainStack: stack.DefaultWAFRateLimit} {
		tp := synth(t, name)
		acls := tp.ofType("AWS::WAFv2::WebACL")
		if len(acls) != 1 {
			t.Fatalf("%s: web ACLs = %v, want one", name, acls)
		}
		acl := tp.Resources[acls[0]]
		if props(acl, "Scope") != "REGIONAL" || flat(props(acl, "DefaultAction")) != `{"Allow":{}}` {
			t.Errorf("%s: scope %v, default %s; want REGIONAL, allow", name, props(acl, "Scope"), flat(props(acl, "DefaultAction")))
		}
		rules := asList(props(acl, "Rules"))
		if len(rules) != 1 {
			t.Fatalf("%s: rules = %s, want the rate rule", name, flat(rules))
		}
		rule := rules[0].(map[string]any)
		rate, _ := rule["Statement"].(map[string]any)["RateBasedStatement"].(map[string]any)
		if rate == nil || rate["Limit"] != float64(limit) || rate["EvaluationWindowSec"] != float64(stack.WAFWindowSeconds) || rate["AggregateKeyType"] != "FORWARDED_IP" {
			t.Errorf("%s: rate statement = %s, want %d per %d s per forwarded address", name, flat(rate), limit, stack.WAFWindowSeconds)
		}
		if got := flat(rate["ForwardedIPConfig"]); got != `{"FallbackBehavior":"MATCH","HeaderName":"X-Viewer-Address"}` {
			t.Errorf("%s: forwarded address = %s, want CloudFront's X-Viewer-Address", name, got)
		}
		if scope := flat(rate["ScopeDownStatement"]); !strings.Contains(scope, `"NotStatement"`) || !strings.Contains(scope, stack.WebhookPath) {
			t.Errorf("%s: scope-down = %s, want everything but Stripe's webhook", name, scope)
		}
		block, _ := rule["Action"].(map[string]any)["Block"].(map[string]any)
		resp, _ := block["CustomResponse"].(map[string]any)
		if resp["ResponseCode"] != float64(429) || !strings.Contains(flat(resp["ResponseHeaders"]), `"Retry-After"`) {
			t.Errorf("%s: block response = %s, want 429 with Retry-After", name, flat(block))
		}
		body := props(acl, "CustomResponseBodies", resp["CustomResponseBodyKey"].(string))
		if b := flat(body); !strings.Contains(b, "APPLICATION_JSON") || !strings.Contains(b, stack.WAFBlockedDetail) || !strings.Contains(b, `rate_limited`) {
			t.Errorf("%s: block body = %s, want the API's JSON error", name, b)
		}

		assocs := tp.ofType("AWS::WAFv2::WebACLAssociation")
		if len(assocs) != 1 {
			t.Fatalf("%s: associations = %v, want one", name, assocs)
		}
		a := tp.Resources[assocs[0]]
		stage := tp.ofType("AWS::ApiGateway::Stage")[0]
		api := tp.ofType("AWS::ApiGateway::RestApi")[0]
		if ref(props(a, "WebACLArn")) != acls[0] {
			t.Errorf("%s: association ACL = %s", name, flat(props(a, "WebACLArn")))
		}
		if arn := flat(props(a, "ResourceArn")); !strings.Contains(arn, `"Ref":"`+api+`"`) || !strings.Contains(arn, "/stages/") || !strings.Contains(arn, `"Ref":"`+stage+`"`) {
			t.Errorf("%s: association resource = %s, want the API's stage", name, arn)
		}
	}
}

func TestAPIFirewallRefusesAnUnusableLimit(t *testing.T) {
	lambdaDir, webappDir, err := dummyAssets(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int{-1, stack.MinWAFRateLimit - 1, stack.MaxWAFRateLimit + 1} {
		_, err := stack.NewAIWorkStack(awscdk.NewApp(nil), "BadWAF", &stack.Props{LambdaDir: lambdaDir, WebappDir: webappDir, WAFRateLimit: limit})
		if err == nil || !strings.Contains(err.Error(), "WAFRateLimit") {
			t.Errorf("WAFRateLimit %d: err = %v, want it refused", limit, err)
		}
	}
}
