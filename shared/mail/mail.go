// Package mail sends the product's mail (email verification, password
// reset) through one Mailer: Amazon SES in AWS (mail/sesmail) and, on the
// local stack, an outbox of .eml files listed at /dev/mail (Outbox). Both
// send the same RFC 5322 message, built by Render.
package mail

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"mime"
	"net/mail"
	"strings"
	"time"

	"aiwork/shared/random"
)

// Message is one plain-text mail to one recipient.
type Message struct {
	To      string // address
	ToName  string // display name, optional
	Subject string
	Text    string // the text/plain body; lines end with \n
}

// Mailer sends a message from the configured sender.
type Mailer interface {
	Send(ctx context.Context, m Message) error
}

// ErrNotConfigured is what Disabled answers: the deployment has no sender.
var ErrNotConfigured = errors.New("mail is not configured (set MAIL_FROM)")

// ErrAddressRefused wraps a send refused for its recipient's address: not
// an address at all, or one the provider will not send to (SES answers
// "Illegal address"). Trying again cannot help; the address must change.
var ErrAddressRefused = errors.New("mail cannot be sent to this address")

// Disabled is the Mailer of a deployment without MAIL_FROM: every send
// fails with ErrNotConfigured, which callers log.
type Disabled struct{}

func (Disabled) Send(context.Context, Message) error { return ErrNotConfigured }

// Discard drops every message: stacks built for tests that read no mail.
type Discard struct{}

func (Discard) Send(context.Context, Message) error { return nil }

var (
	_ Mailer = Disabled{}
	_ Mailer = Discard{}
)

// ParseSender checks a MAIL_FROM value ("AIWork <no-reply@example.com>" or
// a bare address) and answers it as an address.
func ParseSender(from string) (*mail.Address, error) {
	a, err := mail.ParseAddress(from)
	if err != nil {
		return nil, fmt.Errorf("MAIL_FROM %q is not an email address: %w", from, err)
	}
	return a, nil
}

// Render builds the RFC 5322 message: headers (From, To, Subject, Date,
// Message-ID, MIME) and a text/plain UTF-8 body, CRLF line endings. The
// body goes as 8bit so that links stay whole when read raw. id becomes the
// Message-ID's left part.
func Render(from *mail.Address, m Message, now time.Time, id string) ([]byte, error) {
	to, err := mail.ParseAddress(m.To)
	if err != nil {
		return nil, fmt.Errorf("render mail: recipient: %w: %w", ErrAddressRefused, err)
	}
	to.Name = m.ToName
	if strings.ContainsAny(m.Subject, "\r\n") {
		return nil, errors.New("render mail: subject spans lines")
	}
	domain := from.Address[strings.LastIndex(from.Address, "@")+1:]
	var b bytes.Buffer
	header := func(k, v string) { b.WriteString(k + ": " + v + "\r\n") }
	header("From", from.String())
	header("To", to.String())
	header("Subject", mime.QEncoding.Encode("utf-8", m.Subject))
	header("Date", now.UTC().Format(time.RFC1123Z))
	header("Message-ID", "<"+id+"@"+domain+">")
	header("MIME-Version", "1.0")
	header("Content-Type", "text/plain; charset=utf-8")
	header("Content-Transfer-Encoding", "8bit")
	b.WriteString("\r\n")
	body := strings.ReplaceAll(strings.ReplaceAll(m.Text, "\r\n", "\n"), "\n", "\r\n")
	b.WriteString(body)
	if !strings.HasSuffix(body, "\r\n") {
		b.WriteString("\r\n")
	}
	return b.Bytes(), nil
}

// NewID is a random message id.
func NewID() string { return random.Hex(8) }
