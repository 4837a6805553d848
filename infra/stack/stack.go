// Package stack is the product's CDK stack: one DynamoDB table, the secrets
// (the JWT key rotating), one Lambda per route group and per job function of
// aiwork/shared/routes, a REST API and the jobs' EventBridge schedules built
// from the same route table, and the web app on S3 behind CloudFront (on its
// own domain when given, access logs to a log bucket). nag.go holds the
// cdk-nag checks and every finding accepted, with its reason.
package stack

import (
	"fmt"
	"strings"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"

	_ "aiwork/infra/internal/nodequiet" // before jsii starts Node
	"aiwork/shared/routes"
)

// Props configures the stack. The asset directories are props so that tests
// can point them at temporary directories holding dummy files.
type Props struct {
	awscdk.StackProps
	// LambdaDir holds one <function>.zip (a `bootstrap` binary) per route
	// group and job function, as `make build` writes them (dist/lambda).
	LambdaDir string
	// WebappDir is the built web app (webapp/dist) deployed to the bucket.
	WebappDir string
	// FreePromptsPerUser is FREE_PROMPTS_PER_USER (0: the functions' default).
	FreePromptsPerUser int
	// AdminEmails become admins when they register (ADMIN_EMAILS).
	AdminEmails []string
	// MetaBedrock serves Meta Llama through Amazon Bedrock (META_BEDROCK)
	// and grants the chat function Bedrock access to Meta Llama models.
	MetaBedrock bool
	// PublicURL, when set (a custom domain), is PUBLIC_URL of auth and
	// payments. Empty: the functions build public URLs from the
	// x-forwarded-host header that CloudFront's API behaviour sets, which
	// they believe only on requests carrying the origin secret. With
	// SiteDomain it is https://SiteDomain.
	PublicURL string
	// SiteDomain and CertificateARN (both or neither; SITE_DOMAIN and
	// CERTIFICATE_ARN): the distribution serves SiteDomain with that ACM
	// certificate (us-east-1) and TLSv1.2_2021 at least (domain.go).
	// Empty: the default *.cloudfront.net name and certificate.
	SiteDomain, CertificateARN string
	// JWTRotationDays is how often Secrets Manager rotates the JWT signing
	// key (rotation.go). 0: DefaultJWTRotationDays.
	JWTRotationDays int
	// Analytics widens the Content-Security-Policy for Google Analytics
	// (a web app built with VITE_ANALYTICS_ID).
	Analytics bool
	// MCPRegistryURL is MCP_REGISTRY_URL of the mcp-jobs function: the base
	// of a registry speaking the official MCP registry API, imported daily.
	// Empty: no import; the catalogue is the committed seed.
	MCPRegistryURL string
	// MailFrom is MAIL_FROM of the auth function: the sender of account mail
	// (email verification, password reset), "Name <address>" or an address,
	// an Amazon SES identity verified in the stack's region (the address or
	// its domain). The function may send as that identity only. Empty: no
	// mail goes out, so addresses cannot be confirmed nor passwords reset.
	MailFrom string
	// SkipEmailVerification lets accounts use free prompts before confirming
	// their email (REQUIRE_EMAIL_VERIFICATION=false of prompts).
	SkipEmailVerification bool
	// RegisterLimitPerIP is REGISTER_LIMIT_PER_IP of auth: registrations per
	// client address per hour (0: the function's default, 10).
	RegisterLimitPerIP int
	// ChatLimits sets CHAT_MAX_CONCURRENT_STREAMS, CHAT_REQUESTS_PER_MINUTE
	// and CHAT_DAILY_TOKEN_BUDGET (config.ChatLimitVars) of the chat and users
	// functions, by variable name; a variable left out keeps the functions'
	// default (3, 20, 200000), and 0 turns that limit off.
	ChatLimits map[string]int
	// ChatReservedConcurrency caps the chat function's concurrent
	// executions (each streamed reply holds one for its whole length) and
	// reserves them out of the account's pool, so a surge of chats can take
	// neither sign-in, the catalogue nor the Stripe webhook's share, and
	// they cannot take chat's. 0: DefaultChatReservedConcurrency;
	// NoReservation: none (the account pool, uncapped).
	ChatReservedConcurrency int
	// WebhookReservedConcurrency is the stripe-webhook function's own
	// reservation: Stripe's events always find a free execution. 0:
	// DefaultWebhookReservedConcurrency; NoReservation: none.
	WebhookReservedConcurrency int
	// WAFRateLimit is the most requests one client address may send to the
	// API in any 5 minutes before the API's web ACL (waf.go) blocks it
	// (429) until its rate falls again. 0: DefaultWAFRateLimit.
	WAFRateLimit int
	// SkipAPIGatewayAccount leaves API Gateway's account-wide CloudWatch
	// role alone (for accounts that already set one); by default the stack
	// sets it so the API's access logs can be written.
	SkipAPIGatewayAccount bool
}

