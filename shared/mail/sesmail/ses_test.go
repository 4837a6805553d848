package sesmail_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	netmail "net/mail"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"

	"aiwork/shared/config"
	"aiwork/shared/mail"
	"aiwork/shared/mail/sesmail"
)

// The sender against a server speaking SES v2's REST wire format: one
// signed POST /v2/email/outbound-emails with the raw RFC 5322 message.
func TestSendsRawMailThroughSESv2(t *testing.T) {
	var got struct {
		FromEmailAddress string
		Destination      struct{ ToAddresses []string }
		Content          struct{ Raw struct{ Data string } }
	}
	var auth, path, method string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		method, path, auth = r.Method, r.URL.Path, r.Header.Get("Authorization")
		body, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(body, &got); err != nil {
			t.Errorf("request body %s: %v", body, err)
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"MessageId":"0100018f-test"}`))
	}))
	defer srv.Close()
	t.Setenv("AWS_ACCESS_KEY_ID", "AKID")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "SECRET")
	t.Setenv("AWS_ENDPOINT_URL_SESV2", srv.URL)
	s, err := sesmail.FromConfig(config.AWS("eu-west-1"), "AIWork <no-reply@mail.example.com>")
	if err != nil {
		t.Fatal(err)
	}
	link := "https://app.example.com/reset-password?token=abcDEF_123-xyz"
	if err := s.Send(context.Background(), mail.Message{To: "ada@example.com", ToName: "Ada", Subject: "Reset your password", Text: "Open " + link + "\n"}); err != nil {
		t.Fatal(err)
	}
	if method != http.MethodPost || path != "/v2/email/outbound-emails" || !strings.Contains(auth, "AWS4-HMAC-SHA256") || !strings.Contains(auth, "/eu-west-1/ses/aws4_request") {
		t.Errorf("request %s %s with Authorization %q, want a signed SES v2 SendEmail", method, path, auth)
	}
	if got.FromEmailAddress != "no-reply@mail.example.com" || len(got.Destination.ToAddresses) != 1 || got.Destination.ToAddresses[0] != "ada@example.com" {
		t.Errorf("from %q to %v", got.FromEmailAddress, got.Destination.ToAddresses)
	}
	raw, err := base64.StdEncoding.DecodeString(got.Content.Raw.Data)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := netmail.ReadMessage(strings.NewReader(string(raw)))
	if err != nil {
		t.Fatalf("raw message: %v", err)
	}
	body, _ := io.ReadAll(msg.Body)
	if msg.Header.Get("Subject") != "Reset your password" || !strings.Contains(string(body), link) {
		t.Errorf("raw message %s", raw)
	}

	// An SES refusal is an error for the caller to report.
	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("x-amzn-ErrorType", "MessageRejected")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"message":"Email address is not verified."}`))
	}))
	defer bad.Close()
	t.Setenv("AWS_ENDPOINT_URL_SESV2", bad.URL)
	s2, _ := sesmail.FromConfig(config.AWS("eu-west-1"), "no-reply@mail.example.com")
	if err := s2.Send(context.Background(), mail.Message{To: "ada@example.com", Subject: "s", Text: "t"}); err == nil || !strings.Contains(err.Error(), "not verified") {
		t.Errorf("refused send = %v, want SES's reason", err)
	}
}

// A throttled send is tried again (the SDK's standard retryer) and goes
// through once SES takes it.
func TestThrottledSendIsTriedAgain(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if calls.Add(1) == 1 {
			w.Header().Set("x-amzn-ErrorType", "TooManyRequestsException")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`{"message":"Maximum sending rate exceeded."}`))
			return
		}
		_, _ = w.Write([]byte(`{"MessageId":"0100018f-test"}`))
	}))
	defer srv.Close()
	t.Setenv("AWS_ACCESS_KEY_ID", "AKID")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "SECRET")
	t.Setenv("AWS_ENDPOINT_URL_SESV2", srv.URL)
	cfg := config.AWS("eu-west-1")
	cfg.Retryer = func() aws.Retryer { return retry.AddWithMaxBackoffDelay(retry.NewStandard(), time.Millisecond) }
	s, err := sesmail.FromConfig(cfg, "no-reply@mail.example.com")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(context.Background(), mail.Message{To: "ada@example.com", Subject: "s", Text: "t"}); err != nil || calls.Load() != 2 {
		t.Errorf("throttled send = %v after %d calls; want sent after 2", err, calls.Load())
	}
}

// Without MAIL_FROM a function's mail is disabled: every send says so.
func TestMailerWithoutSender(t *testing.T) {
	m, err := sesmail.Mailer(config.AWS("eu-west-1"), "")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Send(context.Background(), mail.Message{To: "ada@example.com", Subject: "s", Text: "t"}); err != mail.ErrNotConfigured {
		t.Errorf("send without MAIL_FROM = %v, want %v", err, mail.ErrNotConfigured)
	}
	if _, err := sesmail.Mailer(config.AWS("eu-west-1"), "not an address"); err == nil {
		t.Error("a MAIL_FROM that is no address: no error")
	}
}

// SES refusing the recipient's address ("Illegal address", a 400
// BadRequestException) is told apart from a failure worth retrying
// (mail.ErrAddressRefused); its other refusals are not.
func TestRefusedAddressIsToldApart(t *testing.T) {
	for _, tt := range []struct {
		kind, message string
		refused       bool
	}{
		{"BadRequestException", "Illegal address", true},
		{"BadRequestException", "Missing final '@domain'", true},
		{"BadRequestException", "Domain ends with dot", true},
		{"BadRequestException", "Illegal header.", false},
		{"MessageRejected", "Email address is not verified.", false},
	} {
		t.Run(tt.message, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.Header().Set("x-amzn-ErrorType", tt.kind)
				w.WriteHeader(http.StatusBadRequest)
				_, _ = w.Write([]byte(`{"message":"` + tt.message + `"}`))
			}))
			defer srv.Close()
			t.Setenv("AWS_ACCESS_KEY_ID", "AKID")
			t.Setenv("AWS_SECRET_ACCESS_KEY", "SECRET")
			t.Setenv("AWS_ENDPOINT_URL_SESV2", srv.URL)
			s, err := sesmail.FromConfig(config.AWS("eu-west-1"), "no-reply@mail.example.com")
			if err != nil {
				t.Fatal(err)
			}
			err = s.Send(context.Background(), mail.Message{To: "ada@example.com", Subject: "s", Text: "t"})
			if err == nil || errors.Is(err, mail.ErrAddressRefused) != tt.refused {
				t.Errorf("send = %v; refused address %v, want %v", err, errors.Is(err, mail.ErrAddressRefused), tt.refused)
			}
		})
	}
}
