package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// ErrTooManyStreams means the user already has the most replies streaming
// that the limit allows.
var ErrTooManyStreams = errors.New("too many concurrent chat streams")

// chatStreamsItem counts a user's open chat streams (USER#<uid> / STREAMS).
//
// Leak guard: a stream that crashes (its process killed) never gives its
// slot back, so the counter carries a lease. Every slot taken pushes
// expires_at to now+lease, and the caller ends every stream before its lease
// runs out (chatapi caps a stream's duration below it). So once expires_at
// has passed, every stream the counter counted has ended, and whatever it
// still holds was leaked: the next taker resets it instead of adding to it,
// and DynamoDB's TTL (the table's expires_at) may delete the item as well,
// which is the same reset. A leak thus costs a user at most one lease of
// reduced concurrency, and the counter never admits more streams than the
// limit. (One lease item per stream plus a sweep would heal sooner, at the
// price of more writes before every upstream call.)
type chatStreamsItem struct {
	Count     int   `dynamodbav:"count"`
	ExpiresAt int64 `dynamodbav:"expires_at"`
}

// AcquireStreamSlot takes one of uid's limit stream slots, or answers
// ErrTooManyStreams. Taking is one conditional UpdateItem that adds one only
// while the live counter is below limit, so a burst of concurrent requests
// gets exactly limit slots. lease must outlast any stream (see
// chatStreamsItem). Each taken slot must be given back with ReleaseStreamSlot.
func (s *Store) AcquireStreamSlot(ctx context.Context, uid string, limit int, lease time.Duration, now time.Time) error {
	if limit < 1 {
		return ErrTooManyStreams
	}
	k := key(userPK(uid), skChatStreams)
	vals := func(extra map[string]types.AttributeValue) map[string]types.AttributeValue {
		v := map[string]types.AttributeValue{
			":one": &types.AttributeValueMemberN{Value: "1"},
			":now": &types.AttributeValueMemberN{Value: strconv.FormatInt(now.Unix(), 10)},
			":exp": &types.AttributeValueMemberN{Value: strconv.FormatInt(now.Add(lease).Unix(), 10)},
		}
		for name, av := range extra {
			v[name] = av
		}
		return v
	}
	names := map[string]string{"#n": "count", "#x": AttrExpires}
	for attempt := 0; attempt < 5; attempt++ {
		// A live counter with room (or none yet): count this stream.
		_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName:                 aws.String(s.table),
			Key:                       k,
			UpdateExpression:          aws.String("SET #x = :exp ADD #n :one"),
			ConditionExpression:       aws.String("attribute_not_exists(#n) OR (#n < :limit AND #x > :now)"),
			ExpressionAttributeNames:  names,
			ExpressionAttributeValues: vals(map[string]types.AttributeValue{":limit": &types.AttributeValueMemberN{Value: strconv.Itoa(limit)}}),
		})
		if err == nil {
			return nil
		}
		if !isConditionFailed(err) {
			return fmt.Errorf("acquire stream slot: %w", err)
		}
		// Full, or stale. A stale counter holds only leaked slots: start it
		// over with this stream (only while it is still stale, so of two
		// requests resetting at once one resets and the other counts).
		_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName:                 aws.String(s.table),
			Key:                       k,
			UpdateExpression:          aws.String("SET #n = :one, #x = :exp"),
			ConditionExpression:       aws.String("#x <= :now"),
			ExpressionAttributeNames:  names,
			ExpressionAttributeValues: vals(nil),
		})
		if err == nil {
			return nil
		}
		if !isConditionFailed(err) {
			return fmt.Errorf("acquire stream slot: %w", err)
		}
		// Live: refuse if it is full; a slot freed meanwhile is worth a retry.
		var it chatStreamsItem
		if err := s.getItem(ctx, userPK(uid), skChatStreams, &it); err != nil && !errors.Is(err, ErrNotFound) {
			return fmt.Errorf("acquire stream slot: %w", err)
		}
		if it.ExpiresAt > now.Unix() && it.Count >= limit {
			return ErrTooManyStreams
		}
	}
	return fmt.Errorf("acquire stream slot: too much contention")
}

// ReleaseStreamSlot gives back a slot taken by AcquireStreamSlot: one ADD -1,
// only while the counter is above zero (a counter reset after its lease has
// nothing of this stream's left to give back).
func (s *Store) ReleaseStreamSlot(ctx context.Context, uid string) error {
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                aws.String(s.table),
		Key:                      key(userPK(uid), skChatStreams),
		UpdateExpression:         aws.String("ADD #n :minus"),
		ConditionExpression:      aws.String("#n > :zero"),
		ExpressionAttributeNames: map[string]string{"#n": "count"},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":minus": &types.AttributeValueMemberN{Value: "-1"},
			":zero":  &types.AttributeValueMemberN{Value: "0"},
		},
	})
	if err != nil && !isConditionFailed(err) {
		return fmt.Errorf("release stream slot: %w", err)
	}
	return nil
}

// OpenStreams answers how many slots uid holds at now (0 once the lease has
// run out).
func (s *Store) OpenStreams(ctx context.Context, uid string, now time.Time) (int, error) {
	var it chatStreamsItem
	err := s.getItem(ctx, userPK(uid), skChatStreams, &it)
	if errors.Is(err, ErrNotFound) || (err == nil && it.ExpiresAt <= now.Unix()) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("open streams: %w", err)
	}
	return it.Count, nil
}
