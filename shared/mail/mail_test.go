package mail_test

import (
	"context"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	netmail "net/mail"
	"os"
	"path/filepath"
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
	if _, err := mail.Render(from, mail.Message{To: "not an address", Subject: "s"}, now, "id"); err == nil {
		t.Error("a bad recipient was rendered")
	}
}

func TestOutboxKeepsEachMailAsAFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mail")
	o, err := mail.NewOutbox(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, to := range []string{"a@example.com", "b@example.com", "a@example.com"} {
		if err := o.Send(ctx, mail.Message{To: to, Subject: "Hi " + to, Text: "see http://localhost:8080/x?token=1 now\n"}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Millisecond)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.eml"))
	if len(files) != 3 {
		t.Fatalf("%d files, want 3", len(files))
	}
	if others, _ := filepath.Glob(filepath.Join(dir, ".*")); len(others) != 0 {
		t.Errorf("temporary files left: %v", others)
	}
	list, err := o.List("A@example.com")
	if err != nil || len(list) != 2 || list[0].ID <= list[1].ID {
		t.Fatalf("List(a) = %+v, %v; want a's 2 mails, newest first", list, err)
	}
	if len(list[0].Links) != 1 || list[0].Links[0] != "http://localhost:8080/x?token=1" {
		t.Errorf("links %v, want the one link", list[0].Links)
	}
	if !strings.Contains(list[0].From, "no-reply@aiwork.localhost") {
		t.Errorf("From %q, want the default local sender", list[0].From)
	}

	srv := httptest.NewServer(o.Handler())
	defer srv.Close()
	res, err := http.Get(srv.URL + mail.OutboxPath)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	html := string(page)
	if i, j := strings.Index(html, "Hi b@example.com"), strings.Index(html, "Hi a@example.com"); i < 0 || j < 0 || strings.LastIndex(html, "Hi a@example.com") < i {
		t.Errorf("page lists the mails out of order or not at all")
	}
	if !strings.Contains(html, `<a href="http://localhost:8080/x?token=1">`) {
		t.Error("page has no clickable link")
	}
	// Only .eml files of the outbox are served raw.
	secret := filepath.Join(filepath.Dir(dir), "secret.eml")
	if err := os.WriteFile(secret, []byte("Subject: secret\r\n\r\nx"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/..%2Fsecret.eml", "/%2E%2E/secret.eml", "/x.txt"} {
		res, err := http.Get(srv.URL + mail.OutboxPath + p)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode == http.StatusOK {
			t.Errorf("GET %s served a file outside the outbox", p)
		}
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
