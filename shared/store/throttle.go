package store

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Window is a fixed-window failure counter: Count failures since Start.
type Window struct {
	Count int
	Start time.Time
}

// Ends is when the window closes and the counter no longer applies.
func (w Window) Ends(length time.Duration) time.Time { return w.Start.Add(length) }

// FailureWindow reads the current counter for scope/key; a window older than
// length counts as empty.
func (s *Store) FailureWindow(ctx context.Context, scope, k string, length time.Duration, now time.Time) (Window, error) {
	var it struct {
		Count int   `dynamodbav:"count"`
		Start int64 `dynamodbav:"window_start"`
	}
	err := s.getItem(ctx, throttlePK(scope, k), skThrottle, &it)
	if err == ErrNotFound {
		return Window{}, nil
	}
	if err != nil {
		return Window{}, fmt.Errorf("read throttle: %w", err)
	}
	w := Window{Count: it.Count, Start: time.UnixMilli(it.Start)}
	if !now.Before(w.Ends(length)) {
		return Window{}, nil
	}
	return w, nil
}

// RecordFailure counts one failure in the current window, opening a new
// window when the old one has ended. Each step is one conditional write, so
// concurrent failures are all counted.
func (s *Store) RecordFailure(ctx context.Context, scope, k string, length time.Duration, now time.Time) (Window, error) {
	pk := throttlePK(scope, k)
	cutoff := now.Add(-length).UnixMilli()
	for attempt := 0; attempt < 5; attempt++ {
		// Count into the open window.
		out, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName:                aws.String(s.table),
			Key:                      key(pk, skThrottle),
			UpdateExpression:         aws.String("ADD #c :one"),
			ConditionExpression:      aws.String("window_start > :cutoff"),
			ExpressionAttributeNames: map[string]string{"#c": "count"},
			ExpressionAttributeValues: map[string]types.AttributeValue{
				":one":    &types.AttributeValueMemberN{Value: "1"},
				":cutoff": &types.AttributeValueMemberN{Value: strconv.FormatInt(cutoff, 10)},
			},
			ReturnValues: types.ReturnValueAllNew,
		})
		if err == nil {
			return windowFrom(out.Attributes), nil
		}
		if !isConditionFailed(err) {
			return Window{}, fmt.Errorf("record failure: %w", err)
		}
		// No open window: start one, unless another request just did.
		w, err := s.openWindow(ctx, pk, length, now)
		if err == nil {
			return w, nil
		}
		if !isConditionFailed(err) {
			return Window{}, fmt.Errorf("record failure: %w", err)
		}
	}
	return Window{}, fmt.Errorf("record failure: too much contention")
}

// ClearFailures forgets the counter (after a successful sign-in).
func (s *Store) ClearFailures(ctx context.Context, scope, k string) error {
	_, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(s.table), Key: key(throttlePK(scope, k), skThrottle)})
	return err
}

func windowFrom(attrs map[string]types.AttributeValue) Window {
	var w Window
	if n, ok := attrs["count"].(*types.AttributeValueMemberN); ok {
		w.Count, _ = strconv.Atoi(n.Value)
	}
	if n, ok := attrs["window_start"].(*types.AttributeValueMemberN); ok {
		ms, _ := strconv.ParseInt(n.Value, 10, 64)
		w.Start = time.UnixMilli(ms)
	}
	return w
}

// Admit counts one attempt in scope/key's fixed window, but only while the
// window holds fewer than limit: the count and the check are one conditional
// write, so a burst of concurrent attempts admits exactly limit of them.
// It answers the window after the attempt, and whether it was admitted.
func (s *Store) Admit(ctx context.Context, scope, k string, limit int, length time.Duration, now time.Time) (Window, bool, error) {
	pk := throttlePK(scope, k)
	cutoff := strconv.FormatInt(now.Add(-length).UnixMilli(), 10)
	for attempt := 0; attempt < 5; attempt++ {
		// Count into the open window while it has room.
		out, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName:                aws.String(s.table),
			Key:                      key(pk, skThrottle),
			UpdateExpression:         aws.String("ADD #c :one"),
			ConditionExpression:      aws.String("window_start > :cutoff AND #c < :limit"),
			ExpressionAttributeNames: map[string]string{"#c": "count"},
			ExpressionAttributeValues: map[string]types.AttributeValue{
				":one":    &types.AttributeValueMemberN{Value: "1"},
				":cutoff": &types.AttributeValueMemberN{Value: cutoff},
				":limit":  &types.AttributeValueMemberN{Value: strconv.Itoa(limit)},
			},
			ReturnValues: types.ReturnValueAllNew,
		})
		if err == nil {
			return windowFrom(out.Attributes), true, nil
		}
		if !isConditionFailed(err) {
			return Window{}, false, fmt.Errorf("admit: %w", err)
		}
		// Either no open window (start one) or a full one (refuse).
		w, err := s.openWindow(ctx, pk, length, now)
		if err == nil {
			return w, limit >= 1, nil
		}
		if !isConditionFailed(err) {
			return Window{}, false, fmt.Errorf("admit: %w", err)
		}
		// An open window exists: refuse if it is full, else retry the count.
		w, err = s.FailureWindow(ctx, scope, k, length, now)
		if err != nil {
			return Window{}, false, err
		}
		if w.Count >= limit {
			return w, false, nil
		}
	}
	return Window{}, false, fmt.Errorf("admit: too much contention")
}

// openWindow starts a new window holding one count, but only in place of a
// missing or ended window, never an open one: the condition fails when
// another request opened the window first.
func (s *Store) openWindow(ctx context.Context, pk string, length time.Duration, now time.Time) (Window, error) {
	start := now.UnixMilli()
	_, err := s.db.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: aws.String(s.table),
		Item: map[string]types.AttributeValue{
			AttrPK:         &types.AttributeValueMemberS{Value: pk},
			AttrSK:         &types.AttributeValueMemberS{Value: skThrottle},
			"count":        &types.AttributeValueMemberN{Value: "1"},
			"window_start": &types.AttributeValueMemberN{Value: strconv.FormatInt(start, 10)},
			AttrExpires:    &types.AttributeValueMemberN{Value: strconv.FormatInt(now.Add(2*length).Unix(), 10)},
		},
		ConditionExpression: aws.String("attribute_not_exists(PK) OR window_start <= :cutoff"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":cutoff": &types.AttributeValueMemberN{Value: strconv.FormatInt(now.Add(-length).UnixMilli(), 10)},
		},
	})
	if err != nil {
		return Window{}, err
	}
	return Window{Count: 1, Start: time.UnixMilli(start)}, nil
}
