package config_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"

	"aiwork/shared/config"
	"aiwork/shared/local/lambdalocal"
)

// secretsManager serves h as the Secrets Manager endpoint of a client with
// static credentials.
func secretsManager(t *testing.T, h http.Handler) *config.SecretsManager {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	t.Setenv("AWS_ENDPOINT_URL_SECRETS_MANAGER", srv.URL)
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "secret-test")
	return config.NewSecretsManager(quickRetries(config.AWS("us-east-1")))
}

// quickRetries is cfg with the SDK's standard retryer waiting at most a
// millisecond between attempts.
func quickRetries(cfg aws.Config) aws.Config {
	cfg.Retryer = func() aws.Retryer { return retry.AddWithMaxBackoffDelay(retry.NewStandard(), time.Millisecond) }
	return cfg
}

func TestSecretsManagerReadsSignedFromTheStandIn(t *testing.T) {
	standIn := &lambdalocal.SecretsManager{}
	arn := standIn.Put("JWT_SECRET", "value-1")
	var auth atomic.Value
	sm := secretsManager(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth.Store(r.Header.Get("Authorization"))
		standIn.ServeHTTP(w, r)
	}))
	ctx := context.Background()

	got, err := sm.SecretValue(ctx, arn, "")
	if err != nil || got != "value-1" {
		t.Fatalf("SecretValue(current) = %q, %v; want value-1", got, err)
	}
	if a, _ := auth.Load().(string); !strings.HasPrefix(a, "AWS4-HMAC-SHA256 Credential=AKIDTEST/") || !strings.Contains(a, "/us-east-1/secretsmanager/aws4_request") {
		t.Errorf("Authorization = %q; want a SigV4 signature for secretsmanager in us-east-1", a)
	}
	for _, c := range []struct{ arn, stage string }{{arn, "AWSPREVIOUS"}, {lambdalocal.SecretARN("MISSING"), ""}} {
		_, err := sm.SecretValue(ctx, c.arn, c.stage)
		if !config.SecretNotFound(err) {
			t.Errorf("SecretValue(%s, %q) error = %v; want ResourceNotFoundException", c.arn, c.stage, err)
		}
	}
}

func TestSecretsManagerTriesAgainAfterAFailedAnswer(t *testing.T) {
	standIn := &lambdalocal.SecretsManager{}
	arn := standIn.Put("ORIGIN_SECRET", "value-2")
	var calls atomic.Int32
	sm := secretsManager(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		standIn.ServeHTTP(w, r)
	}))

	got, err := sm.SecretValue(context.Background(), arn, "")
	if err != nil || got != "value-2" || calls.Load() != 2 {
		t.Errorf("SecretValue = %q, %v after %d calls; want value-2 after 2", got, err, calls.Load())
	}
}
