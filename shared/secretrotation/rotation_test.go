package secretrotation_test

import (
	"context"
	"testing"
	"time"

	"aiwork/shared/auth"
	"aiwork/shared/config"
	"aiwork/shared/secretrotation"
)

const firstKey = "FirstKey0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRS"

// rotate runs the four steps as Secrets Manager does, each twice (a step
// may be retried).
func rotate(t *testing.T, s *secretStore, r secretrotation.Rotator, token string) {
	t.Helper()
	s.startRotation(token)
	for _, step := range []string{"createSecret", "setSecret", "testSecret", "finishSecret"} {
		for range 2 {
			if err := r.Handle(context.Background(), secretrotation.Event{SecretID: s.arn, ClientRequestToken: token, Step: step}); err != nil {
				t.Fatalf("%s: %v", step, err)
			}
		}
	}
}

func TestRotationMakesANewCurrentKeyAndKeepsThePrevious(t *testing.T) {
	t.Parallel()
	s, client := newSecretStore(t, firstKey)
	r := secretrotation.Rotator{SM: client}
	rotate(t, s, r, "v1")
	current, previous := s.stageValue("AWSCURRENT"), s.stageValue("AWSPREVIOUS")
	if !secretrotation.ValidKey(current) || current == firstKey {
		t.Errorf("AWSCURRENT = %q, want a new 64-character key", current)
	}
	if previous != firstKey {
		t.Errorf("AWSPREVIOUS = %q, want the first key", previous)
	}
	if p := s.stageValue("AWSPENDING"); p != "" {
		t.Errorf("AWSPENDING still labels %q after the rotation", p)
	}
	rotate(t, s, r, "v2")
	if s.stageValue("AWSPREVIOUS") != current || s.stageValue("AWSCURRENT") == current {
		t.Error("the second rotation did not move the keys along")
	}
}

// createSecret retried (Secrets Manager retries failed steps) keeps the
// pending key it made; testSecret refuses a pending value that is not a key.
func TestRetriedCreateKeepsItsKeyAndTestRefusesABadOne(t *testing.T) {
	t.Parallel()
	s, client := newSecretStore(t, firstKey)
	r := secretrotation.Rotator{SM: client}
	s.startRotation("v1")
	ev := secretrotation.Event{SecretID: s.arn, ClientRequestToken: "v1", Step: "createSecret"}
	if err := r.Handle(context.Background(), ev); err != nil {
		t.Fatal(err)
	}
	pending := s.stageValue("AWSPENDING")
	if err := r.Handle(context.Background(), ev); err != nil {
		t.Fatal(err)
	}
	if got := s.stageValue("AWSPENDING"); got != pending || !secretrotation.ValidKey(got) {
		t.Errorf("pending key changed on retry: %q → %q", pending, got)
	}

	s.mu.Lock()
	s.values["v1"] = "short"
	s.mu.Unlock()
	ev.Step = "testSecret"
	if err := r.Handle(context.Background(), ev); err == nil {
		t.Error("testSecret passed a pending value that is not a key")
	}
	ev.ClientRequestToken, ev.Step = "not-a-version", "createSecret"
	if err := r.Handle(context.Background(), ev); err == nil {
		t.Error("a step for an unknown version succeeded")
	}
}

// End to end through the functions' own code path (config.JWTKeySource on
// JWT_SECRET_ARN, auth.Tokens): a rotation signs nobody out, on processes
// started before or after it, and a key two rotations old is refused.
func TestRotationSignsNobodyOut(t *testing.T) {
	s, client := newSecretStore(t, firstKey)
	t.Setenv("JWT_SECRET", "")
	t.Setenv("JWT_SECRET_ARN", s.arn)
	t.Setenv("AWS_ENDPOINT_URL_SECRETS_MANAGER", s.url)
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "secret")
	source := config.JWTKeySource(config.NewSecretsManager(config.AWS("us-east-1")))
	now := time.Now()
	clock := func() time.Time { return now }
	process := func() *auth.Tokens { // a function instance starting now
		current, _, err := source(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return auth.NewTokens(current, time.Hour).WithKeySource(source).WithClock(clock)
	}
	before := process()
	signedBefore, _ := before.Issue("ada")

	rotate(t, s, secretrotation.Rotator{SM: client}, "v1")
	after := process()
	if sub, err := after.Verify(signedBefore); err != nil || sub != "ada" {
		t.Errorf("token from before the rotation on a new instance: %q, %v", sub, err)
	}
	signedAfter, _ := after.Issue("bob")
	if sub, err := before.Verify(signedAfter); err != nil || sub != "bob" {
		t.Errorf("new key's token on an instance from before: %q, %v", sub, err)
	}

	rotate(t, s, secretrotation.Rotator{SM: client}, "v2")
	now = now.Add(time.Minute)
	if _, err := process().Verify(signedBefore); err == nil {
		t.Error("a token signed with a key two rotations old verified")
	}
	if sub, err := process().Verify(signedAfter); err != nil || sub != "bob" {
		t.Errorf("previous key's token after the second rotation: %q, %v", sub, err)
	}
}
