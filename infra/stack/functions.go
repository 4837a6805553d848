package stack

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsdynamodb"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambda"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslogs"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssecretsmanager"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"

	"aiwork/shared/routes"
)

// FunctionSpec is what one route group's Lambda needs beyond the table.
type FunctionSpec struct {
	// Secrets are read by ARN (NAME_ARN) with read access to exactly these.
	Secrets []string
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

// FunctionSpecs maps every route group of the route table to its needs;
// each mirrors the config loader its functions/<name>/main.go calls.
var FunctionSpecs = map[string]FunctionSpec{
	"auth":           {Secrets: []string{SecretJWT, SecretGoogleClientID, SecretGoogleClientSecret}, MemoryMB: 1024, TimeoutSeconds: bufferedTimeout}, // bcrypt wants CPU
	"users":          {Secrets: []string{SecretJWT}, MemoryMB: 512, TimeoutSeconds: bufferedTimeout},
	"prompts":        {Secrets: []string{SecretJWT}, MemoryMB: 512, TimeoutSeconds: bufferedTimeout},
	"payments":       {Secrets: []string{SecretJWT, SecretStripeKey}, MemoryMB: 512, TimeoutSeconds: bufferedTimeout},
	"stripe-webhook": {Secrets: []string{SecretStripeWebhookSecret}, MemoryMB: 512, TimeoutSeconds: bufferedTimeout},
	"mcp":            {Secrets: append([]string{SecretJWT}, providerKeys...), MemoryMB: 512, TimeoutSeconds: bufferedTimeout},
	"chat":           {Secrets: append([]string{SecretJWT}, providerKeys...), MemoryMB: 1024, TimeoutSeconds: ChatTimeoutSeconds},
}

type functionsProps struct {
	LambdaDir          string
	Table              awsdynamodb.Table
	Secrets            map[string]awssecretsmanager.Secret
	FreePromptsPerUser int
	AdminEmails        []string
	MetaBedrock        bool
	PublicURL          string
}

// newFunctions makes one Lambda per route group, keyed by group function.
func newFunctions(scope constructs.Construct, p functionsProps) (map[string]awslambda.Function, error) {
	fns := make(map[string]awslambda.Function, len(routes.Groups))
	for _, g := range routes.Groups {
		spec, ok := FunctionSpecs[g.Function]
		if !ok {
			return nil, fmt.Errorf("route group %q has no FunctionSpec in infra/stack/functions.go", g.Function)
		}
		zip := filepath.Join(p.LambdaDir, g.Function+".zip")
		if _, err := os.Stat(zip); err != nil {
			return nil, fmt.Errorf("lambda package of %s: %w (run `make build`)", g.Function, err)
		}
		env, err := environment(g, spec, p)
		if err != nil {
			return nil, err
		}
		id := constructID(g.Function)
		logs := awslogs.NewLogGroup(scope, jsii.String(id+"Logs"), &awslogs.LogGroupProps{
			Retention:     awslogs.RetentionDays_ONE_MONTH,
			RemovalPolicy: awscdk.RemovalPolicy_DESTROY,
		})
		fn := awslambda.NewFunction(scope, jsii.String(FunctionID(g.Function)), &awslambda.FunctionProps{
			Description:  jsii.String("route group " + g.Function + " (" + strings.Join(g.Prefixes, ", ") + ")"),
			Runtime:      awslambda.Runtime_PROVIDED_AL2023(),
			Architecture: awslambda.Architecture_ARM_64(),
			Handler:      jsii.String("bootstrap"),
			Code:         awslambda.Code_FromAsset(jsii.String(zip), nil),
			MemorySize:   jsii.Number(spec.MemoryMB),
			Timeout:      awscdk.Duration_Seconds(jsii.Number(spec.TimeoutSeconds)),
			Environment:  &env,
			LogGroup:     logs,
		})
		p.Table.GrantReadWriteData(fn)
		for _, name := range spec.Secrets {
			p.Secrets[name].GrantRead(fn, nil)
		}
		if g.Streaming && p.MetaBedrock {
			grantMetaLlama(fn)
		}
		fns[g.Function] = fn
	}
	return fns, nil
}

// environment holds names, ARNs and settings, never a secret's value.
func environment(g routes.Group, spec FunctionSpec, p functionsProps) (map[string]*string, error) {
	env := map[string]*string{"TABLE_NAME": p.Table.TableName()}
	for _, name := range spec.Secrets {
		s, ok := p.Secrets[name]
		if !ok {
			return nil, fmt.Errorf("function %s reads unknown secret %s", g.Function, name)
		}
		env[name+"_ARN"] = s.SecretArn()
	}
	switch g.Function {
	case "auth":
		if len(p.AdminEmails) > 0 {
			env["ADMIN_EMAILS"] = jsii.String(strings.Join(p.AdminEmails, ","))
		}
		if p.PublicURL != "" {
			env["PUBLIC_URL"] = jsii.String(p.PublicURL)
		}
	case "prompts", "payments":
		if p.FreePromptsPerUser > 0 {
			env["FREE_PROMPTS_PER_USER"] = jsii.String(strconv.Itoa(p.FreePromptsPerUser))
		}
		if g.Function == "payments" && p.PublicURL != "" {
			env["PUBLIC_URL"] = jsii.String(p.PublicURL)
		}
	case "mcp", "chat":
		// Both must agree: mcp reports which providers are real.
		if p.MetaBedrock {
			env["META_BEDROCK"] = jsii.String("1")
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

// FunctionID is the construct id of a route group's Lambda (StripeWebhookFunction).
func FunctionID(function string) string { return constructID(function) + "Function" }

// constructID turns stripe-webhook into StripeWebhook.
func constructID(function string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(function, func(r rune) bool { return r == '-' || r == '_' }) {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}
