package authapi_test

import (
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/mail"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// sentMail is one message of the stack's local outbox, parsed with the
// standard library's RFC 5322 reader (not the product's own).
type sentMail struct {
	file    string
	header  mail.Header
	to      string
	subject string
	body    string
}

var emlName = regexp.MustCompile(`^\d{8}T\d{6}\.\d{9}Z-[0-9a-f]{16}\.eml$`)

// mails reads the outbox's .eml files for address to, oldest first.
func (s *stack) mails(to string) []sentMail {
	s.t.Helper()
	names, err := filepath.Glob(filepath.Join(s.mailDir, "*.eml"))
	if err != nil {
		s.t.Fatal(err)
	}
	slices.Sort(names)
	var out []sentMail
	for _, n := range names {
		if !emlName.MatchString(filepath.Base(n)) {
			s.t.Errorf("outbox file %q is not named <time>-<id>.eml", filepath.Base(n))
		}
		f, err := os.Open(n)
		if err != nil {
			s.t.Fatal(err)
		}
		msg, err := mail.ReadMessage(f)
		if err != nil {
			f.Close()
			s.t.Fatalf("%s is not an RFC 5322 message: %v", n, err)
		}
		body, _ := io.ReadAll(msg.Body)
		f.Close()
		addr, err := mail.ParseAddress(msg.Header.Get("To"))
		if err != nil {
			s.t.Fatalf("%s: To %q: %v", n, msg.Header.Get("To"), err)
		}
		subject, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
		if err != nil {
			s.t.Fatalf("%s: Subject: %v", n, err)
		}
		if strings.EqualFold(addr.Address, to) {
			out = append(out, sentMail{file: n, header: msg.Header, to: addr.Address, subject: subject, body: string(body)})
		}
	}
	return out
}

// lastLink is the token of the newest link to page in to's mail.
func (s *stack) lastLink(to, page string) string {
	s.t.Helper()
	ms := s.mails(to)
	for i := len(ms) - 1; i >= 0; i-- {
		if tok := linkToken(s.t, ms[i].body, page); tok != "" {
			return tok
		}
	}
	s.t.Fatalf("no mail to %s with a %s link (%d mails)", to, page, len(ms))
	return ""
}

var linkPattern = regexp.MustCompile(`https?://[^\s]+`)

// linkToken finds the link to page in a mail body and answers its token.
func linkToken(t *testing.T, body, page string) string {
	t.Helper()
	for _, raw := range linkPattern.FindAllString(body, -1) {
		u, err := url.Parse(raw)
		if err != nil || u.Path != page {
			continue
		}
		return u.Query().Get("token")
	}
	return ""
}

type verifiedJSON struct {
	Status string   `json:"status"`
	Detail string   `json:"detail"`
	User   userJSON `json:"user"`
}

// verify opens a confirmation link the way the /verify-email page does.
func (s *stack) verify(token string) verifiedJSON {
	s.t.Helper()
	return decodeAs[verifiedJSON](s.t, s.post("/api/v1/auth/verify-email", map[string]string{"token": token}), http.StatusOK)
}

// The verification mail, as the local outbox keeps it: a file
// DATA_DIR/mail/<time>-<id>.eml holding an RFC 5322 message with a
// text/plain part and the link, listed at /dev/mail.
func TestMailThroughTheLocalOutbox(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	before := time.Now().Add(-time.Second)
	reg := s.register(validRegistration())
	ms := s.mails("ada@example.com")
	if len(ms) != 1 {
		t.Fatalf("%d mails to ada after registering, want 1", len(ms))
	}
	m := ms[0]
	if from, err := mail.ParseAddress(m.header.Get("From")); err != nil || from.Address == "" {
		t.Errorf("From %q: %v", m.header.Get("From"), err)
	}
	if to, _ := mail.ParseAddress(m.header.Get("To")); to.Name != "Ada Lovelace" {
		t.Errorf("To %q, want the user's name and address", m.header.Get("To"))
	}
	if !strings.Contains(strings.ToLower(m.subject), "confirm") {
		t.Errorf("subject %q, want it to ask to confirm the address", m.subject)
	}
	if d, err := m.header.Date(); err != nil || d.Before(before) || d.After(time.Now().Add(time.Second)) {
		t.Errorf("Date %q: %v", m.header.Get("Date"), err)
	}
	if m.header.Get("Message-Id") == "" || m.header.Get("Mime-Version") != "1.0" {
		t.Errorf("headers %v lack Message-ID or MIME-Version", m.header)
	}
	if mt, params, err := mime.ParseMediaType(m.header.Get("Content-Type")); err != nil || mt != "text/plain" || params["charset"] != "utf-8" {
		t.Errorf("Content-Type %q, want text/plain; charset=utf-8", m.header.Get("Content-Type"))
	}
	if !strings.Contains(m.body, "\r\n") || strings.Contains(strings.ReplaceAll(m.body, "\r\n", ""), "\n") {
		t.Error("body lines do not end with CRLF")
	}
	// The link: the app's page on the address the browser used, with a
	// 32-byte base64url token.
	links := linkPattern.FindAllString(m.body, -1)
	if len(links) != 1 || !strings.HasPrefix(links[0], "http://example.com/verify-email?token=") {
		t.Fatalf("links %v, want one http://example.com/verify-email?token=…", links)
	}
	token := linkToken(t, m.body, "/verify-email")
	if len(token) != 43 || strings.ContainsAny(token, "+/=") {
		t.Errorf("token %q, want 43 base64url characters", token)
	}
	assertNoSecrets(t, m.body)

	// The token is stored hashed: no item of the table holds it in clear.
	out, err := s.st.DB().Scan(t.Context(), scanAll(s.st.Table()))
	if err != nil {
		t.Fatal(err)
	}
	if raw, _ := json.Marshal(out.Items); strings.Contains(string(raw), token) {
		t.Error("the table holds the verification token in clear")
	}

	// /dev/mail lists it, labelled as a local outbox, the link clickable;
	// a second mail (resend) comes first.
	decodeAs[map[string]string](t, s.do(req{method: http.MethodPost, path: "/api/v1/auth/resend-verification", token: reg.AccessToken}), http.StatusOK)
	page := s.get("/dev/mail", "")
	if page.Code != http.StatusOK || !strings.HasPrefix(page.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("/dev/mail = %d %q", page.Code, page.Header().Get("Content-Type"))
	}
	html := page.Body.String()
	if !strings.Contains(html, "Local outbox") || !strings.Contains(html, "no mail leaves this machine") {
		t.Error("/dev/mail is not labelled as a local outbox")
	}
	if !strings.Contains(html, `<a href="http://example.com/verify-email?token=`+token+`">`) {
		t.Errorf("/dev/mail has no clickable link with the first token")
	}
	list := decodeAs[[]struct {
		ID    string   `json:"id"`
		To    string   `json:"to"`
		Links []string `json:"links"`
	}](t, s.get("/dev/mail?format=json&to=ADA@example.com", ""), http.StatusOK)
	if len(list) != 2 || list[1].Links[0] != links[0] || list[0].Links[0] == links[0] {
		t.Fatalf("outbox listing %+v, want the resent mail first, then the first one", list)
	}
	raw := s.get("/dev/mail/"+list[1].ID, "")
	if raw.Code != http.StatusOK || !strings.Contains(raw.Body.String(), "Subject: ") {
		t.Errorf("raw message: %d %s", raw.Code, raw.Body.String())
	}
	for _, bad := range []string{"/dev/mail/..%2Fsecrets", "/dev/mail/nothing.eml", "/dev/mail/.hidden.eml"} {
		if w := s.get(bad, ""); w.Code != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", bad, w.Code)
		}
	}
}
