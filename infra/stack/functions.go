package stack

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsdynamodb"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambda"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssecretsmanager"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"

	"aiwork/shared/config"
	"aiwork/shared/routes"
)

// FunctionSpec is what one Lambda (a route group's or a job function's)
// needs beyond the table.
type FunctionSpec struct {
	// Secrets are read by ARN (NAME_ARN) with read access to exactly these.
	Secrets []string
	// Env holds fixed settings: literal values, never a secret.
	Env map[string]string
	// MemoryMB and TimeoutSeconds size the function.
	MemoryMB       int
	TimeoutSeconds int
}

var providerKeys = []string{SecretOpenAIKey, SecretAnthropicKey, SecretGeminiKey}

// bufferedTimeout covers API Gateway's 29 s limit for buffered integrations.
const bufferedTimeout = 30

// ChatTimeoutSeconds bounds one streamed chat reply: the chat function's
// timeout and its streaming integration's (REST API streams may last 15 min).
const ChatTimeoutSeconds = 5 * 60

// JobTimeoutSeconds bounds one scheduled run (a registry import, or a probe
// of every server in the catalogue).
const JobTimeoutSeconds = 5 * 60

// mcpOutbound is the outbound rule of every function that reaches MCP
// servers (DESIGN §7): https only. Loopback, where Lambda's Runtime API
// listens, is refused in Lambda whatever the setting.
var mcpOutbound = map[string]string{"MCP_HTTPS_ONLY": "true"}

// FunctionSpecs maps every function of the route table (route groups and
// routes.JobFunctions) to its needs; each mirrors the config loader its
// functions/<name>/main.go calls.
var FunctionSpecs = map[string]FunctionSpec{
	"auth":           {Secrets: []string{SecretJWT, SecretGoogleClientID, SecretGoogleClientSecret}, MemoryMB: 1024, TimeoutSeconds: bufferedTimeout}, // bcrypt wants CPU
	"users":          {Secrets: []string{SecretJWT}, MemoryMB: 512, TimeoutSeconds: bufferedTimeout},
	"prompts":        {Secrets: []string{SecretJWT}, MemoryMB: 512, TimeoutSeconds: bufferedTimeout},
	"payments":       {Secrets: []string{SecretJWT, SecretStripeKey}, MemoryMB: 512, TimeoutSeconds: bufferedTimeout},
	"stripe-webhook": {Secrets: []string{SecretStripeWebhookSecret, SecretStripeKey}, MemoryMB: 512, TimeoutSeconds: bufferedTimeout},
	// The provider keys tell mcp which providers are real (demo or not);
	// the key-encryption key is readable by mcp, which seals users' server
	// keys, and chat, which opens a user's own to call its tools (and
	// reaches MCP servers under the same outbound rule).
	"mcp":  {Secrets: append([]string{SecretJWT, SecretMCPKeyEncryptionKey}, providerKeys...), Env: mcpOutbound, MemoryMB: 512, TimeoutSeconds: bufferedTimeout},
	"chat": {Secrets: append([]string{SecretJWT, SecretMCPKeyEncryptionKey}, providerKeys...), Env: mcpOutbound, MemoryMB: 1024, TimeoutSeconds: ChatTimeoutSeconds},
	// Registry sync and health probe: public data only, never a user's key.
	"mcp-jobs": {Env: mcpOutbound, MemoryMB: 512, TimeoutSeconds: JobTimeoutSeconds},
}

type functionsProps struct {
	LambdaDir          string
	Table              awsdynamodb.Table
	Secrets            map[string]awssecretsmanager.Secret
	FreePromptsPerUser int
	AdminEmails        []string
	MetaBedrock        bool
	PublicURL          string
	MCPRegistryURL     string
	MailFrom           string
	SkipVerification   bool
	RegisterLimitPerIP int
	ChatLimits         map[string]int
	// Reserved is each function's reserved concurrency (absent: none).
	Reserved map[string]int
}

// chatLimitFunctions read the chat limits: chat enforces them, users
// reports them with the caller's usage.
var chatLimitFunctions = []string{"chat", "users"}

// lambdaDef is one Lambda to make: a route group's or a job function's.
type lambdaDef struct {
	Function    string
	Description string
	Streaming   bool // the chat group: Bedrock access when MetaBedrock is on
	// API: a route group's function, reached through CloudFront only; it
	// reads and checks the origin secret (SecretOrigin).
	API bool
}

