// Command infra is the CDK app that deploys the product: `cdk synth` and
// `cdk deploy` run it through cdk.json ("go run ./infra" from the top of
// the repository). See docs/deploy.md.
//
// Context values (cdk.json or `-c key=value`):
//
//	stackName             the CloudFormation stack (AIWork)
//	lambdaDir, webappDir  the assets (dist/lambda, webapp/dist)
//	freePromptsPerUser    FREE_PROMPTS_PER_USER of prompts and payments
//	adminEmails           comma-separated ADMIN_EMAILS of auth
//	mailFrom              MAIL_FROM of auth: the SES sender identity of account mail
//	requireEmailVerification "false": free prompts without a confirmed email
//	registerLimitPerIp    REGISTER_LIMIT_PER_IP of auth (registrations per address per hour)
//	metaBedrock           "true": Meta Llama on Amazon Bedrock
//	publicUrl             PUBLIC_URL for a custom domain in front of CloudFront
//	                      (with siteDomain it follows that, and may only repeat it)
//	siteDomain, certificateArn
//	                      the distribution's own domain and its ACM certificate
//	                      in us-east-1 (else the deploying shell's SITE_DOMAIN
//	                      and CERTIFICATE_ARN): TLSv1.2_2021, PUBLIC_URL
//	                      https://<domain>, a DnsRecord output
//	jwtRotationDays       days between rotations of JWT_SECRET (30)
//	mcpRegistryUrl        MCP_REGISTRY_URL: a registry the catalogue imports daily
//	chatMaxConcurrentStreams, chatRequestsPerMinute, chatDailyTokenBudget
//	                      CHAT_MAX_CONCURRENT_STREAMS, CHAT_REQUESTS_PER_MINUTE,
//	                      CHAT_DAILY_TOKEN_BUDGET of chat and users (else the
//	                      deploying shell's variable of that name, if set)
//	chatReservedConcurrency, webhookReservedConcurrency
//	                      reserved concurrency of chat (50) and stripe-webhook
//	                      (5); 0 leaves the function in the account's pool
//	wafRateLimit          requests per client address per 5 minutes before
//	                      the API's web ACL blocks it (1000)
//	analytics             "true": allow Google Analytics in the CSP
//	apiGatewayAccountRole "false": keep the account's API Gateway logging role
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/jsii-runtime-go"

	_ "aiwork/infra/internal/nodequiet" // before jsii starts Node
	"aiwork/infra/stack"
)

func main() {
	err := run()
	if err != nil {
		fmt.Fprintln(os.Stderr, "infra:", err)
	}
	closeJSII()
	if err != nil {
		os.Exit(1)
	}
}

// closeJSII stops jsii's Node process. jsii-runtime-go v1.139.0 waits for
// that process twice (in Close and in a watcher goroutine); the loser gets
// "waitid: no child processes" and prints "Runtime process exited
// abnormally" on every clean run. Nothing else is written after Close, so
// its stderr goes to /dev/null.
func closeJSII() {
	if null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0); err == nil {
		os.Stderr = null
	}
	jsii.Close()
}

