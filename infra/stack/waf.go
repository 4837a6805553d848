package stack

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsapigateway"
	"github.com/aws/aws-cdk-go/awscdk/v2/awswafv2"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"

	"aiwork/shared/httpx"
)

// The API's per-client rate limit (AWS WAF rate-based rule): requests one
// client address may send in any WAFWindowSeconds before it is blocked
// (429) until its rate falls under the limit again.
const (
	DefaultWAFRateLimit = 1000
	// WAFWindowSeconds is the rule's look-back window (WAF allows 60,
	// 120, 300 and 600; it re-evaluates about every 10 s).
	WAFWindowSeconds = 300
	// MinWAFRateLimit and MaxWAFRateLimit bound wafRateLimit.
	MinWAFRateLimit = 100
	MaxWAFRateLimit = 2_000_000_000
)

// WAFBlockedDetail is the detail of the 429 a rate-limited client gets.
const WAFBlockedDetail = "Too many requests from your address. Please wait a few minutes and try again."

// newAPIFirewall is a REGIONAL web ACL on the API's stage with one
// rate-based rule per client address, in addition to the stage's overall
// throttle (ThrottleRate), so that one client cannot take the whole stage.
//
// Why the stage and not the distribution: a web ACL for CloudFront (scope
// CLOUDFRONT) must be created in us-east-1, and this stack deploys to the
// operator's region; that would take a second stack in us-east-1 and a
// cross-region reference. A REGIONAL web ACL lives with the API. It sees
// CloudFront's edge as the peer, so it counts the viewer's address from
// X-Viewer-Address, which the distribution's CloudFront Function writes on
// every /api/* request (replacing anything a browser sent). X-Forwarded-For
// would not do: WAF reads its first address, which the client chooses. The
// static app (S3, cached by CloudFront) is not behind this rule, nor is
// Stripe's webhook.
func newAPIFirewall(scope constructs.Construct, api awsapigateway.RestApi, limit int) awswafv2.CfnWebACL {
	if limit == 0 {
		limit = DefaultWAFRateLimit
	}
	name := *awscdk.Stack_Of(scope).StackName()
	visibility := func(metric string) *awswafv2.CfnWebACL_VisibilityConfigProperty {
		return &awswafv2.CfnWebACL_VisibilityConfigProperty{
			CloudWatchMetricsEnabled: jsii.Bool(true),
			MetricName:               jsii.String(metric),
			SampledRequestsEnabled:   jsii.Bool(true),
		}
	}
	acl := awswafv2.NewCfnWebACL(scope, jsii.String("ApiFirewall"), &awswafv2.CfnWebACLProps{
		Name:             jsii.String(name + "-api"),
		Description:      jsii.String("Per-client rate limit of the API, see docs/deploy.md"),
		Scope:            jsii.String("REGIONAL"),
		DefaultAction:    &awswafv2.CfnWebACL_DefaultActionProperty{Allow: &awswafv2.CfnWebACL_AllowActionProperty{}},
		VisibilityConfig: visibility(name + "-api"),
		CustomResponseBodies: &map[string]*awswafv2.CfnWebACL_CustomResponseBodyProperty{
			"rate-limited": {
				ContentType: jsii.String("APPLICATION_JSON"),
				Content:     jsii.String(`{"detail":"` + WAFBlockedDetail + `","code":"rate_limited"}`),
			},
		},
		Rules: &[]*awswafv2.CfnWebACL_RuleProperty{{
			Name:     jsii.String("per-client-rate"),
			Priority: jsii.Number(0),
			Statement: &awswafv2.CfnWebACL_StatementProperty{
				RateBasedStatement: &awswafv2.CfnWebACL_RateBasedStatementProperty{
					Limit:               jsii.Number(limit),
					EvaluationWindowSec: jsii.Number(WAFWindowSeconds),
					AggregateKeyType:    jsii.String("FORWARDED_IP"),
					ForwardedIpConfig: &awswafv2.CfnWebACL_ForwardedIPConfigurationProperty{
						HeaderName: jsii.String(httpx.ViewerAddressHeader),
						// Not an address: not CloudFront's header, count it
						// as over the limit.
						FallbackBehavior: jsii.String("MATCH"),
					},
					// Stripe sends every event from a few addresses; its
					// webhook is signed and has its own reservation.
					ScopeDownStatement: &awswafv2.CfnWebACL_StatementProperty{
						NotStatement: &awswafv2.CfnWebACL_NotStatementProperty{
							Statement: &awswafv2.CfnWebACL_StatementProperty{
								ByteMatchStatement: &awswafv2.CfnWebACL_ByteMatchStatementProperty{
									FieldToMatch:         &awswafv2.CfnWebACL_FieldToMatchProperty{UriPath: map[string]any{}},
									PositionalConstraint: jsii.String("ENDS_WITH"), // after the stage
									SearchString:         jsii.String(WebhookPath),
									TextTransformations: &[]*awswafv2.CfnWebACL_TextTransformationProperty{
										{Priority: jsii.Number(0), Type: jsii.String("NONE")},
									},
								},
							},
						},
					},
				},
			},
			Action: &awswafv2.CfnWebACL_RuleActionProperty{
				Block: &awswafv2.CfnWebACL_BlockActionProperty{
					CustomResponse: &awswafv2.CfnWebACL_CustomResponseProperty{
						ResponseCode:          jsii.Number(429),
						CustomResponseBodyKey: jsii.String("rate-limited"),
						ResponseHeaders: &[]*awswafv2.CfnWebACL_CustomHTTPHeaderProperty{
							{Name: jsii.String("Retry-After"), Value: jsii.String("60")},
						},
					},
				},
			},
			VisibilityConfig: visibility(name + "-per-client-rate"),
		}},
	})
	assoc := awswafv2.NewCfnWebACLAssociation(scope, jsii.String("ApiFirewallAssociation"), &awswafv2.CfnWebACLAssociationProps{
		ResourceArn: api.DeploymentStage().StageArn(),
		WebAclArn:   acl.AttrArn(),
	})
	assoc.Node().AddDependency(api.DeploymentStage())
	return acl
}
