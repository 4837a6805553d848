package adminapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/local/devstack"
	"aiwork/shared/store/storetest"
)

// The orders' and users' tests: a stack whose mail is kept (to read a
// resent confirmation), purchases through the local checkout, accounts
// with a password, and the wire shapes.

// newMailStack is newStackFree(t, 0, prompts...) whose mail goes to a
// directory the test reads (its second answer), links to the site at
// https://shop.example.
func newMailStack(t *testing.T, prompts ...domain.Prompt) (*stack, string) {
	t.Helper()
	mailDir := t.TempDir()
	s := newStackWith(t, func(c *devstack.Config) {
		c.MailDir = mailDir
		c.Admin.PublicURL = "https://shop.example"
	}, 0, prompts...)
	return s, mailDir
}

// buy opens a checkout for pid as token and pays it on the local checkout
// page (its event goes through the webhook), answering the order's id.
func (s *stack) buy(token, pid string) string {
	s.T.Helper()
	c := decode[struct {
		SessionID string `json:"session_id"`
	}](s.T, s.Do("POST", "/api/v1/payments/create-checkout-session", token, `{"prompt_id":"`+pid+`"}`), http.StatusOK)
	if w := s.Do("POST", "/dev/checkout/"+c.SessionID+"/pay", "", ""); w.Code != http.StatusSeeOther {
		s.T.Fatalf("pay %s: %d %s", c.SessionID, w.Code, w.Body)
	}
	return c.SessionID
}

// passwordUser makes an account with a password (confirmed or not) and
// answers its id and email.
func (s *stack) passwordUser(name, password string, verified bool) (uid, email string) {
	s.T.Helper()
	hash, err := auth.HashPassword(password)
	storetest.Must(s.T, err, "hash")
	uid = name + "-" + time.Now().Format("150405.000000000")
	email = uid + "@example.com"
	storetest.Must(s.T, s.St.CreateUser(context.Background(), domain.User{ID: uid, Email: email, Username: uid, FullName: name,
		PasswordHash: hash, IsVerified: verified, CreatedAt: time.Now()}), "create user")
	return uid, email
}

// login signs in with a password.
func (s *stack) login(email, password string) *httptest.ResponseRecorder {
	return s.Do("POST", "/api/v1/auth/login", "", mustJSON(map[string]string{"email": email, "password": password}))
}

// auditOf is the audit log's lines about target, newest first.
func (s *stack) auditOf(token, target string) []auditJSON {
	s.T.Helper()
	return decode[pageJSON[auditJSON]](s.T, s.Do("GET", admin+"audit?limit=100&target="+target, token, ""), http.StatusOK).Items
}

// actions are the audit lines' actions, in order.
func actions(lines []auditJSON) []string {
	out := []string{}
	for _, l := range lines {
		out = append(out, l.Action)
	}
	return out
}

// field reads one field of an audit snapshot.
func field(t *testing.T, raw json.RawMessage, name string) any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("snapshot %s: %v", raw, err)
	}
	return m[name]
}

// mailedToken is the token of the newest mail in dir with a link to page,
// and the link.
func mailedToken(t *testing.T, dir, page string) (token, link string) {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, "*.eml"))
	slices.Sort(names)
	re := regexp.MustCompile(`(https?://[^\s]*` + regexp.QuoteMeta(page) + `\?token=)([A-Za-z0-9_-]+)`)
	for i := len(names) - 1; i >= 0; i-- {
		raw, _ := os.ReadFile(names[i])
		if m := re.FindSubmatch(raw); m != nil {
			return string(m[2]), string(m[1]) + string(m[2])
		}
	}
	t.Fatalf("no mail with a %s link in %s", page, dir)
	return "", ""
}

type orderJSON struct {
	ID            string  `json:"id"`
	UserID        string  `json:"user_id"`
	UserEmail     string  `json:"user_email"`
	PromptID      string  `json:"prompt_id"`
	PromptTitle   string  `json:"prompt_title"`
	Amount        float64 `json:"amount"`
	Status        string  `json:"status"`
	CreatedAt     string  `json:"created_at"`
	PaidAt        string  `json:"paid_at"`
	RefundedAt    string  `json:"refunded_at"`
	PaymentIntent string  `json:"payment_intent"`
	RefundReason  string  `json:"refund_reason"`
	Events        []struct {
		ID, Type   string
		ReceivedAt string `json:"received_at"`
	} `json:"events"`
}

type userJSON struct {
	ID              string `json:"id"`
	Email           string `json:"email"`
	Username        string `json:"username"`
	FullName        string `json:"full_name"`
	IsVerified      bool   `json:"is_verified"`
	IsSuperuser     bool   `json:"is_superuser"`
	Disabled        bool   `json:"disabled"`
	LockedUntil     string `json:"locked_until"`
	CreatedAt       string `json:"created_at"`
	Purchases       int    `json:"purchases"`
	Connections     int    `json:"connections"`
	ChatTokensToday int    `json:"chat_tokens_today"`
}

// conflictJSON is a 409 with the target as it is.
type conflictJSON[T any] struct {
	Detail  string `json:"detail"`
	Code    string `json:"code"`
	Current T      `json:"current"`
}
