package stack

import (
	"fmt"
	"strings"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsapigateway"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambda"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslogs"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"

	"aiwork/shared/routes"
)

// StageName is the API's one stage; CloudFront's origin path.
const StageName = "prod"

// Stage throttling: steady requests per second and burst for the whole API.
const (
	ThrottleRate  = 100
	ThrottleBurst = 200
)

// ExactPathMethods is the HTTP method of each exact-path route; other exact
// paths get ANY. One table with the local gateway (shared/local/lambdalocal).
var ExactPathMethods = routes.ExactPathMethods

// newAPI builds the REST API from the route table: for a subtree prefix
// ("/x/") the resource /x with ANY plus /x/{proxy+} with ANY; for an exact
// path the resource with its method. Resources are shared between groups
// (/api/v1/payments and /api/v1/payments/webhook). The streaming group's
// integration uses response streaming.
func newAPI(scope constructs.Construct, fns map[string]awslambda.Function, setAccountRole bool) (awsapigateway.RestApi, error) {
	accessLogs := awslogs.NewLogGroup(scope, jsii.String("ApiAccessLogs"), &awslogs.LogGroupProps{
		Retention:     awslogs.RetentionDays_ONE_MONTH,
		RemovalPolicy: awscdk.RemovalPolicy_DESTROY,
	})
	api := awsapigateway.NewRestApi(scope, jsii.String("Api"), &awsapigateway.RestApiProps{
		RestApiName: jsii.String(*awscdk.Stack_Of(scope).StackName() + "-api"),
		Description: jsii.String("Route groups of aiwork/shared/routes; reached through CloudFront /api/*"),
		EndpointConfiguration: &awsapigateway.EndpointConfiguration{
			// Regional: CloudFront is in front already, and streams on a
			// regional endpoint may idle up to 5 minutes (30 s edge-optimised).
			Types: &[]awsapigateway.EndpointType{awsapigateway.EndpointType_REGIONAL},
		},
		CloudWatchRole: jsii.Bool(false), // set below without a managed policy
		DeployOptions: &awsapigateway.StageOptions{
			StageName:            jsii.String(StageName),
			ThrottlingRateLimit:  jsii.Number(ThrottleRate),
			ThrottlingBurstLimit: jsii.Number(ThrottleBurst),
			AccessLogDestination: awsapigateway.NewLogGroupLogDestination(accessLogs),
			AccessLogFormat: awsapigateway.AccessLogFormat_JsonWithStandardFields(&awsapigateway.JsonWithStandardFieldProps{
				Caller: jsii.Bool(false), HttpMethod: jsii.Bool(true), Ip: jsii.Bool(true), Protocol: jsii.Bool(true),
				RequestTime: jsii.Bool(true), ResourcePath: jsii.Bool(true), ResponseLength: jsii.Bool(true),
				Status: jsii.Bool(true), User: jsii.Bool(false),
			}),
			MetricsEnabled: jsii.Bool(true),
			// Execution logs of failures only (integration errors, throttles,
			// a function's malformed answer), never request or response
			// bodies: those carry passwords, tokens and prompts.
			LoggingLevel:     awsapigateway.MethodLoggingLevel_ERROR,
			DataTraceEnabled: jsii.Bool(false),
		},
	})
	// API Gateway writes execution logs to a group of this fixed name and
	// creates it, without retention, if missing: made here first, kept a
	// month like the others.
	executionLogs := awslogs.NewLogGroup(scope, jsii.String("ApiExecutionLogs"), &awslogs.LogGroupProps{
		LogGroupName:  awscdk.Fn_Join(jsii.String(""), &[]*string{jsii.String("API-Gateway-Execution-Logs_"), api.RestApiId(), jsii.String("/" + StageName)}),
		Retention:     awslogs.RetentionDays_ONE_MONTH,
		RemovalPolicy: awscdk.RemovalPolicy_DESTROY,
	})
	api.DeploymentStage().Node().AddDependency(executionLogs)
	gatewayErrors(api)
	if setAccountRole {
		account := apiGatewayAccount(scope, accessLogs, executionLogs)
		api.DeploymentStage().Node().AddDependency(account)
	}

	integrations := map[string]awsapigateway.LambdaIntegration{}
	integration := func(g routes.Group) awsapigateway.LambdaIntegration {
		if in, ok := integrations[g.Function]; ok {
			return in
		}
		opts := &awsapigateway.LambdaIntegrationOptions{Proxy: jsii.Bool(true), AllowTestInvoke: jsii.Bool(false)}
		if g.Streaming {
			// Streaming integrations may run up to 15 minutes without a
			// quota increase (buffered ones stop at 29 s).
			opts.ResponseTransferMode = awsapigateway.ResponseTransferMode_STREAM
			opts.Timeout = awscdk.Duration_Seconds(jsii.Number(ChatTimeoutSeconds))
		}
		in := awsapigateway.NewLambdaIntegration(fns[g.Function], opts)
		integrations[g.Function] = in
		return in
	}

	methods := map[string]string{} // "METHOD path" → function, to refuse a clash
	addMethod := func(res awsapigateway.IResource, method string, g routes.Group) error {
		key := method + " " + *res.Path()
		if prev, ok := methods[key]; ok {
			return fmt.Errorf("route %s claimed by %s and %s", key, prev, g.Function)
		}
		methods[key] = g.Function
		res.AddMethod(jsii.String(method), integration(g), nil)
		return nil
	}
	for _, g := range routes.Groups {
		if _, ok := fns[g.Function]; !ok {
			return nil, fmt.Errorf("route group %s has no function", g.Function)
		}
		for _, prefix := range g.Prefixes {
			if strings.HasSuffix(prefix, "/") {
				res := resourceAt(api.Root(), strings.TrimSuffix(prefix, "/"))
				if err := addMethod(res, "ANY", g); err != nil {
					return nil, err
				}
				if err := addMethod(resourceAt(res, "{proxy+}"), "ANY", g); err != nil {
					return nil, err
				}
				continue
			}
			method, ok := ExactPathMethods[prefix]
			if !ok {
				method = "ANY"
			}
			if err := addMethod(resourceAt(api.Root(), prefix), method, g); err != nil {
				return nil, err
			}
		}
	}
	return api, nil
}

