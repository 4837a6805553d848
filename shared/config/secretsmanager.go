package config

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// SecretsManager reads secrets with Secrets Manager's GetSecretValue, the
// one call the functions make, signed (SigV4) with the configuration's
// credentials. The SDK's secretsmanager client is not linked into the
// functions: its package init builds endpoint tables, ~0.1 ms and 90 KB of
// every cold start (DESIGN §10 Lambda init). jwt-rotation, which writes
// secrets, keeps the SDK client.
type SecretsManager struct {
	cfg      aws.Config
	endpoint string
	client   *http.Client
	signer   *v4.Signer
}

// secretsAttempts bounds the tries of one read (a throttled or failed
// answer, or no answer at all, is tried again).
const secretsAttempts = 3

// NewSecretsManager reads from the region's endpoint, or from
// AWS_ENDPOINT_URL_SECRETS_MANAGER when set (make run-lambda's stand-in).
func NewSecretsManager(cfg aws.Config) *SecretsManager {
	endpoint := "https://secretsmanager." + cfg.Region + "." + dnsSuffix(cfg.Region)
	if u := ServiceEndpoint("SECRETS_MANAGER"); u != nil {
		endpoint = strings.TrimSuffix(*u, "/")
	}
	return &SecretsManager{cfg: cfg, endpoint: endpoint, client: &http.Client{Timeout: 10 * time.Second}, signer: v4.NewSigner()}
}

// dnsSuffix is the domain of AWS endpoints in region's partition: China's
// regions have their own; the functions run in no other special partition.
func dnsSuffix(region string) string {
	if strings.HasPrefix(region, "cn-") {
		return "amazonaws.com.cn"
	}
	return "amazonaws.com"
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
	for attempt := 1; ; attempt++ {
		value, retry, err := s.getSecretValue(ctx, body)
		if err == nil || !retry || attempt == secretsAttempts {
			return value, err
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(time.Duration(attempt) * 100 * time.Millisecond):
		}
	}
}

// getSecretValue makes one call; retry says whether another may succeed.
func (s *SecretsManager) getSecretValue(ctx context.Context, body []byte) (value string, retry bool, err error) {
	if s.cfg.Credentials == nil {
		return "", false, errors.New("secrets manager: no AWS credentials (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)")
	}
	creds, err := s.cfg.Credentials.Retrieve(ctx)
	if err != nil {
		return "", false, fmt.Errorf("secrets manager: credentials: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.endpoint+"/", bytes.NewReader(body))
	if err != nil {
		return "", false, err
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.1")
	req.Header.Set("X-Amz-Target", "secretsmanager.GetSecretValue")
	sum := sha256.Sum256(body)
	if err := s.signer.SignHTTP(ctx, creds, req, hex.EncodeToString(sum[:]), "secretsmanager", s.cfg.Region, time.Now()); err != nil {
		return "", false, fmt.Errorf("secrets manager: sign: %w", err)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return "", ctx.Err() == nil, fmt.Errorf("secrets manager: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return "", true, fmt.Errorf("secrets manager: read answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Type    string `json:"__type"`
			Message string `json:"message"`
		}
		_ = json.Unmarshal(raw, &e)
		// __type may carry a namespace: "com.amazonaws...#ThrottlingException".
		code := e.Type[strings.LastIndex(e.Type, "#")+1:]
		if code == "" {
			code, _, _ = strings.Cut(resp.Header.Get("X-Amzn-ErrorType"), ":")
		}
		retry := resp.StatusCode >= 500 || code == "ThrottlingException"
		return "", retry, &SecretError{Status: resp.StatusCode, Code: code, Message: e.Message}
	}
	var out struct {
		SecretString *string
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return "", false, fmt.Errorf("secrets manager: answer: %w", err)
	}
	if out.SecretString == nil {
		return "", false, errors.New("secrets manager: the secret has no string value")
	}
	return *out.SecretString, false, nil
}
