package config

import (
	"context"
	"fmt"
	"os"
	"strings"
)

// SecretFetcher reads a secret's value by ARN and version stage (empty:
// AWSCURRENT); in Lambda, SecretsManager.
type SecretFetcher interface {
	SecretValue(ctx context.Context, arn, stage string) (string, error)
}

// Secret resolves a secret named NAME: the variable NAME itself (local runs),
// else the Secrets Manager secret whose ARN is in NAME_ARN (Lambda). An empty
// answer means the secret is not configured.
func Secret(ctx context.Context, sm SecretFetcher, name string) (string, error) {
	if v := strings.TrimSpace(os.Getenv(name)); v != "" {
		return v, nil
	}
	arn := strings.TrimSpace(os.Getenv(name + "_ARN"))
	if arn == "" {
		return "", nil
	}
	if sm == nil {
		return "", fmt.Errorf("%s_ARN is set but no Secrets Manager client is available", name)
	}
	v, err := sm.SecretValue(ctx, arn, "")
	if err != nil {
		return "", fmt.Errorf("read secret %s: %w", name, err)
	}
	return strings.TrimSpace(v), nil
}

// SecretNames lists every secret the functions read, each by its name
// (locally the value itself) or NAME_ARN (in Lambda, and under make
// run-lambda through its Secrets Manager stand-in). The stack creates one
// secret per name (infra/stack).
var SecretNames = []string{
	"JWT_SECRET", "STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET",
	"GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET",
	"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY",
	"MCP_KEY_ENCRYPTION_KEY", OriginSecretName,
}
