// Package accountmail is the account mail with a single-use link: the
// links' tokens (only their SHA-256 is stored) and the confirmation mail,
// which the auth group sends at registration and on request and an admin
// resends (adminapi): one text and one kind of link wherever it is sent
// from.
package accountmail

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/url"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/mail"
	"aiwork/shared/store"
)

// The web page a confirmation link opens (it calls verify-email with the
// token), and how long the link works.
const (
	VerifyEmailPage = "/verify-email"
	VerifyLinkTTL   = 24 * time.Hour
)

// NewLinkToken is a mailed link's secret: 32 random bytes, base64url (43
// characters), and the hash it is stored under.
func NewLinkToken() (token, hash string) {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, HashLinkToken(token)
}

// HashLinkToken is the SHA-256 (hex) a link is stored under.
func HashLinkToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// Link is the absolute address of page on the site at publicURL (no
// trailing slash) with ?token=.
func Link(publicURL, page, token string) string {
	return publicURL + page + "?" + url.Values{"token": {token}}.Encode()
}

// SendConfirmation mails u a new single-use confirmation link (24 h) to the
// site at publicURL; links sent before keep working until they expire.
func SendConfirmation(ctx context.Context, st *store.Store, mailer mail.Mailer, publicURL string, u domain.User, now time.Time) error {
	token, hash := NewLinkToken()
	if err := st.SaveLinkToken(ctx, store.LinkVerifyEmail, hash, store.LinkToken{
		UserID: u.ID, Email: u.Email, Expires: now.Add(VerifyLinkTTL),
	}); err != nil {
		return err
	}
	return mailer.Send(ctx, mail.Message{
		To: u.Email, ToName: u.FullName, Subject: "Confirm your email address for AIWork",
		Text: fmt.Sprintf(`Hello %s,

Please confirm that %s is your email address by opening this link:

%s

Confirming it unlocks your free prompts. The link works once and expires in 24 hours.

If you did not create an AIWork account, you can ignore this email.
`, u.FullName, u.Email, Link(publicURL, VerifyEmailPage, token)),
	})
}
