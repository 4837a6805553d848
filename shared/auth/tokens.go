// Package auth issues and checks our own sign-in tokens (JWT HS256) and hashes
// passwords. Every route group checks tokens the same way through Middleware.
package auth

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"aiwork/shared/config"
)

// Tokens signs access tokens with the current HMAC key (its id in the kid
// header) and verifies them with the current or the previous one.
type Tokens struct {
	keys     *keyring
	ttl      time.Duration
	now      func() time.Time
	sessions Sessions
}

// Sessions tells whether a signed-in session is still open: its user exists
// and it was not ended (logout, password reset, Google take-over). The
// store implements it with one GetItem; auth does not import the store.
type Sessions interface {
	SessionLive(ctx context.Context, userID, sessionID string) (bool, error)
}

// NewTokens makes a token issuer signing with key; ttl is the lifetime
// written into exp.
func NewTokens(key []byte, ttl time.Duration) *Tokens {
	return &Tokens{keys: newKeyring(key, nil, time.Now()), ttl: ttl, now: time.Now}
}

// WithKeySource lets the issuer follow a rotating key: source answers the
// current and previous keys, read again when a token names a key this
// process does not hold (nil source: key stays the only one).
func (t *Tokens) WithKeySource(source KeySource) *Tokens {
	if source == nil {
		return t
	}
	c := *t
	c.keys = newKeyring(t.keys.signing().key, source, t.now())
	return &c
}

// Claims are what an access token carries: the user (sub) and the
// server-side session it belongs to (sid).
type Claims struct {
	SessionID string `json:"sid,omitempty"`
	jwt.RegisteredClaims
}

// ErrInvalidToken covers every reason a token is refused.
var ErrInvalidToken = errors.New("invalid token")

// Issue signs a token for the user id without a session. Where sessions are
// checked (WithSessions: every deployed route group) such a token is
// refused; it serves tests of one route group on its own.
func (t *Tokens) Issue(userID string) (string, error) {
	return t.IssueSession(userID, "")
}

// IssueSession signs a token for the user's server-side session sid; it
// expires after the issuer's TTL, as the session item does.
func (t *Tokens) IssueSession(userID, sessionID string) (string, error) {
	now := t.now()
	claims := Claims{SessionID: sessionID, RegisteredClaims: jwt.RegisteredClaims{
		Subject:   userID,
		IssuedAt:  jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(t.ttl)),
	}}
	s, err := t.Sign(claims)
	if err != nil {
		return "", fmt.Errorf("sign token: %w", err)
	}
	return s, nil
}

// Verify checks algorithm (HS256 only: never "none" nor an asymmetric one),
// signature and expiry, and answers the user id.
func (t *Tokens) Verify(token string) (string, error) {
	c, err := t.VerifyClaims(token)
	return c.Subject, err
}

// VerifyClaims is Verify answering the user id and the session id. It does
// not look the session up: the middleware does.
func (t *Tokens) VerifyClaims(token string) (Claims, error) {
	var claims Claims
	if err := t.Parse(token, &claims); err != nil || claims.Subject == "" {
		return Claims{}, ErrInvalidToken
	}
	return claims, nil
}

// TTL is the lifetime of the tokens this issuer signs.
func (t *Tokens) TTL() time.Duration { return t.ttl }

// WithSessions makes the middleware check every token's session in s: a
// token without a session id, or whose session or user is gone, is refused
// with 401. Every deployed route group is built with it.
func (t *Tokens) WithSessions(s Sessions) *Tokens {
	c := *t
	c.sessions = s
	return &c
}

// Sign signs arbitrary claims with the current key (also OAuth state),
// naming it in the kid header.
func (t *Tokens) Sign(claims jwt.Claims) (string, error) {
	k := t.keys.signing()
	tok := jwt.NewWithClaims(jwt.SigningMethodHS256, claims)
	tok.Header["kid"] = k.id
	return tok.SignedString(k.key)
}

// Parse verifies a token signed by Sign into claims: with the key its kid
// names (current or previous), or both for a token without a kid.
func (t *Tokens) Parse(token string, claims jwt.Claims) error {
	_, err := jwt.ParseWithClaims(token, claims, t.verificationKeys,
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(t.now),
	)
	return err
}

// verificationKeys is the jwt key function: the keys the token's kid allows.
func (t *Tokens) verificationKeys(tok *jwt.Token) (any, error) {
	kid, _ := tok.Header["kid"].(string)
	keys := t.keys.verifying(kid, t.now())
	if len(keys) == 0 {
		return nil, ErrInvalidToken
	}
	set := jwt.VerificationKeySet{}
	for _, k := range keys {
		set.Keys = append(set.Keys, k)
	}
	return set, nil
}

// WithClock replaces the clock (tests of expiry).
func (t *Tokens) WithClock(now func() time.Time) *Tokens {
	c := *t
	c.now = now
	return &c
}

// FromConfig is the issuer and checker every function builds from its
// configuration: the JWT key and its rotating versions, each token's
// session checked in sessions (the store); ttl is the lifetime of tokens it
// issues (0 for a function that only checks them).
func FromConfig(b config.Base, ttl time.Duration, sessions Sessions) *Tokens {
	return NewTokens(b.JWTSecret, ttl).WithKeySource(b.JWTKeys).WithSessions(sessions)
}
