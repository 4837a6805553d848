// Package sesmail sends the product's mail through Amazon SES (API v2) in
// AWS. It lives apart from package mail so that only the functions that
// send mail (auth, admin) link it. Its one call, SendEmail, is signed and
// sent by shared/awscall rather than the SDK's sesv2 client, whose endpoint
// tables are built at every cold start (DESIGN §10 Lambda init).
package sesmail

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/mail"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"aiwork/shared/awscall"
	aimail "aiwork/shared/mail"
)

// sendAttempts bounds the tries of one mail (a throttled or failed answer
// is tried again, as the SDK's standard retryer did).
const sendAttempts = 3

// Sender sends each message as raw RFC 5322 (the same bytes the local
// outbox keeps) from the configured sender identity (MAIL_FROM).
type Sender struct {
	call *awscall.Client
	url  string
	from *mail.Address
	now  func() time.Time
}

var _ aimail.Mailer = (*Sender)(nil)

// FromConfig sends with the function's AWS configuration, to the region's
// SES endpoint or AWS_ENDPOINT_URL_SESV2 when set (make run-lambda's
// stand-in), from the address in from ("Name <addr>" or "addr"), which
// must be a verified SES identity (the address or its domain).
func FromConfig(cfg aws.Config, from string) (*Sender, error) {
	a, err := aimail.ParseSender(from)
	if err != nil {
		return nil, err
	}
	return &Sender{call: awscall.New(cfg, 10*time.Second), url: awscall.Endpoint(cfg.Region, "email", "SESV2") + "/v2/email/outbound-emails",
		from: a, now: time.Now}, nil
}

// sendEmail is SES v2's SendEmail request with raw content.
type sendEmail struct {
	FromEmailAddress string
	Destination      struct{ ToAddresses []string }
	Content          struct{ Raw struct{ Data []byte } } // base64 in JSON, as the API wants
}

// Send hands one message to SES.
func (s *Sender) Send(ctx context.Context, m aimail.Message) error {
	raw, err := aimail.Render(s.from, m, s.now(), aimail.NewID())
	if err != nil {
		return err
	}
	var in sendEmail
	in.FromEmailAddress, in.Destination.ToAddresses, in.Content.Raw.Data = s.from.Address, []string{m.To}, raw
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	ans, err := s.call.DoRetrying(ctx, awscall.Request{Service: "ses", Method: http.MethodPost, URL: s.url, Body: body,
		Header: http.Header{"Content-Type": {"application/json"}}}, sendAttempts)
	if err != nil {
		return fmt.Errorf("ses send: %w", err)
	}
	if e := ans.Err(); e != nil {
		return fmt.Errorf("ses send: %w", e)
	}
	return nil
}
