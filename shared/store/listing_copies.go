package store

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"golang.org/x/sync/errgroup"
)

// copyWrite is how one entry's listing copies are brought in line with
// it (the prompt listing's and the registry's, docs/design-listings.md).
type copyWrite struct {
	// rev is the entry's revision: no copy is put or deleted over a newer
	// one's.
	rev int
	// unconditionalDeletes: the entry is gone, so every copy it had goes,
	// whatever revision it carries.
	unconditionalDeletes bool
	// counts reports whether the copy under a listing key counts the entry
	// in its partition's COUNT.
	counts func(key string) bool
	// what names the copies in errors.
	what string
}

// write puts every target (by listing key) and deletes every other copy
// the entry had (had, or written by an earlier round, written), answering
// by how much each partition's count moves: a counted copy that was not
// there and is now counts one more, one that was there and is gone one
// less.
func (s *Store) writeListingCopies(ctx context.Context, w copyWrite, targets map[string]any, had, written map[string]bool) (map[string]int, error) {
	var mu sync.Mutex
	deltas := map[string]int{}
	move := func(k string, by int) {
		if !w.counts(k) {
			return
		}
		pk, _ := splitListingKey(k)
		mu.Lock()
		deltas[pk] += by
		mu.Unlock()
	}
	revValue := map[string]types.AttributeValue{":rev": &types.AttributeValueMemberN{Value: strconv.Itoa(w.rev)}}
	const notNewer = "attribute_not_exists(PK) OR rev <= :rev"
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(syncWorkers)
	for _, k := range slices.Sorted(maps.Keys(targets)) {
		item := targets[k]
		written[k] = true
		g.Go(func() error {
			av, err := attributevalue.MarshalMap(item)
			if err != nil {
				return err
			}
			out, err := s.db.PutItem(gctx, &dynamodb.PutItemInput{
				TableName: aws.String(s.table), Item: av, ReturnValues: types.ReturnValueAllOld,
				ConditionExpression: aws.String(notNewer), ExpressionAttributeValues: revValue,
			})
			if isConditionFailed(err) {
				return nil // a newer write holds it; that writer's sync finishes it
			}
			if err != nil {
				return fmt.Errorf("put %s: %w", w.what, err)
			}
			if len(out.Attributes) == 0 {
				move(k, 1)
			}
			return nil
		})
	}
	var stale []string
	for k := range had {
		if _, keep := targets[k]; !keep {
			stale = append(stale, k)
		}
	}
	for k := range written {
		if _, keep := targets[k]; !keep && !had[k] {
			stale = append(stale, k)
		}
	}
	slices.Sort(stale)
	for _, k := range slices.Compact(stale) {
		pk, sk := splitListingKey(k)
		g.Go(func() error {
			in := &dynamodb.DeleteItemInput{TableName: aws.String(s.table), Key: key(pk, sk), ReturnValues: types.ReturnValueAllOld}
			if !w.unconditionalDeletes {
				// Not a copy a newer revision put back.
				in.ConditionExpression, in.ExpressionAttributeValues = aws.String(notNewer), revValue
			}
			out, err := s.db.DeleteItem(gctx, in)
			if isConditionFailed(err) {
				return nil
			}
			if err != nil {
				return fmt.Errorf("delete %s: %w", w.what, err)
			}
			if len(out.Attributes) > 0 {
				move(k, -1)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return deltas, nil
}

// bulkListing gathers a bulk load's items (BulkLoadPrompts,
// BulkLoadMCPServers): each entry's listing copies, its partitions' count
// moves, and the entries themselves, written in that order (write).
type bulkListing struct {
	copies, entries []map[string]types.AttributeValue
	deltas          map[string]int
}

// copiesOf adds an entry's copies (by listing key) and answers their keys,
// in order, for the entry to record; counts as for writeListingCopies.
func (b *bulkListing) copiesOf(targets map[string]any, counts func(key string) bool) ([]string, error) {
	if b.deltas == nil {
		b.deltas = map[string]int{}
	}
	keys := slices.Sorted(maps.Keys(targets))
	for _, k := range keys {
		if counts(k) {
			pk, _ := splitListingKey(k)
			b.deltas[pk]++
		}
		av, err := attributevalue.MarshalMap(targets[k])
		if err != nil {
			return nil, err
		}
		b.copies = append(b.copies, av)
	}
	return keys, nil
}

// entry adds the entry's own item.
func (b *bulkListing) entry(item any) error {
	av, err := attributevalue.MarshalMap(item)
	if err == nil {
		b.entries = append(b.entries, av)
	}
	return err
}

// write puts the copies, then moves the counts, then puts the entries: a
// load stopped midway leaves entries unlisted rather than listed twice.
func (s *Store) writeBulk(ctx context.Context, b *bulkListing) error {
	if err := s.batchPut(ctx, b.copies); err != nil {
		return err
	}
	if err := s.addCounts(ctx, b.deltas); err != nil {
		return err
	}
	return s.batchPut(ctx, b.entries)
}
