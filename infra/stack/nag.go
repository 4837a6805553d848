package stack

import (
	"strings"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsapigateway"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscloudfront"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambda"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssecretsmanager"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
	"github.com/cdklabs/cdk-nag-go/cdknag/v2"
)

// AddNagChecks applies cdk-nag's AWS Solutions rule pack to scope (the
// app). Each finding becomes an annotation; with the context flag
// @aws-cdk/core:annotationsInValidationReport an error fails the synth, so
// `make synth` and `make deploy` stop on any finding not suppressed below.
func AddNagChecks(scope constructs.IConstruct) {
	awscdk.Aspects_Of(scope).Add(cdknag.NewAwsSolutionsChecks(&cdknag.NagPackProps{Verbose: jsii.Bool(true)}), nil)
}

// Why each finding that stays is accepted. docs/deploy.md ("cdk-nag: what is
// suppressed and why") lists the same.
const (
	ReasonAuthInFunction = "Authorization is done in the function with the product's JWT (see shared/auth): it checks the token's signature, expiry and server-side session on every signed-in route; sign-in, register, the catalogue and health are public by design."
	ReasonNoCognito      = "The product's accounts are its own (users in DynamoDB, HS256 JWTs from shared/auth, Google through OAuth), not an Amazon Cognito user pool."
	ReasonWebhookAuth    = "Stripe's webhook is public by design (Stripe cannot send our JWT); every event is verified by its Stripe-Signature header (webhook.ConstructEvent with STRIPE_WEBHOOK_SECRET) before anything is read."
	ReasonValidation     = "Every route is a Lambda proxy integration whose function validates bodies and parameters itself and answers in the API's {detail, code} shape; a gateway model would duplicate that with different messages."
	ReasonListLogGroups  = "logs:DescribeLogGroups lists log groups and has no narrower resource than the account's log groups; it reveals names only. Writing is limited to this API's two log groups."
	ReasonRandomPassword = "secretsmanager:GetRandomPassword, which the CDK's rotation schedule always grants (jwt-rotation makes its keys itself), acts on no resource, so its resource can only be *. The function's secret actions are on the JWT secret alone."
	ReasonMetaLlama      = "Meta Llama models only: the model ids are configuration (remapped without a release), and a cross-region inference profile runs the same model in several regions, hence the model-family and region wildcards (see grantMetaLlama)."
	ReasonGeo            = "A worldwide product: no country is refused. Abuse is limited per client by the API's web ACL and throttles instead."
	ReasonEdgeWAF        = "A web ACL for CloudFront must live in us-east-1 (a second stack); the API, the only dynamic origin, has a REGIONAL web ACL with a per-client rate limit (waf.go). The static app is cached files."
	ReasonDefaultCert    = "No SITE_DOMAIN/CERTIFICATE_ARN given: the distribution uses its *.cloudfront.net name, whose default certificate CloudFront serves with TLSv1 as minimum and no setting can raise. Deploy with a domain and an ACM certificate to get TLSv1.2_2021 (docs/deploy.md)."
	ReasonHelperRole     = "Role of the CDK's BucketDeployment helper (Custom::CDKBucketDeployment), which copies the built web app into the site bucket and invalidates CloudFront during deploys only; its policy is the CDK's, scoped to the asset bucket, the site bucket and CloudFront invalidations (which take no narrower resource)."
	ReasonHelperRuntime  = "The CDK's BucketDeployment helper pins its own Lambda runtime (updated with aws-cdk-lib); it runs only during deploys."
)

// secretRotationReasons say why a secret has no Secrets Manager rotation
// (SMG4); JWT_SECRET rotates (rotation.go).
var secretRotationReasons = map[string]string{
	SecretStripeKey:           "Issued by Stripe: only the Stripe Dashboard can roll it, so Secrets Manager cannot make a new one. Roll it there and put the new value (docs/deploy.md).",
	SecretStripeWebhookSecret: "Issued by Stripe for the webhook endpoint: only Stripe can roll it. Roll it in the Dashboard and put the new value (docs/deploy.md).",
	SecretGoogleClientID:      "Google OAuth client id, issued by Google Cloud Console; not a credential Secrets Manager can make.",
	SecretGoogleClientSecret:  "Issued by Google Cloud Console, which alone can add a new client secret; rotate it there and put the new value.",
	SecretOpenAIKey:           "Issued by OpenAI; Secrets Manager cannot create provider API keys. Rotate in the provider's console and put the new value.",
	SecretAnthropicKey:        "Issued by Anthropic; Secrets Manager cannot create provider API keys. Rotate in the provider's console and put the new value.",
	SecretGeminiKey:           "Issued by Google AI Studio; Secrets Manager cannot create provider API keys. Rotate in the provider's console and put the new value.",
	SecretMCPKeyEncryptionKey: "Seals users' stored MCP server API keys (AES-256-GCM); a new key would make every stored key unreadable, and there is no re-encryption step, so it must not change on a schedule.",
	SecretOrigin:              "CloudFront holds the value resolved at deploy (a dynamic reference, resolved again only when the distribution changes); an automatic rotation would make every API call 403 until the next deploy. Rotate it by hand with a redeploy (docs/deploy.md).",
}

