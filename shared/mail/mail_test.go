package mail_test

import (
	"context"
	"errors"
	"io"
	"mime"
	netmail "net/mail"
	"strings"
	"testing"
	"time"

	"aiwork/shared/mail"
)

func TestRenderIsRFC5322PlainText(t *testing.T) {
	from, err := mail.ParseSender("AIWork <no-reply@example.com>")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	raw, err := mail.Render(from, mail.Message{
		To: "zoe@example.com", ToName: "Zoë \"Z\" Dupré\r\nBcc: evil@example.com", Subject: "Confirmez l’adresse",
		Text: "Hello,\n\nhttps://app.example.com/verify-email?token=abc_DEF-123\n",
	}, now, "0123456789abcdef")
	if err != nil {
		t.Fatal(err)
	}
	msg, err := netmail.ReadMessage(strings.NewReader(string(raw)))
	if err != nil {
		t.Fatalf("not RFC 5322: %v\n%s", err, raw)
	}
	h := msg.Header
	if h.Get("Bcc") != "" {
		t.Error("a display name injected a header")
	}
	to, err := netmail.ParseAddress(h.Get("To"))
	if err != nil || to.Address != "zoe@example.com" || !strings.HasPrefix(to.Name, "Zoë") {
		t.Errorf("To %q parses to %+v, %v", h.Get("To"), to, err)
	}
	if subject, err := new(mime.WordDecoder).DecodeHeader(h.Get("Subject")); err != nil || subject != "Confirmez l’adresse" {
		t.Errorf("Subject %q decodes to %q, %v", h.Get("Subject"), subject, err)
	}
	if d, err := h.Date(); err != nil || !d.Equal(now) {
		t.Errorf("Date %q: %v", h.Get("Date"), err)
	}
	if got := h.Get("Message-Id"); got != "<0123456789abcdef@example.com>" {
		t.Errorf("Message-ID = %q", got)
	}
	if h.Get("Content-Type") != "text/plain; charset=utf-8" || h.Get("Content-Transfer-Encoding") != "8bit" {
		t.Errorf("MIME headers %q, %q", h.Get("Content-Type"), h.Get("Content-Transfer-Encoding"))
	}
	body, _ := io.ReadAll(msg.Body)
	if string(body) != "Hello,\r\n\r\nhttps://app.example.com/verify-email?token=abc_DEF-123\r\n" {
		t.Errorf("body %q, want the text with CRLF line ends and the link whole", body)
	}
	if _, err := mail.Render(from, mail.Message{To: "zoe@example.com", Subject: "a\r\nBcc: x@example.com"}, now, "id"); err == nil {
		t.Error("a subject over two lines was rendered")
	}
	if _, err := mail.Render(from, mail.Message{To: "not an address", Subject: "s"}, now, "id"); !errors.Is(err, mail.ErrAddressRefused) {
		t.Errorf("a bad recipient: %v, want ErrAddressRefused", err)
	}
}

func TestDisabledMailerSaysWhy(t *testing.T) {
	if err := (mail.Disabled{}).Send(context.Background(), mail.Message{To: "a@example.com"}); err != mail.ErrNotConfigured {
		t.Errorf("Disabled.Send = %v, want ErrNotConfigured", err)
	}
	if _, err := mail.ParseSender("not an address"); err == nil {
		t.Error("ParseSender accepted a bad MAIL_FROM")
	}
}