// lambdaDefs lists every Lambda of the route table: one per route group,
// then one per routes.JobFunctions entry.
func lambdaDefs() ([]lambdaDef, error) {
	var defs []lambdaDef
	for _, g := range routes.Groups {
		defs = append(defs, lambdaDef{
			Function:    g.Function,
			Description: "route group " + g.Function + " (" + strings.Join(g.Prefixes, ", ") + ")",
			Streaming:   g.Streaming,
			API:         true,
		})
	}
	for _, fn := range routes.JobFunctions {
		var jobs []string
		for _, j := range routes.Jobs {
			if j.Function == fn {
				jobs = append(jobs, j.Name+" "+j.Schedule)
			}
		}
		defs = append(defs, lambdaDef{
			Function:    fn,
			Description: "scheduled jobs (" + strings.Join(jobs, ", ") + ")",
		})
	}
	seen := map[string]bool{}
	for _, d := range defs {
		if seen[d.Function] {
			return nil, fmt.Errorf("function %q is listed twice in shared/routes (Groups, JobFunctions)", d.Function)
		}
		seen[d.Function] = true
	}
	return defs, nil
}

// newFunctions makes one Lambda per route group and per job function, keyed
// by function name. None is placed in a VPC: a Lambda outside a VPC reaches
// the internet and no private network, which is what mcp and mcp-jobs need
// (outbound to public MCP servers and registries, nothing else); the others
// reach only AWS APIs and public providers.
func newFunctions(scope constructs.Construct, p functionsProps) (map[string]awslambda.Function, error) {
	defs, err := lambdaDefs()
	if err != nil {
		return nil, err
	}
	fns := make(map[string]awslambda.Function, len(defs))
	for _, d := range defs {
		spec, ok := FunctionSpecs[d.Function]
		if !ok {
			return nil, fmt.Errorf("function %q has no FunctionSpec in infra/stack/functions.go", d.Function)
		}
		if d.API {
			spec.Secrets = append(slices.Clone(spec.Secrets), SecretOrigin)
		}
		env, err := environment(d.Function, spec, p)
		if err != nil {
			return nil, err
		}
		fn, err := newGoFunction(scope, goFunctionProps{
			Function:       d.Function,
			Description:    d.Description,
			LambdaDir:      p.LambdaDir,
			MemoryMB:       spec.MemoryMB,
			TimeoutSeconds: spec.TimeoutSeconds,
			Env:            env,
			Reserved:       p.Reserved,
		})
		if err != nil {
			return nil, err
		}
		// Only the actions and partitions its code uses (grants.go).
		if err := grantTable(fn, p.Table, d.Function); err != nil {
			return nil, err
		}
		// No version stages: every version is readable, AWSPREVIOUS
		// included (the JWT key before the last rotation, rotation.go).
		for _, name := range spec.Secrets {
			p.Secrets[name].GrantRead(fn, nil)
		}
		if d.Streaming && p.MetaBedrock {
			grantMetaLlama(fn)
		}
		if d.Function == "auth" && p.MailFrom != "" {
			if err := grantSendMail(fn, p.MailFrom); err != nil {
				return nil, err
			}
		}
		fns[d.Function] = fn
	}
	return fns, nil
}

// goFunctionProps describes one of the product's Go Lambdas.
type goFunctionProps struct {
	Function, Description string
	// LambdaDir holds <Function>.zip, as `make build` writes it.
	LambdaDir      string
	MemoryMB       int
	TimeoutSeconds int
	Env            map[string]*string // nil: no variables
	// Reserved is the reserved concurrency by function (absent: none).
	Reserved map[string]int
}

// newGoFunction makes a Go Lambda as every function of the product is made:
// the bootstrap binary of `make build` on provided.al2023 and arm64, with
// its own log group and a role that may write only there (logs.go). None
// is placed in a VPC: see newFunctions.
func newGoFunction(scope constructs.Construct, p goFunctionProps) (awslambda.Function, error) {
	zip := filepath.Join(p.LambdaDir, p.Function+".zip")
	if _, err := os.Stat(zip); err != nil {
		return nil, fmt.Errorf("lambda package of %s: %w (run `make build`)", p.Function, err)
	}
	logs, role := functionLogging(scope, constructID(p.Function), p.Function+": "+p.Description)
	var reserved *float64
	if n, ok := p.Reserved[p.Function]; ok {
		reserved = jsii.Number(n)
	}
	var env *map[string]*string
	if len(p.Env) > 0 {
		env = &p.Env
	}
	return awslambda.NewFunction(scope, jsii.String(FunctionID(p.Function)), &awslambda.FunctionProps{
		Description:  jsii.String(p.Description),
		Runtime:      awslambda.Runtime_PROVIDED_AL2023(),
		Architecture: awslambda.Architecture_ARM_64(),
		Handler:      jsii.String("bootstrap"),
		Code:         awslambda.Code_FromAsset(jsii.String(zip), nil),
		MemorySize:   jsii.Number(p.MemoryMB),
		Timeout:      awscdk.Duration_Seconds(jsii.Number(p.TimeoutSeconds)),
		Environment:  env,
		LogGroup:     logs,
		Role:         role,
		// Chat's cap and the webhook's own share (stack.go, README).
		ReservedConcurrentExecutions: reserved,
		// No Vpc: outbound internet, no private network (see newFunctions).
	}), nil
}

