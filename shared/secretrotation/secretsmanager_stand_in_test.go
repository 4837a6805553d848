package secretrotation_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
)

// secretStore stands in for Secrets Manager's JSON API (the four calls a
// rotation makes and the reads the functions make) for one secret, with
// its version stages, so the real SDK client and its wire format are used.
// AWS has no local Secrets Manager; DESIGN §12 allows no Docker.
type secretStore struct {
	mu     sync.Mutex
	arn    string
	url    string              // where the stand-in answers
	values map[string]string   // version id → value
	stages map[string][]string // version id → stages
}

func newSecretStore(t *testing.T, first string) (*secretStore, *secretsmanager.Client) {
	t.Helper()
	s := &secretStore{
		arn:    "arn:aws:secretsmanager:us-east-1:123456789012:secret:AIWork/JWT_SECRET-abc123",
		values: map[string]string{"v0": first},
		stages: map[string][]string{"v0": {"AWSCURRENT"}},
	}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	s.url = srv.URL
	client := secretsmanager.New(secretsmanager.Options{
		BaseEndpoint: aws.String(srv.URL), Region: "us-east-1",
		Credentials: credentials.NewStaticCredentialsProvider("AKIDTEST", "secret", ""),
	})
	return s, client
}

// startRotation is what RotateSecret does before calling the function: a
// new version id labelled AWSPENDING, without a value yet.
func (s *secretStore) startRotation(token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.moveStage("AWSPENDING", token)
}

// stageValue answers the value labelled stage ("" if none).
func (s *secretStore) stageValue(stage string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, st := range s.stages {
		if slices.Contains(st, stage) {
			return s.values[id]
		}
	}
	return ""
}

// moveStage labels version id with stage, taking it off any other version.
func (s *secretStore) moveStage(stage, id string) {
	for other, st := range s.stages {
		s.stages[other] = slices.DeleteFunc(st, func(x string) bool { return x == stage })
	}
	s.stages[id] = append(s.stages[id], stage)
}

func (s *secretStore) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	op := strings.TrimPrefix(r.Header.Get("X-Amz-Target"), "secretsmanager.")
	var in struct {
		SecretID            string   `json:"SecretId"`
		VersionID           string   `json:"VersionId"`
		VersionStage        string   `json:"VersionStage"`
		ClientRequestToken  string   `json:"ClientRequestToken"`
		SecretString        string   `json:"SecretString"`
		VersionStages       []string `json:"VersionStages"`
		MoveToVersionID     string   `json:"MoveToVersionId"`
		RemoveFromVersionID string   `json:"RemoveFromVersionId"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.SecretID != s.arn {
		fail(w, "ResourceNotFoundException", "Secrets Manager can't find the specified secret.")
		return
	}
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	switch op {
	case "DescribeSecret":
		_ = json.NewEncoder(w).Encode(map[string]any{"ARN": s.arn, "Name": "AIWork/JWT_SECRET", "RotationEnabled": true, "VersionIdsToStages": s.stages})
	case "GetSecretValue":
		id := in.VersionID
		if id == "" {
			stage := in.VersionStage
			if stage == "" {
				stage = "AWSCURRENT"
			}
			for v, st := range s.stages {
				if slices.Contains(st, stage) {
					id = v
				}
			}
		}
		value, ok := s.values[id]
		if !ok || (in.VersionStage != "" && !slices.Contains(s.stages[id], in.VersionStage)) {
			fail(w, "ResourceNotFoundException", "Secrets Manager can't find the specified secret value for staging label: "+in.VersionStage)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"ARN": s.arn, "VersionId": id, "SecretString": value, "VersionStages": s.stages[id]})
	case "PutSecretValue":
		if old, ok := s.values[in.ClientRequestToken]; ok && old != in.SecretString {
			fail(w, "ResourceExistsException", "You can't modify an existing version, you can only create a new version.")
			return
		}
		s.values[in.ClientRequestToken] = in.SecretString
		for _, stage := range in.VersionStages {
			s.moveStage(stage, in.ClientRequestToken)
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"ARN": s.arn, "VersionId": in.ClientRequestToken})
	case "UpdateSecretVersionStage":
		if in.VersionStage == "AWSCURRENT" {
			// Secrets Manager labels the version it replaces AWSPREVIOUS
			// and ends the rotation's AWSPENDING.
			s.moveStage("AWSPREVIOUS", in.RemoveFromVersionID)
			s.stages[in.MoveToVersionID] = slices.DeleteFunc(s.stages[in.MoveToVersionID], func(x string) bool { return x == "AWSPENDING" })
		}
		s.moveStage(in.VersionStage, in.MoveToVersionID)
		_ = json.NewEncoder(w).Encode(map[string]any{"ARN": s.arn})
	default:
		fail(w, "InvalidRequestException", "unsupported operation "+op)
	}
}

func fail(w http.ResponseWriter, typ, msg string) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	w.WriteHeader(http.StatusBadRequest)
	_ = json.NewEncoder(w).Encode(map[string]string{"__type": typ, "message": msg})
}
