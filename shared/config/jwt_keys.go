package config

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
)

// KeySource answers the JWT signing key in use and the one before it (nil
// when there is none); auth.Tokens reads it again when a token names a key
// the process does not hold (a rotation since it started).
type KeySource = func(ctx context.Context) (current, previous []byte, err error)

// JWTKeySource reads the keys where the functions find JWT_SECRET: locally
// JWT_SECRET and JWT_SECRET_PREVIOUS (optional); in Lambda the secret whose
// ARN is in JWT_SECRET_ARN, versions AWSCURRENT and AWSPREVIOUS, which
// Secrets Manager's rotation moves.
func JWTKeySource(sm SecretFetcher) KeySource {
	return func(ctx context.Context) ([]byte, []byte, error) {
		if v := strings.TrimSpace(os.Getenv("JWT_SECRET")); v != "" {
			return []byte(v), usableKey(os.Getenv("JWT_SECRET_PREVIOUS")), nil
		}
		arn := strings.TrimSpace(os.Getenv("JWT_SECRET_ARN"))
		if arn == "" || sm == nil {
			return nil, nil, errors.New("JWT_SECRET (or JWT_SECRET_ARN) is required")
		}
		current, err := secretVersion(ctx, sm, arn, "AWSCURRENT")
		if err != nil {
			return nil, nil, err
		}
		previous, err := secretVersion(ctx, sm, arn, "AWSPREVIOUS")
		if SecretNotFound(err) {
			return usableKey(current), nil, nil // never rotated yet
		}
		if err != nil {
			return nil, nil, err
		}
		return usableKey(current), usableKey(previous), nil
	}
}

func secretVersion(ctx context.Context, sm SecretFetcher, arn, stage string) (string, error) {
	v, err := sm.SecretValue(ctx, arn, stage)
	if err != nil {
		return "", fmt.Errorf("read JWT_SECRET %s: %w", stage, err)
	}
	return v, nil
}

// usableKey is the key, or nil when it is too short to sign with.
func usableKey(s string) []byte {
	s = strings.TrimSpace(s)
	if len(s) < MinJWTSecretBytes {
		return nil
	}
	return []byte(s)
}