func run() (err error) {
	app := awscdk.NewApp(nil)
	// cdk-nag's AWS Solutions pack: an unsuppressed error fails the synth
	// (infra/stack/nag.go).
	stack.AddNagChecks(app)
	root, err := repoRoot()
	if err != nil {
		return err
	}
	str := func(key, def string) string {
		if v, ok := app.Node().TryGetContext(jsii.String(key)).(string); ok && strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
		return def
	}
	flag := func(key string, def bool) (bool, error) {
		v := app.Node().TryGetContext(jsii.String(key))
		switch v := v.(type) {
		case nil:
			return def, nil
		case bool:
			return v, nil
		case string:
			return strconv.ParseBool(v)
		}
		return false, fmt.Errorf("context %s: want true or false, got %v", key, v)
	}
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(root, p)
	}

	props := &stack.Props{
		LambdaDir:      abs(str("lambdaDir", filepath.Join("dist", "lambda"))),
		WebappDir:      abs(str("webappDir", filepath.Join("webapp", "dist"))),
		PublicURL:      str("publicUrl", ""),
		MCPRegistryURL: str("mcpRegistryUrl", ""),
		MailFrom:       str("mailFrom", ""),
		SiteDomain:     str("siteDomain", strings.TrimSpace(os.Getenv("SITE_DOMAIN"))),
		CertificateARN: str("certificateArn", strings.TrimSpace(os.Getenv("CERTIFICATE_ARN"))),
	}
	if v := str("jwtRotationDays", ""); v != "" {
		if props.JWTRotationDays, err = strconv.Atoi(v); err != nil || props.JWTRotationDays < 1 || props.JWTRotationDays > stack.MaxJWTRotationDays {
			return fmt.Errorf("context jwtRotationDays: want 1 to %d days, got %q", stack.MaxJWTRotationDays, v)
		}
	}
	requireVerification, err := flag("requireEmailVerification", true)
	if err != nil {
		return err
	}
	props.SkipEmailVerification = !requireVerification
	if n := str("registerLimitPerIp", ""); n != "" {
		if props.RegisterLimitPerIP, err = strconv.Atoi(n); err != nil || props.RegisterLimitPerIP < 1 {
			return fmt.Errorf("context registerLimitPerIp: want a whole number from 1, got %q", n)
		}
	}
	for key, dst := range map[string]*int{
		"chatReservedConcurrency":    &props.ChatReservedConcurrency,
		"webhookReservedConcurrency": &props.WebhookReservedConcurrency,
	} {
		if v := str(key, ""); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return fmt.Errorf("context %s: want a whole number, 0 for no reservation; got %q", key, v)
			}
			if *dst = n; n == 0 {
				*dst = stack.NoReservation
			}
		}
	}
	if v := str("wafRateLimit", ""); v != "" {
		if props.WAFRateLimit, err = strconv.Atoi(v); err != nil || props.WAFRateLimit < stack.MinWAFRateLimit || props.WAFRateLimit > stack.MaxWAFRateLimit {
			return fmt.Errorf("context wafRateLimit: want %d to %d requests per 5 minutes, got %q", stack.MinWAFRateLimit, stack.MaxWAFRateLimit, v)
		}
	}
	if n := str("freePromptsPerUser", ""); n != "" {
		if props.FreePromptsPerUser, err = strconv.Atoi(n); err != nil {
			return fmt.Errorf("context freePromptsPerUser: %w", err)
		}
	}
	for _, e := range strings.Split(str("adminEmails", ""), ",") {
		if e = strings.TrimSpace(e); e != "" {
			props.AdminEmails = append(props.AdminEmails, e)
		}
	}
	for key, name := range map[string]string{
		"chatMaxConcurrentStreams": "CHAT_MAX_CONCURRENT_STREAMS",
		"chatRequestsPerMinute":    "CHAT_REQUESTS_PER_MINUTE",
		"chatDailyTokenBudget":     "CHAT_DAILY_TOKEN_BUDGET",
	} {
		v := str(key, strings.TrimSpace(os.Getenv(name)))
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return fmt.Errorf("context %s (%s): want a whole number, 0 for no limit; got %q", key, name, v)
		}
		if props.ChatLimits == nil {
			props.ChatLimits = map[string]int{}
		}
		props.ChatLimits[name] = n
	}
	if props.MetaBedrock, err = flag("metaBedrock", false); err != nil {
		return err
	}
	if props.Analytics, err = flag("analytics", false); err != nil {
		return err
	}
	accountRole, err := flag("apiGatewayAccountRole", true)
	if err != nil {
		return err
	}
	props.SkipAPIGatewayAccount = !accountRole
	if _, err := os.Stat(filepath.Join(props.WebappDir, "index.html")); err != nil {
		return fmt.Errorf("web app not built in %s (run `make synth`, or `make webapp`): %w", props.WebappDir, err)
	}

	// Account and region come from the CLI's credentials at deploy time.
	if account, region := os.Getenv("CDK_DEFAULT_ACCOUNT"), os.Getenv("CDK_DEFAULT_REGION"); account != "" && region != "" {
		props.Env = &awscdk.Environment{Account: jsii.String(account), Region: jsii.String(region)}
	}
	name := str("stackName", "AIWork")
	props.StackName = jsii.String(name)
	props.Description = jsii.String("AIWork: prompt marketplace, MCP registry and streaming multi-model chat")
	if _, err := stack.NewAIWorkStack(app, name, props); err != nil {
		return err
	}
	// A failed validation (a cdk-nag error among them) is thrown by
	// Synth; CDK has printed its report by then.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("synth: %v", r)
		}
	}()
	app.Synth(nil)
	return nil
}

// repoRoot is the directory holding go.work (cdk runs the app from the
// directory of cdk.json, the repository's top; `go run .` in infra works too).
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.work")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return dir, nil
		}
	}
}