// BusyDetail is the answer when a function is at its concurrency limit:
// chat at its reserved concurrency (every execution holding a streamed
// reply), or the account's pool exhausted.
const BusyDetail = "Too many conversations are in progress right now. Please try again in a minute."

// GatewayErrors are the answers API Gateway gives itself, in the API's
// error shape ({"detail", "code"}, as httpx writes them) instead of
// {"message": …}: a path outside the route table is a JSON 404 as on the
// devserver (not API Gateway's 403 "Missing Authentication Token").
//
// INTEGRATION_FAILURE: when Lambda refuses to run a function (throttled:
// TooManyRequestsException, at its reserved concurrency or the account's
// limit) a REST API's Lambda proxy integration answers 500 "Internal server
// error" through this response type. It becomes a 429 with a clear detail
// and Retry-After, which the web app shows as it shows the chat limits.
// (A function's own error, or a malformed answer, is a 502 of DEFAULT_5XX;
// the Go functions answer every error themselves.)
var GatewayErrors = []struct {
	Type, Status, Body string
	RetryAfter         string // Retry-After seconds; empty: none
}{
	{"MISSING_AUTHENTICATION_TOKEN", "404", `{"detail":"Not found.","code":"not_found"}`, ""},
	{"THROTTLED", "429", `{"detail":"Too many requests. Try again in a moment.","code":"rate_limited"}`, "5"},
	{"INTEGRATION_FAILURE", "429", `{"detail":"` + BusyDetail + `","code":"rate_limited"}`, "30"},
	{"DEFAULT_4XX", "", `{"detail":$context.error.messageString,"code":"invalid"}`, ""},
	{"DEFAULT_5XX", "", `{"detail":"The service is unavailable. Try again in a moment.","code":"upstream"}`, ""},
}

