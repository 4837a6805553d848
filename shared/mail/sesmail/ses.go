// Package sesmail sends the product's mail through Amazon SES (API v2) in
// AWS. It lives apart from package mail so that only the function that
// sends mail (auth) links the SES client.
package sesmail

import (
	"context"
	"fmt"
	"net/mail"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	"github.com/aws/aws-sdk-go-v2/service/sesv2/types"

	"aiwork/shared/config"
	aimail "aiwork/shared/mail"
)

// API is the part of the SES v2 client the sender uses.
type API interface {
	SendEmail(ctx context.Context, in *sesv2.SendEmailInput, opts ...func(*sesv2.Options)) (*sesv2.SendEmailOutput, error)
}

// Sender sends each message as raw RFC 5322 (the same bytes the local
// outbox keeps) from the configured sender identity (MAIL_FROM).
type Sender struct {
	api  API
	from *mail.Address
	now  func() time.Time
}

var _ aimail.Mailer = (*Sender)(nil)

// New sends from the address in from ("Name <addr>" or "addr"), which must
// be a verified SES identity (the address or its domain).
func New(api API, from string) (*Sender, error) {
	a, err := aimail.ParseSender(from)
	if err != nil {
		return nil, err
	}
	return &Sender{api: api, from: a, now: time.Now}, nil
}

// FromConfig builds the SES client from the function's AWS configuration.
func FromConfig(cfg aws.Config, from string) (*Sender, error) {
	return New(sesv2.NewFromConfig(cfg, func(o *sesv2.Options) { o.BaseEndpoint = config.ServiceEndpoint("SESV2") }), from)
}

// Send hands one message to SES.
func (s *Sender) Send(ctx context.Context, m aimail.Message) error {
	raw, err := aimail.Render(s.from, m, s.now(), aimail.NewID())
	if err != nil {
		return err
	}
	_, err = s.api.SendEmail(ctx, &sesv2.SendEmailInput{
		FromEmailAddress: aws.String(s.from.Address),
		Destination:      &types.Destination{ToAddresses: []string{m.To}},
		Content:          &types.EmailContent{Raw: &types.RawMessage{Data: raw}},
	})
	if err != nil {
		return fmt.Errorf("ses send: %w", err)
	}
	return nil
}
