package config

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"aiwork/shared/awscall"
)

// SecretsManager reads secrets with Secrets Manager's GetSecretValue, the
// one call the functions make, signed (SigV4) with the configuration's
// credentials (shared/awscall): the SDK's secretsmanager client is not
// linked into the functions. jwt-rotation, which writes secrets, keeps the
// SDK client.
type SecretsManager struct {
	call     *awscall.Client
	endpoint string
}

// secretsAttempts bounds the tries of one read (a throttled or failed
// answer, or no answer at all, is tried again).
const secretsAttempts = 3

// NewSecretsManager reads from the region's endpoint, or from
// AWS_ENDPOINT_URL_SECRETS_MANAGER when set (make run-lambda's stand-in).
func NewSecretsManager(cfg aws.Config) *SecretsManager {
	return &SecretsManager{call: awscall.New(cfg, 10*time.Second), endpoint: awscall.Endpoint(cfg.Region, "secretsmanager", "SECRETS_MANAGER")}
}

// SecretError is an error Secrets Manager answered, such as
// ResourceNotFoundException for a secret or version stage that does not exist.
type SecretError struct {
	Status  int
	Code    string
	Message string
}

func (e *SecretError) Error() string {
	return fmt.Sprintf("secrets manager: %s (%d): %s", e.Code, e.Status, e.Message)
}

// SecretNotFound reports whether err says the secret or its version stage
// does not exist.
func SecretNotFound(err error) bool {
	var se *SecretError
	return errors.As(err, &se) && se.Code == "ResourceNotFoundException"
}

// SecretValue answers the SecretString of the secret arn at version stage
// (AWSCURRENT when empty).
func (s *SecretsManager) SecretValue(ctx context.Context, arn, stage string) (string, error) {
	in := struct {
		SecretID     string `json:"SecretId"`
		VersionStage string `json:"VersionStage,omitempty"`
	}{arn, stage}
	body, err := json.Marshal(in)
	if err != nil {
		return "", err
	}
	ans, err := s.call.DoRetrying(ctx, awscall.Request{Service: "secretsmanager", URL: s.endpoint + "/", Body: body, Header: http.Header{
		"Content-Type": {"application/x-amz-json-1.1"}, "X-Amz-Target": {"secretsmanager.GetSecretValue"}}}, secretsAttempts)
	if err != nil {
		return "", fmt.Errorf("secrets manager: %w", err)
	}
	if e := ans.Err(); e != nil {
		return "", &SecretError{Status: e.Status, Code: e.Code, Message: e.Message}
	}
	var out struct {
		SecretString *string
	}
	if err := json.Unmarshal(ans.Body, &out); err != nil {
		return "", fmt.Errorf("secrets manager: answer: %w", err)
	}
	if out.SecretString == nil {
		return "", errors.New("secrets manager: the secret has no string value")
	}
	return *out.SecretString, nil
}
