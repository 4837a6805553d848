// Package secretrotation rotates the JWT signing key: the four steps of a
// Secrets Manager rotation function (createSecret, setSecret, testSecret,
// finishSecret) for a secret whose value is a random key only our
// functions use. The old key stays readable as AWSPREVIOUS, which the
// functions still accept (auth.Tokens), so a rotation signs nobody out.
package secretrotation

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager/types"
)

// Event is what Secrets Manager sends the rotation function, once per step.
type Event struct {
	SecretID           string `json:"SecretId"`
	ClientRequestToken string `json:"ClientRequestToken"`
	Step               string `json:"Step"`
}

// Client is the part of Secrets Manager a rotation uses.
type Client interface {
	DescribeSecret(ctx context.Context, in *secretsmanager.DescribeSecretInput, opts ...func(*secretsmanager.Options)) (*secretsmanager.DescribeSecretOutput, error)
	GetSecretValue(ctx context.Context, in *secretsmanager.GetSecretValueInput, opts ...func(*secretsmanager.Options)) (*secretsmanager.GetSecretValueOutput, error)
	PutSecretValue(ctx context.Context, in *secretsmanager.PutSecretValueInput, opts ...func(*secretsmanager.Options)) (*secretsmanager.PutSecretValueOutput, error)
	UpdateSecretVersionStage(ctx context.Context, in *secretsmanager.UpdateSecretVersionStageInput, opts ...func(*secretsmanager.Options)) (*secretsmanager.UpdateSecretVersionStageOutput, error)
}

// Version stages Secrets Manager moves between versions.
const (
	stageCurrent = "AWSCURRENT"
	stagePending = "AWSPENDING"
)

// KeyLength and keyAlphabet: a new key is 64 letters and digits (about 380
// bits), as the stack generates the first one.
const (
	KeyLength   = 64
	keyAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
)

// Rotator runs the steps against one Secrets Manager client.
type Rotator struct{ SM Client }

// Handle runs one step of a rotation.
func (r Rotator) Handle(ctx context.Context, ev Event) error {
	desc, err := r.SM.DescribeSecret(ctx, &secretsmanager.DescribeSecretInput{SecretId: aws.String(ev.SecretID)})
	if err != nil {
		return fmt.Errorf("describe secret: %w", err)
	}
	stages, ok := desc.VersionIdsToStages[ev.ClientRequestToken]
	switch {
	case !ok:
		return fmt.Errorf("version %s is not a version of the secret", ev.ClientRequestToken)
	case slices.Contains(stages, stageCurrent):
		slog.InfoContext(ctx, "version is already current", "step", ev.Step)
		return nil
	case !slices.Contains(stages, stagePending):
		return fmt.Errorf("version %s is not pending rotation", ev.ClientRequestToken)
	}
	switch ev.Step {
	case "createSecret":
		return r.create(ctx, ev)
	case "setSecret":
		return nil // no other system holds the key: nothing to set
	case "testSecret":
		return r.test(ctx, ev)
	case "finishSecret":
		return r.finish(ctx, ev, desc.VersionIdsToStages)
	}
	return fmt.Errorf("unknown rotation step %q", ev.Step)
}

// create stores a new random key as the pending version (once: a retried
// step finds it there).
func (r Rotator) create(ctx context.Context, ev Event) error {
	if _, err := r.SM.GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: aws.String(ev.SecretID), VersionStage: aws.String(stageCurrent)}); err != nil {
		return fmt.Errorf("read the current key: %w", err)
	}
	_, err := r.SM.GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{
		SecretId: aws.String(ev.SecretID), VersionId: aws.String(ev.ClientRequestToken), VersionStage: aws.String(stagePending),
	})
	var missing *types.ResourceNotFoundException
	if err == nil {
		return nil
	}
	if !errors.As(err, &missing) {
		return fmt.Errorf("read the pending key: %w", err)
	}
	key, err := NewKey()
	if err != nil {
		return err
	}
	if _, err := r.SM.PutSecretValue(ctx, &secretsmanager.PutSecretValueInput{
		SecretId: aws.String(ev.SecretID), ClientRequestToken: aws.String(ev.ClientRequestToken),
		SecretString: aws.String(key), VersionStages: []string{stagePending},
	}); err != nil {
		return fmt.Errorf("store the new key: %w", err)
	}
	return nil
}

// test checks that the pending key is one the functions will sign with.
func (r Rotator) test(ctx context.Context, ev Event) error {
	out, err := r.SM.GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{
		SecretId: aws.String(ev.SecretID), VersionId: aws.String(ev.ClientRequestToken), VersionStage: aws.String(stagePending),
	})
	if err != nil {
		return fmt.Errorf("read the pending key: %w", err)
	}
	if !ValidKey(aws.ToString(out.SecretString)) {
		return errors.New("the pending key is not 64 letters and digits")
	}
	return nil
}

// finish makes the pending version current; Secrets Manager labels the
// version it replaces AWSPREVIOUS.
func (r Rotator) finish(ctx context.Context, ev Event, versions map[string][]string) error {
	current := ""
	for id, stages := range versions {
		if slices.Contains(stages, stageCurrent) {
			current = id
		}
	}
	if _, err := r.SM.UpdateSecretVersionStage(ctx, &secretsmanager.UpdateSecretVersionStageInput{
		SecretId: aws.String(ev.SecretID), VersionStage: aws.String(stageCurrent),
		MoveToVersionId: aws.String(ev.ClientRequestToken), RemoveFromVersionId: aws.String(current),
	}); err != nil {
		return fmt.Errorf("make the new key current: %w", err)
	}
	slog.InfoContext(ctx, "JWT signing key rotated", "version", ev.ClientRequestToken, "previous", current)
	return nil
}

// NewKey is a random key of KeyLength letters and digits.
func NewKey() (string, error) {
	b := make([]byte, KeyLength)
	limit := big.NewInt(int64(len(keyAlphabet)))
	for i := range b {
		n, err := rand.Int(rand.Reader, limit)
		if err != nil {
			return "", fmt.Errorf("new key: %w", err)
		}
		b[i] = keyAlphabet[n.Int64()]
	}
	return string(b), nil
}

// ValidKey reports whether s is a key NewKey could have made.
func ValidKey(s string) bool {
	if len(s) != KeyLength {
		return false
	}
	for _, c := range []byte(s) {
		if !slices.Contains([]byte(keyAlphabet), c) {
			return false
		}
	}
	return true
}
