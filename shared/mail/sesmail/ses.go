// Package sesmail sends the product's mail through Amazon SES (API v2,
// SendEmail with raw content) in AWS. It lives apart from package mail so
// that only the functions that send mail (auth, admin) link it.
package sesmail

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/mail"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	"github.com/aws/aws-sdk-go-v2/service/sesv2/types"

	"aiwork/shared/config"
	aimail "aiwork/shared/mail"
)

// sendTimeout bounds one attempt of a send; the SDK's standard retryer
// tries a throttled or failed send again (3 attempts).
const sendTimeout = 10 * time.Second

// Sender sends each message as raw RFC 5322 (the same bytes the local
// outbox keeps) from the configured sender identity (MAIL_FROM).
type Sender struct {
	client *sesv2.Client
	from   *mail.Address
	now    func() time.Time
}

var _ aimail.Mailer = (*Sender)(nil)

// Mailer is the mail of a function that sends some: through SES from from
// (MAIL_FROM), or mail.Disabled, logged, when from is empty.
func Mailer(cfg aws.Config, from string) (aimail.Mailer, error) {
	if from == "" {
		slog.Warn("MAIL_FROM is not set: account mail (verification, password reset, a confirmation resent) cannot be sent")
		return aimail.Disabled{}, nil
	}
	return FromConfig(cfg, from)
}

// FromConfig sends with the function's AWS configuration, to the region's
// SES endpoint or AWS_ENDPOINT_URL_SESV2 when set (make run-lambda's
// stand-in), from the address in from ("Name <addr>" or "addr"), which
// must be a verified SES identity (the address or its domain).
func FromConfig(cfg aws.Config, from string) (*Sender, error) {
	a, err := aimail.ParseSender(from)
	if err != nil {
		return nil, err
	}
	client := sesv2.NewFromConfig(cfg, func(o *sesv2.Options) {
		if u := config.ServiceEndpoint("SESV2"); u != nil {
			o.BaseEndpoint = u
		}
		o.HTTPClient = awshttp.NewBuildableClient().WithTimeout(sendTimeout)
	})
	return &Sender{client: client, from: a, now: time.Now}, nil
}

// Send hands one message to SES.
func (s *Sender) Send(ctx context.Context, m aimail.Message) error {
	raw, err := aimail.Render(s.from, m, s.now(), aimail.NewID())
	if err != nil {
		return err
	}
	_, err = s.client.SendEmail(ctx, &sesv2.SendEmailInput{
		FromEmailAddress: aws.String(s.from.Address),
		Destination:      &types.Destination{ToAddresses: []string{m.To}},
		Content:          &types.EmailContent{Raw: &types.RawMessage{Data: raw}},
	})
	if refusedAddress(err) {
		return fmt.Errorf("ses send: %w: %w", aimail.ErrAddressRefused, err)
	}
	if err != nil {
		return fmt.Errorf("ses send: %w", err)
	}
	return nil
}

// refusedAddress: SES refuses a recipient it cannot send to with a
// BadRequestException naming the address or its domain ("Illegal address",
// "Missing final '@domain'", "Local address contains control or
// whitespace", "Domain ends with dot"). The sender's own identity is
// checked at start (ParseSender) and refused otherwise (MessageRejected,
// MailFromDomainNotVerifiedException), so these are the recipient's.
func refusedAddress(err error) bool {
	var bad *types.BadRequestException
	if !errors.As(err, &bad) {
		return false
	}
	m := strings.ToLower(bad.ErrorMessage())
	return strings.Contains(m, "address") || strings.Contains(m, "domain")
}
