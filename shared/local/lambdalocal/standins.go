package lambdalocal

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
)

// The AWS services the functions call that have no local equivalent are
// served by stand-ins speaking their wire protocol, so each function reads
// and sends through its real code path (config.Secret, config.JWTKeySource,
// sesmail) with only an endpoint variable pointing here. DynamoDB has a
// real local engine (dynalite) instead.

// SecretsManager answers GetSecretValue (the only call the functions make)
// for the secrets it holds, AWSCURRENT only: a secret never rotated has no
// AWSPREVIOUS, as in AWS. The functions reach it through
// AWS_ENDPOINT_URL_SECRETS_MANAGER and find each secret by its <NAME>_ARN.
type SecretsManager struct {
	mu     sync.Mutex
	values map[string]string // ARN → value
}

// SecretARN is the local ARN of secret name.
func SecretARN(name string) string {
	return "arn:aws:secretsmanager:us-east-1:000000000000:secret:aiwork/" + name + "-local"
}

// Put stores value under name and answers its ARN.
func (s *SecretsManager) Put(name, value string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.values == nil {
		s.values = map[string]string{}
	}
	arn := SecretARN(name)
	s.values[arn] = value
	return arn
}

func (s *SecretsManager) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if op := r.Header.Get("X-Amz-Target"); op != "secretsmanager.GetSecretValue" {
		awsJSONError(w, http.StatusBadRequest, "UnsupportedOperation", "the local Secrets Manager answers GetSecretValue only, not "+op)
		return
	}
	var in struct {
		SecretID     string `json:"SecretId"`
		VersionStage string `json:"VersionStage"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 64<<10)).Decode(&in); err != nil {
		awsJSONError(w, http.StatusBadRequest, "InvalidRequestException", "malformed request")
		return
	}
	s.mu.Lock()
	value, ok := s.values[in.SecretID]
	s.mu.Unlock()
	if !ok || (in.VersionStage != "" && in.VersionStage != "AWSCURRENT") {
		awsJSONError(w, http.StatusBadRequest, "ResourceNotFoundException", "Secrets Manager can't find the specified secret.")
		return
	}
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	_ = json.NewEncoder(w).Encode(map[string]any{"ARN": in.SecretID, "Name": in.SecretID,
		"VersionId": "local-1", "SecretString": value, "VersionStages": []string{"AWSCURRENT"}})
}

func awsJSONError(w http.ResponseWriter, status int, kind, msg string) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	w.Header().Set("X-Amzn-ErrorType", kind)
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"__type": kind, "message": msg})
}

// SES answers SES v2 SendEmail with raw content (what sesmail sends) by
// handing the message to Deliver: the local outbox, listed at /dev/mail.
// The auth function reaches it through AWS_ENDPOINT_URL_SESV2.
type SES struct {
	Deliver func(raw []byte) error
}

func (s *SES) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/v2/email/outbound-emails") {
		restJSONError(w, http.StatusNotFound, "NotFoundException", "the local SES answers SendEmail only")
		return
	}
	var in struct {
		Content struct {
			Raw *struct{ Data string }
		}
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 10<<20)).Decode(&in); err != nil || in.Content.Raw == nil {
		restJSONError(w, http.StatusBadRequest, "BadRequestException", "the local SES takes raw messages only")
		return
	}
	raw, err := base64.StdEncoding.DecodeString(in.Content.Raw.Data)
	if err != nil {
		restJSONError(w, http.StatusBadRequest, "BadRequestException", "Content.Raw.Data is not base64")
		return
	}
	if err := s.Deliver(raw); err != nil {
		restJSONError(w, http.StatusInternalServerError, "InternalServiceErrorException", err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]string{"MessageId": newRequestID()})
}

func restJSONError(w http.ResponseWriter, status int, kind, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Amzn-ErrorType", kind)
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"message": msg})
}
