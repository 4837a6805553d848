package config

import (
	"context"
	"errors"
)

// OriginSecretName is the secret every API function of the stack checks:
// the product's CloudFront sends its value in X-Origin-Secret on every
// /api/* request (httpx.RequireOrigin). In Lambda it comes from Secrets
// Manager (ORIGIN_SECRET_ARN); the devserver checks none.
const OriginSecretName = "ORIGIN_SECRET"

// LoadOriginSecret reads ORIGIN_SECRET (or the secret ORIGIN_SECRET_ARN
// names). Inside Lambda it is required: a function that could not check
// it would answer anyone who calls the API's execute-api address directly.
func LoadOriginSecret(ctx context.Context, sm SecretFetcher) (string, error) {
	s, err := Secret(ctx, sm, OriginSecretName)
	if err != nil {
		return "", err
	}
	if s == "" && inLambda() {
		return "", errors.New("ORIGIN_SECRET_ARN is required in Lambda: only the product's CloudFront may reach the API")
	}
	return s, nil
}
