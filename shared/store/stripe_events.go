package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Processed Stripe events: the webhook records an event id only after its
// work succeeded (DESIGN §5), so a retry of a failed event runs it again,
// and a retry of a handled one is answered without work.

// stripeEventTTL keeps a record well past Stripe's retries (3 days).
const stripeEventTTL = 30 * 24 * time.Hour

type stripeEventItem struct {
	PK          string `dynamodbav:"PK"`
	SK          string `dynamodbav:"SK"`
	Type        string `dynamodbav:"type"`
	ProcessedAt string `dynamodbav:"processed_at"`
	ExpiresAt   int64  `dynamodbav:"expires_at"`
}

// EventProcessed reports whether a webhook event was handled before.
func (s *Store) EventProcessed(ctx context.Context, id string) (bool, error) {
	var it stripeEventItem
	err := s.getItem(ctx, stripeEventPK(id), skStripeEvent, &it)
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("event processed: %w", err)
	}
	return true, nil
}

// MarkEventProcessed records a handled event, after its work succeeded; the
// record expires after stripeEventTTL.
func (s *Store) MarkEventProcessed(ctx context.Context, id, typ string, now time.Time) error {
	it := stripeEventItem{
		PK: stripeEventPK(id), SK: skStripeEvent, Type: typ,
		ProcessedAt: now.UTC().Format(time.RFC3339Nano), ExpiresAt: now.Add(stripeEventTTL).Unix(),
	}
	if err := s.put(ctx, it); err != nil {
		return fmt.Errorf("mark event processed: %w", err)
	}
	return nil
}
