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

	"aiwork/shared/lambdas"
)

// ChatTimeoutSeconds bounds one streamed chat reply: the chat function's
// timeout and its streaming integration's (REST API streams may last 15 min).
var ChatTimeoutSeconds = int(lambdas.LongTimeout.Seconds())

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

// lambdaDef is one Lambda to make: a route group's or a job function's.
type lambdaDef struct {
	lambdas.Function
	Description string
}

// lambdaDefs lists every Lambda of lambdas.All that the API or a schedule
// invokes (one with a Trigger is made by its own construct: rotation.go).
func lambdaDefs() ([]lambdaDef, error) {
	var defs []lambdaDef
	seen := map[string]bool{}
	for _, f := range lambdas.Served() {
		if seen[f.Name] {
			return nil, fmt.Errorf("function %q is listed twice in shared/lambdas", f.Name)
		}
		seen[f.Name] = true
		switch {
		case f.API():
			defs = append(defs, lambdaDef{Function: f, Description: "route group " + f.Name + " (" + strings.Join(f.Routes, ", ") + ")"})
		case len(f.Jobs) > 0:
			var jobs []string
			for _, j := range f.Jobs {
				jobs = append(jobs, j.Name+" "+j.Schedule)
			}
			defs = append(defs, lambdaDef{Function: f, Description: "scheduled jobs (" + strings.Join(jobs, ", ") + ")"})
		}
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
		secrets := functionSecrets(d.Function)
		env, err := environment(d.Function, secrets, p)
		if err != nil {
			return nil, err
		}
		fn, err := newGoFunction(scope, goFunctionProps{
			Function:       d.Name,
			Description:    d.Description,
			LambdaDir:      p.LambdaDir,
			MemoryMB:       d.MemoryMB,
			TimeoutSeconds: int(d.Timeout.Seconds()),
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
		for _, name := range secrets {
			p.Secrets[name].GrantRead(fn, nil)
		}
		if d.Streaming && p.MetaBedrock {
			grantMetaLlama(fn)
		}
		if slices.Contains(d.Settings, lambdas.SettingMailFrom) && p.MailFrom != "" {
			if err := grantSendMail(fn, p.MailFrom); err != nil {
				return nil, err
			}
		}
		fns[d.Name] = fn
	}
	if err := grantInvokes(defs, fns); err != nil {
		return nil, err
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
		// Chat's cap and the webhook's own share (stack.go, docs/deploy.md).
		ReservedConcurrentExecutions: reserved,
		// No Vpc: outbound internet, no private network (see newFunctions).
	}), nil
}

// functionSecrets is what f reads from Secrets Manager: its table entry's
// secrets, and the origin secret for an API function (it checks every
// request's).
func functionSecrets(f lambdas.Function) []string {
	if f.API() {
		return append(slices.Clone(f.Secrets), SecretOrigin)
	}
	return f.Secrets
}

// environment holds names, ARNs and settings, never a secret's value: the
// table name, f's fixed settings, each secret's ARN and each deployment
// setting f reads that the operator gave.
func environment(f lambdas.Function, secrets []string, p functionsProps) (map[string]*string, error) {
	env := map[string]*string{"TABLE_NAME": p.Table.TableName()}
	for key, value := range f.Env {
		env[key] = jsii.String(value)
	}
	for _, name := range secrets {
		s, ok := p.Secrets[name]
		if !ok {
			return nil, fmt.Errorf("function %s reads unknown secret %s", f.Name, name)
		}
		env[name+"_ARN"] = s.SecretArn()
	}
	settings, err := p.settings()
	if err != nil {
		return nil, err
	}
	for _, name := range f.Settings {
		if v, ok := settings[name]; ok {
			env[name] = jsii.String(v)
		}
	}
	return env, nil
}

// settings are the deployment settings the operator gave, by variable
// name (lambdas.Setting*); a function gets those its entry reads.
func (p functionsProps) settings() (map[string]string, error) {
	out := map[string]string{}
	set := func(name, value string, given bool) {
		if given {
			out[name] = value
		}
	}
	set(lambdas.SettingAdminEmails, strings.Join(p.AdminEmails, ","), len(p.AdminEmails) > 0)
	set(lambdas.SettingPublicURL, p.PublicURL, p.PublicURL != "")
	set(lambdas.SettingMailFrom, p.MailFrom, p.MailFrom != "")
	set(lambdas.SettingRegisterLimit, strconv.Itoa(p.RegisterLimitPerIP), p.RegisterLimitPerIP > 0)
	set(lambdas.SettingRequireVerified, "false", p.SkipVerification)
	set(lambdas.SettingFreePrompts, strconv.Itoa(p.FreePromptsPerUser), p.FreePromptsPerUser > 0)
	// mcp and chat read it both: mcp reports which providers are real.
	set(lambdas.SettingMetaBedrock, "1", p.MetaBedrock)
	// Empty: no import; the catalogue is the committed seed.
	set(lambdas.SettingMCPRegistryURL, p.MCPRegistryURL, p.MCPRegistryURL != "")
	for name, n := range p.ChatLimits {
		if !slices.Contains(lambdas.ChatLimitSettings, name) {
			return nil, fmt.Errorf("chat limit %s is not one of %v", name, lambdas.ChatLimitSettings)
		}
		if n < 0 {
			return nil, fmt.Errorf("chat limit %s = %d: want 0 (no limit) or more", name, n)
		}
		set(name, strconv.Itoa(n), true)
	}
	return out, nil
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
