package stack

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssecretsmanager"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"

	"aiwork/shared/config"
	"aiwork/shared/lambdas"
)

// Secret names: each is also the environment variable a function reads
// (locally the value itself; in Lambda the secret's ARN in NAME_ARN).
const (
	SecretJWT                 = lambdas.SecretJWT
	SecretStripeKey           = lambdas.SecretStripeKey
	SecretStripeWebhookSecret = lambdas.SecretStripeWebhookSecret
	SecretGoogleClientID      = lambdas.SecretGoogleClientID
	SecretGoogleClientSecret  = lambdas.SecretGoogleClientSecret
	SecretOpenAIKey           = lambdas.SecretOpenAIKey
	SecretAnthropicKey        = lambdas.SecretAnthropicKey
	SecretGeminiKey           = lambdas.SecretGeminiKey
	// SecretMCPKeyEncryptionKey encrypts users' MCP API keys at rest
	// (AES-256-GCM, DESIGN §7); only the mcp and chat functions read it.
	SecretMCPKeyEncryptionKey = lambdas.SecretMCPKeyEncryptionKey
	// SecretOrigin is what CloudFront adds to every /api/* request in
	// X-Origin-Secret and every API function checks (httpx.RequireOrigin):
	// a call straight to the execute-api address lacks it and gets 403.
	SecretOrigin = config.OriginSecretName
)

// secretNames lists every secret in a fixed order: one list with the
// functions' loaders and the local stand-in (config.SecretNames).
var secretNames = config.SecretNames

// Unset is what an operator-filled secret holds until the operator puts
// the real value: a single space, which the functions read as "not set"
// (config.Secret trims it away). An empty value cannot be expressed: CDK's
// Secret takes it as absent and would generate a random value instead.
const Unset = " "

// generatedSecrets are made at deploy and never typed by an operator; the
// others start Unset for the operator to fill (docs/deploy.md, "Fill the secrets").
var generatedSecrets = map[string]*awssecretsmanager.SecretStringGenerator{
	// 64 characters of letters and digits: an HS256 key.
	SecretJWT: {
		PasswordLength:     jsii.Number(64),
		ExcludePunctuation: jsii.Bool(true),
	},
	// 64 lowercase hex digits: 32 random bytes, an AES-256 key once
	// hex-decoded.
	SecretMCPKeyEncryptionKey: {
		PasswordLength:     jsii.Number(64),
		ExcludePunctuation: jsii.Bool(true),
		ExcludeUppercase:   jsii.Bool(true),
		ExcludeCharacters:  jsii.String("ghijklmnopqrstuvwxyz"),
	},
	// 64 letters and digits (about 380 bits): a header value CloudFront
	// can send as is.
	SecretOrigin: {
		PasswordLength:     jsii.Number(64),
		ExcludePunctuation: jsii.Bool(true),
	},
}

// newSecrets creates the secrets, named <stack>/<NAME> so operators find
// them: the generatedSecrets with a value made at deploy, the others Unset.
func newSecrets(scope constructs.Construct) map[string]awssecretsmanager.Secret {
	stackName := *awscdk.Stack_Of(scope).StackName()
	out := make(map[string]awssecretsmanager.Secret, len(secretNames))
	for _, name := range secretNames {
		props := &awssecretsmanager.SecretProps{
			SecretName:  jsii.String(SecretName(stackName, name)),
			Description: jsii.String(secretDescriptions[name]),
		}
		if gen, ok := generatedSecrets[name]; ok {
			props.GenerateSecretString = gen
		} else {
			props.SecretStringValue = awscdk.SecretValue_UnsafePlainText(jsii.String(Unset))
		}
		out[name] = awssecretsmanager.NewSecret(scope, jsii.String(secretIDs[name]), props)
	}
	return out
}

// SecretName is the Secrets Manager name of secret name in stack stackName.
func SecretName(stackName, name string) string { return stackName + "/" + name }

var secretIDs = map[string]string{
	SecretJWT:                 "JwtSecret",
	SecretStripeKey:           "StripeSecretKey",
	SecretStripeWebhookSecret: "StripeWebhookSecret",
	SecretGoogleClientID:      "GoogleClientId",
	SecretGoogleClientSecret:  "GoogleClientSecret",
	SecretOpenAIKey:           "OpenAiApiKey",
	SecretAnthropicKey:        "AnthropicApiKey",
	SecretGeminiKey:           "GeminiApiKey",
	SecretMCPKeyEncryptionKey: "McpKeyEncryptionKey",
	SecretOrigin:              "OriginSecret",
}

var secretDescriptions = map[string]string{
	SecretJWT:                 "HS256 key that signs sign-in tokens (generated at deploy)",
	SecretStripeKey:           "Stripe secret key (sk_live_… or sk_test_…); payments refuse to start until it is set",
	SecretStripeWebhookSecret: "Signing secret (whsec_…) of the Stripe webhook endpoint",
	SecretGoogleClientID:      "Google OAuth client id; a single space leaves Google sign-in off",
	SecretGoogleClientSecret:  "Google OAuth client secret; a single space leaves Google sign-in off",
	SecretOpenAIKey:           "OpenAI API key; a single space serves OpenAI models by the demo model",
	SecretAnthropicKey:        "Anthropic API key; a single space serves Anthropic models by the demo model",
	SecretGeminiKey:           "Google Gemini API key; a single space serves Gemini models by the demo model",
	SecretMCPKeyEncryptionKey: "AES-256 key (64 hex digits) encrypting users' MCP server API keys (generated at deploy; replacing it makes stored keys unreadable)",
	SecretOrigin:              "Sent by CloudFront in X-Origin-Secret and checked by every API function: only CloudFront reaches the API (generated at deploy)",
}
