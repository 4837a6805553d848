package config

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager/types"
)

// SecretsManager reads secrets with Secrets Manager's GetSecretValue, the
// one call the functions make (jwt-rotation, which writes secrets, uses
// the client itself: shared/secretrotation).
type SecretsManager struct {
	client *secretsmanager.Client
}

// secretsCallTimeout bounds one attempt of a read; the SDK's standard
// retryer tries a throttled or failed read again (3 attempts).
const secretsCallTimeout = 10 * time.Second

// NewSecretsManager reads from the region's endpoint, or from
// AWS_ENDPOINT_URL_SECRETS_MANAGER when set (make run-lambda's stand-in).
func NewSecretsManager(cfg aws.Config) *SecretsManager {
	return &SecretsManager{client: secretsmanager.NewFromConfig(cfg, func(o *secretsmanager.Options) {
		if u := ServiceEndpoint("SECRETS_MANAGER"); u != nil {
			o.BaseEndpoint = u
		}
		o.HTTPClient = awshttp.NewBuildableClient().WithTimeout(secretsCallTimeout)
	})}
}

// SecretNotFound reports whether err says the secret or its version stage
// does not exist.
func SecretNotFound(err error) bool {
	var nf *types.ResourceNotFoundException
	return errors.As(err, &nf)
}

// SecretValue answers the SecretString of the secret arn at version stage
// (AWSCURRENT when empty).
func (s *SecretsManager) SecretValue(ctx context.Context, arn, stage string) (string, error) {
	in := &secretsmanager.GetSecretValueInput{SecretId: aws.String(arn)}
	if stage != "" {
		in.VersionStage = aws.String(stage)
	}
	out, err := s.client.GetSecretValue(ctx, in)
	if err != nil {
		return "", fmt.Errorf("secrets manager: %w", err)
	}
	if out.SecretString == nil {
		return "", errors.New("secrets manager: the secret has no string value")
	}
	return *out.SecretString, nil
}
