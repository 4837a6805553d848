package awscall

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// Signer signs requests (SigV4) with a configuration's credentials for its
// region. Client.Do uses it; callers that send a request themselves use it
// directly: one whose answer is read as it streams (Bedrock's
// ConverseStream), which Do, reading answers whole, cannot serve.
type Signer struct {
	cfg aws.Config
	v4  *v4.Signer
}

// NewSigner signs with cfg's credentials, in cfg's region.
func NewSigner(cfg aws.Config) *Signer {
	return &Signer{cfg: cfg, v4: v4.NewSigner()}
}

// Sign signs r for service (the signing name: secretsmanager, bedrock…):
// it sets X-Amz-Date, Authorization and, when the credentials are
// temporary ones, X-Amz-Security-Token. body is r's body, whose hash the
// signature covers. Credentials are fetched on each call: the
// configuration's provider caches them and renews them before they expire.
func (s *Signer) Sign(ctx context.Context, r *http.Request, service string, body []byte) error {
	if s.cfg.Credentials == nil {
		return ErrNoCredentials
	}
	creds, err := s.cfg.Credentials.Retrieve(ctx)
	if err != nil {
		return fmt.Errorf("credentials: %w", err)
	}
	sum := sha256.Sum256(body)
	if err := s.v4.SignHTTP(ctx, creds, r, hex.EncodeToString(sum[:]), service, s.cfg.Region, time.Now()); err != nil {
		return fmt.Errorf("sign: %w", err)
	}
	return nil
}
