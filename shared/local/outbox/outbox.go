// Package outbox is the local stack's mail: messages kept as files and
// listed on a devserver page. Lambda never links it (its page template
// would cost every function start-up; docs/benchmarks.md).
package outbox

import (
	"context"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"mime"
	"net/http"
	netmail "net/mail"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"aiwork/shared/mail"
)

// Path is where the devserver lists the local outbox.
const Path = "/dev/mail"

// DefaultLocalSender signs the local outbox's mail when MAIL_FROM is unset.
const DefaultLocalSender = "AIWork <no-reply@aiwork.localhost>"

// Outbox is the local stack's Mailer: nothing is sent; each message is
// written to dir/<time>-<id>.eml, exactly the bytes SES would send, and
// listed at Path.
type Outbox struct {
	dir  string
	from *netmail.Address
	now  func() time.Time
}

var _ mail.Mailer = (*Outbox)(nil)

// New keeps mail in dir (created when missing) from sender from
// (DefaultLocalSender when empty).
func New(dir, from string) (*Outbox, error) {
	if from == "" {
		from = DefaultLocalSender
	}
	a, err := mail.ParseSender(from)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("mail outbox: %w", err)
	}
	return &Outbox{dir: dir, from: a, now: time.Now}, nil
}

// WithClock replaces the clock that names and orders the files (tests).
func (o *Outbox) WithClock(now func() time.Time) *Outbox {
	c := *o
	c.now = now
	return &c
}

// Dir is where the .eml files are.
func (o *Outbox) Dir() string { return o.dir }

// Send writes the message as a new .eml file (written aside, then renamed,
// so a reader never sees half a message).
func (o *Outbox) Send(_ context.Context, m mail.Message) error {
	now, id := o.now().UTC(), mail.NewID()
	raw, err := mail.Render(o.from, m, now, id)
	if err != nil {
		return err
	}
	return o.write(now.Format("20060102T150405.000000000Z")+"-"+id+".eml", raw)
}

func (o *Outbox) write(name string, raw []byte) error {
	tmp := filepath.Join(o.dir, "."+name+".tmp")
	if err := os.WriteFile(tmp, raw, 0o600); err != nil {
		return fmt.Errorf("mail outbox: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(o.dir, name)); err != nil {
		return fmt.Errorf("mail outbox: %w", err)
	}
	return nil
}

// SendRaw writes an already rendered message (what SES receives), as Send.
func (o *Outbox) SendRaw(raw []byte) error {
	now, id := o.now().UTC(), mail.NewID()
	return o.write(now.Format("20060102T150405.000000000Z")+"-"+id+".eml", raw)
}

// Mail is one message of the outbox as read back.
type Mail struct {
	ID      string    `json:"id"` // the file name
	Date    time.Time `json:"date"`
	From    string    `json:"from"`
	To      string    `json:"to"` // the address
	Subject string    `json:"subject"`
	Text    string    `json:"text"`
	Links   []string  `json:"links"`
}

var linkPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`https?://[^\s<>"]+`) })

// Read parses one .eml file.
func Read(path string) (Mail, error) {
	f, err := os.Open(path)
	if err != nil {
		return Mail{}, err
	}
	defer f.Close()
	msg, err := netmail.ReadMessage(f)
	if err != nil {
		return Mail{}, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	body, err := io.ReadAll(msg.Body)
	if err != nil {
		return Mail{}, err
	}
	var dec mime.WordDecoder
	subject, err := dec.DecodeHeader(msg.Header.Get("Subject"))
	if err != nil {
		subject = msg.Header.Get("Subject")
	}
	m := Mail{ID: filepath.Base(path), From: msg.Header.Get("From"), Subject: subject,
		Text: strings.ReplaceAll(string(body), "\r\n", "\n")}
	if to, err := netmail.ParseAddress(msg.Header.Get("To")); err == nil {
		m.To = to.Address
	}
	if d, err := msg.Header.Date(); err == nil {
		m.Date = d
	}
	m.Links = linkPattern().FindAllString(m.Text, -1)
	if m.Links == nil {
		m.Links = []string{}
	}
	return m, nil
}

// List reads the outbox, newest first; to ("" for all) keeps the mail of
// one recipient.
func (o *Outbox) List(to string) ([]Mail, error) {
	names, err := filepath.Glob(filepath.Join(o.dir, "*.eml"))
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	slices.Reverse(names) // names start with the time: newest first
	out := []Mail{}
	for _, n := range names {
		m, err := Read(n)
		if err != nil {
			continue // a file someone dropped there
		}
		if to == "" || strings.EqualFold(m.To, to) {
			out = append(out, m)
		}
	}
	return out, nil
}

// Handler serves the outbox on the devserver (never in Lambda):
//
//	GET /dev/mail               the page, newest first, links clickable
//	GET /dev/mail?format=json   the same as JSON ([]Mail), ?to= filters
//	GET /dev/mail/{id}          one message as raw RFC 5322 text
func (o *Outbox) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+Path, o.list)
	mux.HandleFunc("GET "+Path+"/{id}", o.raw)
	return mux
}

