package agentsapi

import (
	"encoding/base64"
	"testing"
	"time"

	"aiwork/shared/domain"
)

// A cursor names exactly its card's place in every order; anything else is
// refused.
func TestCursorNamesItsCardsPlace(t *testing.T) {
	a := domain.Agent{ID: "a-0123456789ab", CreatedAt: time.Date(2026, 11, 28, 9, 30, 1, 123456789, time.UTC), Price: 4.29, RatingSum: 14, RatingCount: 3}
	place, ok := decodeCursor(encodeCursor(a))
	if !ok {
		t.Fatal("a cursor this list gave was refused")
	}
	for _, order := range orders {
		if c := inOrder(order)(a, place); c != 0 {
			t.Errorf("%s: the cursor's place compares %d with its card, want 0", order, c)
		}
	}
	for _, bad := range []string{"!!", "", base64.RawURLEncoding.EncodeToString([]byte("a-0123456789ab")),
		base64.RawURLEncoding.EncodeToString([]byte("2026-11-28T09:30:01Z||429|14|3")),
		base64.RawURLEncoding.EncodeToString([]byte("2026-11-28T09:30:01Z|a-1|-5|14|3")),
		base64.RawURLEncoding.EncodeToString([]byte("yesterday|a-1|429|14|3"))} {
		if _, ok := decodeCursor(bad); ok {
			t.Errorf("cursor %q was taken", bad)
		}
	}
}
