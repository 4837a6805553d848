// Package auth issues and checks our own sign-in tokens (JWT HS256) and hashes
// passwords. Every route group checks tokens the same way through Middleware.
package auth

import (
	"errors"
	"fmt"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Tokens signs and verifies access tokens with one HMAC key.
type Tokens struct {
	key []byte
	ttl time.Duration
	now func() time.Time
}

// NewTokens makes a token issuer; ttl is the lifetime written into exp.
func NewTokens(key []byte, ttl time.Duration) *Tokens {
	return &Tokens{key: key, ttl: ttl, now: time.Now}
}

// Claims are what an access token carries.
type Claims struct {
	jwt.RegisteredClaims
}

// ErrInvalidToken covers every reason a token is refused.
var ErrInvalidToken = errors.New("invalid token")

// Issue signs a token for the user id.
func (t *Tokens) Issue(userID string) (string, error) {
	now := t.now()
	claims := Claims{RegisteredClaims: jwt.RegisteredClaims{
		Subject:   userID,
		IssuedAt:  jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(t.ttl)),
	}}
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(t.key)
	if err != nil {
		return "", fmt.Errorf("sign token: %w", err)
	}
	return s, nil
}

// Verify checks algorithm (HS256 only: never "none" nor an asymmetric one),
// signature and expiry, and answers the user id.
func (t *Tokens) Verify(token string) (string, error) {
	var claims Claims
	_, err := jwt.ParseWithClaims(token, &claims, func(*jwt.Token) (any, error) { return t.key, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(t.now),
	)
	if err != nil || claims.Subject == "" {
		return "", ErrInvalidToken
	}
	return claims.Subject, nil
}

// Sign signs arbitrary claims with the same key (OAuth state).
func (t *Tokens) Sign(claims jwt.Claims) (string, error) {
	return jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(t.key)
}

// Parse verifies a token signed by Sign into claims.
func (t *Tokens) Parse(token string, claims jwt.Claims) error {
	_, err := jwt.ParseWithClaims(token, claims, func(*jwt.Token) (any, error) { return t.key, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(t.now),
	)
	return err
}

// WithClock replaces the clock (tests of expiry).
func (t *Tokens) WithClock(now func() time.Time) *Tokens {
	c := *t
	c.now = now
	return &c
}