// environment holds names, ARNs and settings, never a secret's value.
func environment(function string, spec FunctionSpec, p functionsProps) (map[string]*string, error) {
	env := map[string]*string{"TABLE_NAME": p.Table.TableName()}
	for key, value := range spec.Env {
		env[key] = jsii.String(value)
	}
	for _, name := range spec.Secrets {
		s, ok := p.Secrets[name]
		if !ok {
			return nil, fmt.Errorf("function %s reads unknown secret %s", function, name)
		}
		env[name+"_ARN"] = s.SecretArn()
	}
	switch function {
	case "auth":
		if len(p.AdminEmails) > 0 {
			env["ADMIN_EMAILS"] = jsii.String(strings.Join(p.AdminEmails, ","))
		}
		if p.PublicURL != "" {
			env["PUBLIC_URL"] = jsii.String(p.PublicURL)
		}
		if p.MailFrom != "" {
			env["MAIL_FROM"] = jsii.String(p.MailFrom)
		}
		if p.RegisterLimitPerIP > 0 {
			env["REGISTER_LIMIT_PER_IP"] = jsii.String(strconv.Itoa(p.RegisterLimitPerIP))
		}
	case "prompts", "payments":
		if function == "prompts" && p.SkipVerification {
			env["REQUIRE_EMAIL_VERIFICATION"] = jsii.String("false")
		}
		if p.FreePromptsPerUser > 0 {
			env["FREE_PROMPTS_PER_USER"] = jsii.String(strconv.Itoa(p.FreePromptsPerUser))
		}
		if function == "payments" && p.PublicURL != "" {
			env["PUBLIC_URL"] = jsii.String(p.PublicURL)
		}
	case "mcp", "chat":
		// Both must agree: mcp reports which providers are real.
		if p.MetaBedrock {
			env["META_BEDROCK"] = jsii.String("1")
		}
	case "mcp-jobs":
		// Empty: no import; the catalogue is the committed seed.
		if p.MCPRegistryURL != "" {
			env["MCP_REGISTRY_URL"] = jsii.String(p.MCPRegistryURL)
		}
	}
	for name, n := range p.ChatLimits {
		if !slices.Contains(config.ChatLimitVars, name) {
			return nil, fmt.Errorf("chat limit %s is not one of %v", name, config.ChatLimitVars)
		}
		if n < 0 {
			return nil, fmt.Errorf("chat limit %s = %d: want 0 (no limit) or more", name, n)
		}
		if slices.Contains(chatLimitFunctions, function) {
			env[name] = jsii.String(strconv.Itoa(n))
		}
	}
	return env, nil
}

// grantMetaLlama lets fn call Converse/ConverseStream (bedrock:InvokeModel,
// bedrock:InvokeModelWithResponseStream) on Meta Llama models only: the
// foundation models in any region (a cross-region inference profile routes
// to several) and the account's Meta Llama inference profiles here.
func grantMetaLlama(fn awslambda.Function) {
	fn.AddToRolePolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:     jsii.String("InvokeMetaLlama"),
		Actions: jsii.Strings("bedrock:InvokeModel", "bedrock:InvokeModelWithResponseStream"),
		Resources: &[]*string{
			awscdk.Fn_Sub(jsii.String("arn:${AWS::Partition}:bedrock:*::foundation-model/meta.llama*"), nil),
			awscdk.Fn_Sub(jsii.String("arn:${AWS::Partition}:bedrock:${AWS::Region}:${AWS::AccountId}:inference-profile/*.meta.llama*"), nil),
		},
	}))
}

// FunctionID is the construct id of a function's Lambda (StripeWebhookFunction).
func FunctionID(function string) string { return constructID(function) + "Function" }

// constructID turns stripe-webhook into StripeWebhook.
func constructID(function string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(function, func(r rune) bool { return r == '-' || r == '_' }) {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}