// Reserved concurrency defaults (docs/deploy.md, "Concurrency").
const (
	DefaultChatReservedConcurrency    = 50
	DefaultWebhookReservedConcurrency = 5
	// NoReservation leaves a function in the account's unreserved pool.
	NoReservation = -1
)

// reservations answers each function's reserved concurrency (none absent).
func (p *Props) reservations() (map[string]int, error) {
	out := map[string]int{}
	for fn, n := range map[string]struct{ set, def int }{
		"chat":           {p.ChatReservedConcurrency, DefaultChatReservedConcurrency},
		"stripe-webhook": {p.WebhookReservedConcurrency, DefaultWebhookReservedConcurrency},
	} {
		switch {
		case n.set == 0:
			out[fn] = n.def
		case n.set > 0:
			out[fn] = n.set
		case n.set != NoReservation:
			return nil, fmt.Errorf("reserved concurrency of %s = %d: want 1 or more, or NoReservation", fn, n.set)
		}
	}
	return out, nil
}

// Output names of the stack.
const (
	OutputSiteURL           = "SiteUrl"
	OutputWebhookURL        = "WebhookUrl"
	OutputGoogleRedirectURI = "GoogleRedirectUri"
	OutputLogBucket         = "AccessLogBucket"
	// OutputDNSRecord (domain.go) only with a SiteDomain.
)

// WebhookPath is where Stripe sends events (the stripe-webhook group's path).
const WebhookPath = routes.WebhookPath

// GoogleCallbackPath is the OAuth redirect path of the auth group.
const GoogleCallbackPath = routes.GoogleCallbackPath