// nagTargets are the constructs whose findings are suppressed.
type nagTargets struct {
	Stack        awscdk.Stack
	API          awsapigateway.RestApi
	Site         awscloudfront.Distribution
	Secrets      map[string]awssecretsmanager.Secret
	Functions    map[string]awslambda.Function
	Rotation     awslambda.Function
	CustomDomain bool
	MetaBedrock  bool
	// AccountRole: the stack sets API Gateway's CloudWatch role.
	AccountRole bool
}

// suppressNagFindings records, on each resource, the findings that stay
// and why. Nothing is suppressed stack-wide. (The log bucket needs no S1
// suppression: cdk-nag counts a bucket that receives another bucket's
// access logs as compliant, and logging it into itself would be pointless.)
func suppressNagFindings(t nagTargets) {
	for _, m := range *t.API.Methods() {
		if *m.Resource().Path() == WebhookPath {
			suppress(m, false, "APIG4", ReasonWebhookAuth)
			suppress(m, false, "COG4", ReasonWebhookAuth)
			continue
		}
		suppress(m, false, "APIG4", ReasonAuthInFunction)
		suppress(m, false, "COG4", ReasonNoCognito)
	}
	suppress(t.API, false, "APIG2", ReasonValidation)
	if t.AccountRole {
		role := t.Stack.Node().FindChild(jsii.String("ApiGatewayCloudWatchRole"))
		suppress(role, true, "IAM5", ReasonListLogGroups,
			"Resource::arn:<AWS::Partition>:logs:<AWS::Region>:<AWS::AccountId>:log-group:*")
	}
	if chat, ok := t.Functions["chat"]; ok && t.MetaBedrock {
		suppress(chat.Role(), true, "IAM5", ReasonMetaLlama,
			"Resource::arn:<AWS::Partition>:bedrock:*::foundation-model/meta.llama*",
			"Resource::arn:<AWS::Partition>:bedrock:<AWS::Region>:<AWS::AccountId>:inference-profile/*.meta.llama*")
	}
	suppress(t.Rotation.Role(), true, "IAM5", ReasonRandomPassword, "Resource::*")
	for name, reason := range secretRotationReasons {
		suppress(t.Secrets[name], false, "SMG4", reason)
	}
	suppress(t.Site, false, "CFR1", ReasonGeo)
	suppress(t.Site, false, "CFR2", ReasonEdgeWAF)
	if !t.CustomDomain {
		suppress(t.Site, false, "CFR4", ReasonDefaultCert)
	}
	suppressBucketDeploymentHelper(t.Stack)
}

// suppressBucketDeploymentHelper covers the CDK's BucketDeployment
// singleton (one per memory size, at the stack's top, its id starting
// Custom::CDKBucketDeployment): role, policy and function are the CDK's.
func suppressBucketDeploymentHelper(st awscdk.Stack) {
	for _, c := range *st.Node().Children() {
		if !strings.HasPrefix(*c.Node().Id(), "Custom::CDKBucketDeployment") {
			continue
		}
		suppress(c, true, "IAM4", ReasonHelperRole,
			"Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole")
		suppress(c, true, "IAM5", ReasonHelperRole,
			"Action::s3:GetObject*", "Action::s3:GetBucket*", "Action::s3:List*", "Action::s3:DeleteObject*", "Action::s3:Abort*",
			"Resource::*",
			// The site bucket's objects and the CDK asset bucket's (its
			// name holds the account and region, literal when the stack
			// has an environment).
			&cdknag.RegexAppliesTo{Regex: jsii.String(`/^Resource::<SiteBucket[0-9A-F]{8}\.Arn>\/\*$/`)},
			&cdknag.RegexAppliesTo{Regex: jsii.String(`/^Resource::arn:(<AWS::Partition>|aws[a-z-]*):s3:::cdk-[a-z0-9]+-assets-(<AWS::AccountId>|[0-9]{12})-(<AWS::Region>|[a-z0-9-]+)\/\*$/`)})
		suppress(c, true, "L1", ReasonHelperRuntime)
	}
}

// suppress adds one rule's suppression with its reason to c (its L1
// resource), and to every resource below it when children is set (a
// role's default policy). appliesTo, when given, limits it to those
// findings of a granular rule (IAM4, IAM5).
func suppress(c constructs.IConstruct, children bool, rule, reason string, appliesTo ...any) {
	s := &cdknag.NagPackSuppression{Id: jsii.String("AwsSolutions-" + rule), Reason: jsii.String(reason)}
	if len(appliesTo) > 0 {
		s.AppliesTo = &appliesTo
	}
	cdknag.NagSuppressions_AddResourceSuppressions(c, &[]*cdknag.NagPackSuppression{s}, jsii.Bool(children))
}