func gatewayErrors(api awsapigateway.RestApi) {
	types := map[string]awsapigateway.ResponseType{
		"MISSING_AUTHENTICATION_TOKEN": awsapigateway.ResponseType_MISSING_AUTHENTICATION_TOKEN(),
		"THROTTLED":                    awsapigateway.ResponseType_THROTTLED(),
		"INTEGRATION_FAILURE":          awsapigateway.ResponseType_INTEGRATION_FAILURE(),
		"DEFAULT_4XX":                  awsapigateway.ResponseType_DEFAULT_4XX(),
		"DEFAULT_5XX":                  awsapigateway.ResponseType_DEFAULT_5XX(),
	}
	for _, e := range GatewayErrors {
		opts := &awsapigateway.GatewayResponseOptions{
			Type:      types[e.Type],
			Templates: &map[string]*string{"application/json": jsii.String(e.Body)},
		}
		if e.Status != "" {
			opts.StatusCode = jsii.String(e.Status)
		}
		if e.RetryAfter != "" {
			opts.ResponseHeaders = &map[string]*string{"Retry-After": jsii.String("'" + e.RetryAfter + "'")}
		}
		api.AddGatewayResponse(jsii.String("Gateway"+constructID(strings.ToLower(e.Type))), opts)
	}
}

// resourceAt returns the resource at path below parent, creating only the
// segments that do not exist yet.
func resourceAt(parent awsapigateway.IResource, path string) awsapigateway.IResource {
	res := parent
	for _, seg := range strings.Split(strings.Trim(path, "/"), "/") {
		if seg == "" {
			continue
		}
		if child := res.GetResource(jsii.String(seg)); child != nil {
			res = child
			continue
		}
		res = res.AddResource(jsii.String(seg), nil)
	}
	return res
}

// apiGatewayAccount sets API Gateway's account-level CloudWatch role (one
// per account and region, needed for access and execution logging) to a
// role that may write this API's two log groups only; no managed policy.
func apiGatewayAccount(scope constructs.Construct, accessLogs, executionLogs awslogs.LogGroup) awsapigateway.CfnAccount {
	role := awsiam.NewRole(scope, jsii.String("ApiGatewayCloudWatchRole"), &awsiam.RoleProps{
		AssumedBy:   awsiam.NewServicePrincipal(jsii.String("apigateway.amazonaws.com"), nil),
		Description: jsii.String("API Gateway writes the API's access logs"),
	})
	role.AddToPolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Actions:   jsii.Strings("logs:CreateLogStream", "logs:PutLogEvents", "logs:DescribeLogStreams"),
		Resources: &[]*string{accessLogs.LogGroupArn(), executionLogs.LogGroupArn()},
	}))
	// The group exists (newAPI); API Gateway may still ask to create it.
	role.AddToPolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Actions:   jsii.Strings("logs:CreateLogGroup"),
		Resources: &[]*string{executionLogs.LogGroupArn()},
	}))
	// Listing has no narrower resource (nag.go says why it is accepted).
	role.AddToPolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Actions:   jsii.Strings("logs:DescribeLogGroups"),
		Resources: &[]*string{awscdk.Fn_Sub(jsii.String("arn:${AWS::Partition}:logs:${AWS::Region}:${AWS::AccountId}:log-group:*"), nil)},
	}))
	account := awsapigateway.NewCfnAccount(scope, jsii.String("ApiGatewayAccount"), &awsapigateway.CfnAccountProps{
		CloudWatchRoleArn: role.RoleArn(),
	})
	// Kept when the stack goes, like CDK's own cloudWatchRole: other APIs
	// of the account may log through it by then.
	role.ApplyRemovalPolicy(awscdk.RemovalPolicy_RETAIN)
	account.ApplyRemovalPolicy(awscdk.RemovalPolicy_RETAIN, nil)
	account.Node().AddDependency(role)
	return account
}
