package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Why a link token is refused.
var (
	ErrLinkUnknown = errors.New("link token unknown")
	ErrLinkUsed    = errors.New("link token already used")
	ErrLinkExpired = errors.New("link token expired")
)

// LinkToken is a mailed single-use link as stored: only the SHA-256 of its
// token is kept, so the table never holds a usable link.
type LinkToken struct {
	UserID string
	Email  string
	// Tag is what the link was issued against (a reset link carries a
	// fingerprint of the password it replaces, so it dies with it).
	Tag     string
	Expires time.Time
}

// linkExpiryGrace keeps a used or expired link readable (so its refusal can
// say "used" or "expired" rather than "unknown") before TTL removes it.
const linkExpiryGrace = 7 * 24 * time.Hour

type linkTokenItem struct {
	PK        string `dynamodbav:"PK"`
	SK        string `dynamodbav:"SK"`
	UserID    string `dynamodbav:"user_id"`
	Email     string `dynamodbav:"email"`
	Tag       string `dynamodbav:"tag,omitempty"`
	ValidTo   int64  `dynamodbav:"valid_to"` // unix ms
	UsedAt    int64  `dynamodbav:"used_at,omitempty"`
	ExpiresAt int64  `dynamodbav:"expires_at"` // TTL (unix s)
}

// SaveLinkToken stores a new link of purpose under the hash of its token.
func (s *Store) SaveLinkToken(ctx context.Context, purpose, tokenHash string, t LinkToken) error {
	it := linkTokenItem{
		PK: linkTokenPK(purpose, tokenHash), SK: skLinkToken, UserID: t.UserID, Email: t.Email, Tag: t.Tag,
		ValidTo: t.Expires.UnixMilli(), ExpiresAt: t.Expires.Add(linkExpiryGrace).Unix(),
	}
	if err := s.putNew(ctx, it); err != nil {
		return fmt.Errorf("save link token: %w", err)
	}
	return nil
}

// UseLinkToken spends a link: one conditional write marks it used only if
// it exists, is unused and unexpired at now, so of concurrent uses exactly
// one succeeds. Refusals say why: ErrLinkUnknown, ErrLinkUsed, ErrLinkExpired.
func (s *Store) UseLinkToken(ctx context.Context, purpose, tokenHash string, now time.Time) (LinkToken, error) {
	pk := linkTokenPK(purpose, tokenHash)
	var it linkTokenItem
	used, err := s.useOnce(ctx, pk, skLinkToken, use{}, now, &it)
	if err != nil {
		return LinkToken{}, fmt.Errorf("use link token: %w", err)
	}
	if used {
		return it.token(), nil
	}
	switch err := s.getItem(ctx, pk, skLinkToken, &it); {
	case errors.Is(err, ErrNotFound):
		return LinkToken{}, ErrLinkUnknown
	case err != nil:
		return LinkToken{}, fmt.Errorf("use link token: %w", err)
	case it.UsedAt != 0:
		return it.token(), ErrLinkUsed
	default:
		return it.token(), ErrLinkExpired
	}
}

func (it linkTokenItem) token() LinkToken {
	return LinkToken{UserID: it.UserID, Email: it.Email, Tag: it.Tag, Expires: time.UnixMilli(it.ValidTo)}
}