func (o *Outbox) list(w http.ResponseWriter, r *http.Request) {
	mails, err := o.List(r.URL.Query().Get("to"))
	if err != nil {
		http.Error(w, "Could not read the outbox.", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	if r.URL.Query().Get("format") == "json" {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(mails)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	views := make([]mailView, len(mails))
	for i, m := range mails {
		views[i] = mailView{Mail: m, Body: linkify(m.Text), Raw: Path + "/" + m.ID}
	}
	_ = outboxPage.Execute(w, outboxData{Dir: o.dir, Mails: views})
}

func (o *Outbox) raw(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if id != filepath.Base(id) || !strings.HasSuffix(id, ".eml") || strings.HasPrefix(id, ".") {
		http.NotFound(w, r)
		return
	}
	b, err := os.ReadFile(filepath.Join(o.dir, id))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(b)
}

// linkify escapes text and makes its http(s) links clickable.
func linkify(text string) template.HTML {
	var b strings.Builder
	last := 0
	for _, loc := range linkPattern().FindAllStringIndex(text, -1) {
		b.WriteString(template.HTMLEscapeString(text[last:loc[0]]))
		u := template.HTMLEscapeString(text[loc[0]:loc[1]])
		b.WriteString(`<a href="` + u + `">` + u + `</a>`)
		last = loc[1]
	}
	b.WriteString(template.HTMLEscapeString(text[last:]))
	return template.HTML(b.String()) //nolint:gosec // every piece above is escaped
}

type mailView struct {
	Mail
	Body template.HTML
	Raw  string
}

type outboxData struct {
	Dir   string
	Mails []mailView
}

var outboxPage = template.Must(template.New("outbox").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Local outbox</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0; padding: 32px 16px; background: #f4f5f7; }
  @media (prefers-color-scheme: dark) { body { background: #16181d; } article, header { background: #22252c !important; } }
  header, article { max-width: 760px; margin: 0 auto 16px; background: #fff; border-radius: 12px; padding: 20px 24px; box-shadow: 0 4px 24px rgba(0,0,0,.08); }
  .badge { display: inline-block; background: #fff4ce; color: #6b4f00; border-radius: 999px; padding: 4px 12px; font-size: 13px; font-weight: 600; }
  h1 { font-size: 20px; margin: 12px 0 4px; }
  h2 { font-size: 17px; margin: 0 0 6px; }
  .meta { font-size: 13px; opacity: .75; }
  .notice { font-size: 14px; opacity: .8; line-height: 1.5; }
  pre { white-space: pre-wrap; word-break: break-word; font: inherit; line-height: 1.5; margin: 12px 0 0; }
  a { color: #4f46e5; }
</style>
</head>
<body>
<header>
  <span class="badge">Local outbox</span>
  <h1>Mail the local stack would have sent</h1>
  <p class="notice">This is the local outbox used by <code>make run</code>: <strong>no mail leaves this machine</strong>.
     Each message is an RFC 5322 file in <code>{{.Dir}}</code>. Newest first. In AWS the same messages go out through Amazon SES.</p>
</header>
{{range .Mails}}
<article data-testid="mail">
  <h2>{{.Subject}}</h2>
  <div class="meta">To {{.To}} · {{.Date.Format "2006-01-02 15:04:05 MST"}} · <a href="{{.Raw}}">raw</a></div>
  <pre>{{.Body}}</pre>
</article>
{{else}}
<article><p class="notice">No mail yet. Register an account or ask for a password reset, and the message appears here.</p></article>
{{end}}
</body>
</html>
`))
