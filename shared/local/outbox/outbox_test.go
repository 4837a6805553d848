package outbox_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"aiwork/shared/local/outbox"
	"aiwork/shared/mail"
)

func TestOutboxKeepsEachMailAsAFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mail")
	o, err := outbox.New(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	// Each mail a second after the last, so their order is known.
	at := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	o = o.WithClock(func() time.Time { at = at.Add(time.Second); return at })
	ctx := context.Background()
	for _, to := range []string{"a@example.com", "b@example.com", "a@example.com"} {
		if err := o.Send(ctx, mail.Message{To: to, Subject: "Hi " + to, Text: "see http://localhost:8080/x?token=1 now\n"}); err != nil {
			t.Fatal(err)
		}
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
	res, err := http.Get(srv.URL + outbox.Path)
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
		res, err := http.Get(srv.URL + outbox.Path + p)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode == http.StatusOK {
			t.Errorf("GET %s served a file outside the outbox", p)
		}
	}
}
