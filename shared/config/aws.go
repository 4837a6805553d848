package config

import (
	"os"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
)

// AWS is the SDK configuration for region, with the credentials of the
// environment: in Lambda, the execution role's, which Lambda puts in
// AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN; locally,
// whatever the developer exported (`eval "$(aws configure
// export-credentials --format env)"`), or none (dynalite). The SDK's
// shared-config loader is not used: it would link and start its SSO, STS
// and sign-in clients in every function for nothing (Lambda init is
// budgeted against a hello world's, docs/benchmarks.md).
//
// RetryMode is the SDK's default, standard, said outright: left empty, each
// client looks it up for the legacy defaults mode, which has none, and pays a
// first fmt.Errorf (~0.1 ms of every cold start) to fall back to standard.
func AWS(region string) aws.Config {
	cfg := aws.Config{Region: region, RetryMode: aws.RetryModeStandard}
	if id, secret := os.Getenv("AWS_ACCESS_KEY_ID"), os.Getenv("AWS_SECRET_ACCESS_KEY"); id != "" && secret != "" {
		cfg.Credentials = aws.NewCredentialsCache(credentials.NewStaticCredentialsProvider(id, secret, os.Getenv("AWS_SESSION_TOKEN")))
	}
	return cfg
}
