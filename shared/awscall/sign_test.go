package awscall_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"

	"aiwork/shared/awscall"
)

// PathLabel escapes as the SDKs do a path label: all but the unreserved.
func TestPathLabel(t *testing.T) {
	for in, want := range map[string]string{
		"meta.llama3-1-8b-instruct-v1:0": "meta.llama3-1-8b-instruct-v1%3A0",
		"arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.meta.llama3-3-70b-instruct-v1:0": "arn%3Aaws%3Abedrock%3Aus-east-1%3A123456789012%3Ainference-profile%2Fus.meta.llama3-3-70b-instruct-v1%3A0",
		"a b+c~d_e?f#g%h": "a%20b%2Bc~d_e%3Ff%23g%25h",
		"é":               "%C3%A9",
	} {
		if got := awscall.PathLabel(in); got != want {
			t.Errorf("PathLabel(%q) = %q, want %q", in, got, want)
		}
	}
}

// Sign signs for the service and region, with the session token of
// temporary credentials, and refuses to sign without credentials.
func TestSign(t *testing.T) {
	for _, token := range []string{"", "session/token+="} {
		cfg := aws.Config{Region: "eu-west-3", Credentials: credentials.NewStaticCredentialsProvider("AKIDTEST", "secret", token)}
		r, _ := http.NewRequest(http.MethodPost, "https://bedrock-runtime.eu-west-3.amazonaws.com/model/m%3A0/converse-stream", strings.NewReader("{}"))
		if err := awscall.NewSigner(cfg).Sign(t.Context(), r, "bedrock", []byte("{}")); err != nil {
			t.Fatal(err)
		}
		auth := r.Header.Get("Authorization")
		if !strings.HasPrefix(auth, "AWS4-HMAC-SHA256 Credential=AKIDTEST/") || !strings.Contains(auth, "/eu-west-3/bedrock/aws4_request, ") || r.Header.Get("X-Amz-Date") == "" {
			t.Errorf("Authorization = %q, X-Amz-Date %q: want a SigV4 signature for bedrock in eu-west-3", auth, r.Header.Get("X-Amz-Date"))
		}
		if got := r.Header.Get("X-Amz-Security-Token"); got != token || strings.Contains(auth, "x-amz-security-token") != (token != "") {
			t.Errorf("X-Amz-Security-Token = %q (Authorization %q), want %q, signed", got, auth, token)
		}
	}
	r, _ := http.NewRequest(http.MethodPost, "https://example.com/", nil)
	if err := awscall.NewSigner(aws.Config{Region: "eu-west-3"}).Sign(t.Context(), r, "bedrock", nil); !errors.Is(err, awscall.ErrNoCredentials) {
		t.Errorf("Sign without credentials: %v, want ErrNoCredentials", err)
	}
}