// NewAIWorkStack builds the whole product.
func NewAIWorkStack(scope constructs.Construct, id string, props *Props) (awscdk.Stack, error) {
	if props == nil {
		return nil, fmt.Errorf("stack %s: props are required", id)
	}
	if props.LambdaDir == "" || props.WebappDir == "" {
		return nil, fmt.Errorf("stack %s: LambdaDir and WebappDir are required", id)
	}
	reserved, err := props.reservations()
	if err != nil {
		return nil, fmt.Errorf("stack %s: %w", id, err)
	}
	if props.WAFRateLimit != 0 && (props.WAFRateLimit < MinWAFRateLimit || props.WAFRateLimit > MaxWAFRateLimit) {
		return nil, fmt.Errorf("stack %s: WAFRateLimit %d: want %d to %d requests per %d s", id, props.WAFRateLimit, MinWAFRateLimit, MaxWAFRateLimit, WAFWindowSeconds)
	}
	if err := props.checkDomain(); err != nil {
		return nil, fmt.Errorf("stack %s: %w", id, err)
	}
	rotationDays := props.JWTRotationDays
	if rotationDays == 0 {
		rotationDays = DefaultJWTRotationDays
	}
	st := awscdk.NewStack(scope, jsii.String(id), &props.StackProps)

	table := newTable(st)
	secrets := newSecrets(st)
	fns, err := newFunctions(st, functionsProps{
		LambdaDir:          props.LambdaDir,
		Table:              table,
		Secrets:            secrets,
		FreePromptsPerUser: props.FreePromptsPerUser,
		AdminEmails:        props.AdminEmails,
		MetaBedrock:        props.MetaBedrock,
		PublicURL:          props.PublicURL,
		MCPRegistryURL:     props.MCPRegistryURL,
		MailFrom:           props.MailFrom,
		SkipVerification:   props.SkipEmailVerification,
		RegisterLimitPerIP: props.RegisterLimitPerIP,
		ChatLimits:         props.ChatLimits,
		Reserved:           reserved,
	})
	if err != nil {
		return nil, err
	}
	if err := newJobs(st, fns); err != nil {
		return nil, err
	}
	api, err := newAPI(st, fns, !props.SkipAPIGatewayAccount)
	if err != nil {
		return nil, err
	}
	rotation, err := newJWTRotation(st, props.LambdaDir, secrets[SecretJWT], rotationDays)
	if err != nil {
		return nil, fmt.Errorf("stack %s: %w", id, err)
	}
	newAPIFirewall(st, api, props.WAFRateLimit)
	logBucket := newLogBucket(st)
	site := newSite(st, siteProps{WebappDir: props.WebappDir, API: api, Analytics: props.Analytics, OriginSecret: secrets[SecretOrigin],
		LogBucket: logBucket, Domain: props.SiteDomain, CertificateARN: props.CertificateARN})
	suppressNagFindings(nagTargets{Stack: st, API: api, Site: site, Secrets: secrets, Functions: fns,
		Rotation: rotation, CustomDomain: props.SiteDomain != "", MetaBedrock: props.MetaBedrock, AccountRole: !props.SkipAPIGatewayAccount})

	siteURL := awscdk.Fn_Join(jsii.String(""), &[]*string{jsii.String("https://"), site.DistributionDomainName()})
	if props.SiteDomain != "" {
		siteURL = jsii.String(props.PublicURL)
		dnsRecordOutput(st, props.SiteDomain, site)
	}
	output(st, OutputSiteURL, siteURL, "The product's address")
	output(st, OutputWebhookURL, awscdk.Fn_Join(jsii.String(""), &[]*string{siteURL, jsii.String(WebhookPath)}),
		"Register this endpoint in Stripe (Developers > Webhooks)")
	output(st, OutputGoogleRedirectURI, awscdk.Fn_Join(jsii.String(""), &[]*string{siteURL, jsii.String(GoogleCallbackPath)}),
		"Authorised redirect URI of the Google OAuth client")
	output(st, OutputLogBucket, logBucket.BucketName(),
		fmt.Sprintf("S3 bucket of CloudFront's (%s) and the site bucket's (%s) access logs, kept %d days", CloudFrontLogPrefix, SiteBucketLogPrefix, AccessLogRetentionDays))
	for _, name := range secretNames {
		output(st, "Secret"+strings.ReplaceAll(titleCase(name), "_", ""), jsii.String(SecretName(*st.StackName(), name)),
			"Secrets Manager secret holding "+name)
	}
	return st, nil
}

func output(scope constructs.Construct, id string, value *string, description string) {
	awscdk.NewCfnOutput(scope, jsii.String(id), &awscdk.CfnOutputProps{
		Value:       value,
		Description: jsii.String(description),
	})
}

// titleCase turns STRIPE_SECRET_KEY into Stripe_Secret_Key.
func titleCase(s string) string {
	parts := strings.Split(strings.ToLower(s), "_")
	for i, p := range parts {
		if p != "" {
			parts[i] = strings.ToUpper(p[:1]) + p[1:]
		}
	}
	return strings.Join(parts, "_")
}
