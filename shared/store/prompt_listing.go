package store

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"golang.org/x/sync/errgroup"

	"aiwork/shared/domain"
	"aiwork/shared/prompts"
)

// The marketplace listing: a copy of each published prompt's card (what
// the list shows of it, prompts.Card) in every partition it is listed in
// (keys.go: PLIST#ALL, PLIST#CAT#<cid>, PTOK#<word> for each of its words,
// prompts.IndexTokens), once per sort order, its SK its place in that
// order. A page of the list is then one Query of one partition from the
// place the page before ended, whatever the catalogue's size; the
// partition's COUNT item says how many prompts it lists.
//
// The prompt's own item (PROMPT#<pid> / META) stays the source of truth.
// Every write to it that changes what a card shows or where it is listed
// moves its revision (irev) on, then brings the copies in line (sync): it
// puts each copy the prompt should have, at that revision, and deletes the
// others it had. A copy is never overwritten by an older revision (each
// write is conditional on the copy's rev), and the keys of the copies are
// recorded on the prompt's item (idx) before they are written, so a sync
// that stops midway is finished by the next one: DESIGN §5's sequence of
// idempotent steps, since the local engine has no transactions. A sync
// ends by marking the revision it reached (srev); a prompt whose srev lags
// its irev is one whose copies may be behind, which the backfill finds.

// listingFormat is the shape of the copies this code writes; the backfill
// rewrites those of another format. 2: with the featured and the
// unpublished prompts' copies (prompt_listing_admin.go); 3: with the
// creator's username and display name.
const listingFormat = 3

// maxSyncRounds bounds how often a sync starts again because the prompt
// changed while its copies were written.
const maxSyncRounds = 5

// syncWorkers is how many writes of one sync are in flight at once.
const syncWorkers = 8

// listingItem is one copy of a card.
type listingItem struct {
	PK          string  `dynamodbav:"PK"`
	SK          string  `dynamodbav:"SK"`
	ID          string  `dynamodbav:"id"`
	Title       string  `dynamodbav:"title"`
	Description string  `dynamodbav:"desc"`
	DescCut     bool    `dynamodbav:"desc_cut,omitempty"`
	Preview     string  `dynamodbav:"preview"`
	PreviewCut  bool    `dynamodbav:"preview_cut,omitempty"`
	Price       float64 `dynamodbav:"price"`
	CategoryID  string  `dynamodbav:"cat"`
	CreatedAt   string  `dynamodbav:"created"`
	RatingSum   int     `dynamodbav:"rsum"`
	RatingCount int     `dynamodbav:"rcount"`
	Rev         int     `dynamodbav:"rev"`
	// The creator's username and display name (none: the platform's).
	CreatorUsername    string `dynamodbav:"cun,omitempty"`
	CreatorDisplayName string `dynamodbav:"cdn,omitempty"`
	// Words are the prompt's search words, on the copies a search reads
	// (PTOK# and PLIST#CAT#): a search checks its other words on them.
	Words []string `dynamodbav:"toks,stringset,omitempty"`
}

func (it listingItem) card() domain.PromptCard {
	created, _ := time.Parse(time.RFC3339Nano, it.CreatedAt)
	return domain.PromptCard{
		ID: it.ID, Title: it.Title, Description: it.Description, DescriptionTruncated: it.DescCut,
		Preview: it.Preview, PreviewTruncated: it.PreviewCut, Price: it.Price, CategoryID: it.CategoryID,
		CreatedAt: created, RatingSum: it.RatingSum, RatingCount: it.RatingCount,
		CreatorUsername: it.CreatorUsername, CreatorDisplayName: it.CreatorDisplayName,
	}
}

type countItem struct {
	PK string `dynamodbav:"PK"`
	SK string `dynamodbav:"SK"`
	N  int    `dynamodbav:"n"`
}

// listingKey names one copy in a prompt's idx set: "<PK>\n<SK>" (no
// partition key of the listing holds a line break).
func listingKey(pk, sk string) string { return pk + "\n" + sk }

func splitListingKey(k string) (pk, sk string) {
	pk, sk, _ = strings.Cut(k, "\n")
	return pk, sk
}

// cents is a price in whole cents.
func cents(price float64) int { return int(math.Round(price * 100)) }

// listingSK is the card's place in order o.
func listingSK(o prompts.Order, created time.Time, pid string, price float64) string {
	switch o {
	case prompts.PriceLow:
		return listPriceLowSK(cents(price), created, pid)
	case prompts.PriceHigh:
		return listPriceHighSK(cents(price), created, pid)
	}
	return listNewestSK(created, pid)
}

// orderPrefix is the SK prefix of order o's copies.
func orderPrefix(o prompts.Order) string {
	switch o {
	case prompts.PriceLow:
		return listPriceLow
	case prompts.PriceHigh:
		return listPriceHigh
	}
	return listNewest
}

// listed reports whether the prompt item belongs in the listing: published,
// its creator (if any) not suspended, and not being deleted.
func (it promptItem) listed() bool { return !it.Unpublished && !it.Suspended && !it.Deleting }

// listingTargets are the copies the prompt item should have, by listingKey:
// a published prompt's in the marketplace's partitions (and in the
// featured order when it is flagged or rated), an unpublished one's in the
// admins' partitions of unpublished prompts; none while it is being
// deleted.
func listingTargets(it promptItem) map[string]listingItem {
	out := map[string]listingItem{}
	if it.Deleting {
		return out
	}
	p := it.domain()
	c := prompts.Card(p)
	base := listingItem{
		ID: c.ID, Title: c.Title, Description: c.Description, DescCut: c.DescriptionTruncated,
		Preview: c.Preview, PreviewCut: c.PreviewTruncated, Price: roundCents(c.Price), CategoryID: c.CategoryID,
		CreatedAt: formatTime(c.CreatedAt), RatingSum: c.RatingSum, RatingCount: c.RatingCount, Rev: it.Irev,
		CreatorUsername: c.CreatorUsername, CreatorDisplayName: c.CreatorDisplayName,
	}
	// Newest order only, in the partitions only admins and the featured
	// list read.
	newestIn := func(pks ...string) {
		for _, pk := range pks {
			li := base
			li.PK, li.SK = pk, listNewestSK(p.CreatedAt, p.ID)
			out[listingKey(li.PK, li.SK)] = li
		}
	}
	if !it.listed() {
		newestIn(listOffAllPK, listOffCategoryPK(p.CategoryID))
		return out
	}
	if p.Featured || p.RatingCount > 0 {
		li := base
		li.PK, li.SK = listFeaturedPK, featuredSK(p)
		out[listingKey(li.PK, li.SK)] = li
	}
	words := prompts.IndexTokens(p)
	partitions := []string{listAllPK, listCategoryPK(p.CategoryID)}
	for _, w := range words {
		partitions = append(partitions, listTokenPK(w))
	}
	for _, pk := range partitions {
		for _, o := range prompts.Orders {
			li := base
			li.PK, li.SK = pk, listingSK(o, p.CreatedAt, p.ID, p.Price)
			if pk != listAllPK {
				li.Words = words
			}
			out[listingKey(li.PK, li.SK)] = li
		}
	}
	return out
}

// isMembership reports whether the copy under key is the one that counts
// the prompt in its partition (its newest-order copy).
func isMembership(k string) bool {
	_, sk := splitListingKey(k)
	return strings.HasPrefix(sk, listNewest)
}

// readPromptItem reads a prompt's item, strongly consistent; found false
// when it does not exist.
func (s *Store) readPromptItem(ctx context.Context, pid string) (promptItem, bool, error) {
	var it promptItem
	err := s.getItem(ctx, promptPK(pid), skPromptMeta, &it)
	if err == ErrNotFound {
		return it, false, nil
	}
	if err != nil {
		return it, false, fmt.Errorf("read prompt %s: %w", pid, err)
	}
	return it, true, nil
}

// syncListing brings the copies of prompt pid in line with its item (see
// the top of this file); gone are keys of copies it may still have that
// its item no longer records (a deleted prompt's). It starts again when
// the prompt changed meanwhile, so the last writer to finish leaves the
// copies as the prompt is.
func (s *Store) syncListing(ctx context.Context, pid string, gone []string) error {
	written := map[string]bool{}
	for _, k := range gone {
		written[k] = true
	}
	for range maxSyncRounds {
		it, found, err := s.readPromptItem(ctx, pid)
		if err != nil {
			return err
		}
		targets := map[string]listingItem{}
		if found {
			targets = listingTargets(it)
		}
		had := map[string]bool{}
		for _, k := range it.Idx {
			had[k] = true
		}
		// Known before written: a sync that stops after a put leaves the
		// key on the item for the next one.
		var add []string
		for k := range targets {
			if !had[k] {
				add = append(add, k)
			}
		}
		if found && len(add) > 0 {
			if err := s.updatePromptIdx(ctx, pid, "ADD idx :keys", add); err != nil {
				if isConditionFailed(err) {
					continue // deleted meanwhile
				}
				return err
			}
		}
		deltas, err := s.writeListingCopies(ctx, copyWrite{rev: it.Irev, unconditionalDeletes: !found, counts: isMembership, what: "listing copy"},
			asAny(targets), had, written)
		if err != nil {
			return err
		}
		if err := s.addCounts(ctx, deltas); err != nil {
			return err
		}
		if !found {
			return nil
		}
		var removed []string
		for k := range had {
			if _, keep := targets[k]; !keep {
				removed = append(removed, k)
			}
		}
		done, err := s.markSynced(ctx, pid, it.Irev, removed)
		if err != nil {
			return err
		}
		if done {
			return nil
		}
	}
	return fmt.Errorf("sync listing of prompt %s: it kept changing", pid)
}

// updatePromptIdx runs expr ("ADD idx :keys" or "DELETE idx :keys") on the
// prompt's item, if it exists.
func (s *Store) updatePromptIdx(ctx context.Context, pid, expr string, keys []string) error {
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String(s.table), Key: key(promptPK(pid), skPromptMeta),
		UpdateExpression:          aws.String(expr),
		ConditionExpression:       aws.String("attribute_exists(PK)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":keys": &types.AttributeValueMemberSS{Value: keys}},
	})
	return err
}

// markSynced records that the prompt's copies are at revision rev (and
// forgets the keys removed), if the prompt is still at rev; false when it
// moved on (the caller syncs again).
func (s *Store) markSynced(ctx context.Context, pid string, rev int, removed []string) (bool, error) {
	expr := "SET srev = :rev, lfmt = :fmt"
	values := map[string]types.AttributeValue{
		":rev": &types.AttributeValueMemberN{Value: strconv.Itoa(rev)},
		":fmt": &types.AttributeValueMemberN{Value: strconv.Itoa(listingFormat)},
	}
	if len(removed) > 0 {
		expr += " DELETE idx :gone"
		values[":gone"] = &types.AttributeValueMemberSS{Value: removed}
	}
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String(s.table), Key: key(promptPK(pid), skPromptMeta),
		UpdateExpression: aws.String(expr), ConditionExpression: aws.String("irev = :rev"),
		ExpressionAttributeValues: values,
	})
	if isConditionFailed(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("mark listing synced: %w", err)
	}
	return true, nil
}

// addCounts moves each partition's COUNT item by its delta.
func (s *Store) addCounts(ctx context.Context, deltas map[string]int) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(syncWorkers)
	for pk, d := range deltas {
		if d == 0 {
			continue
		}
		g.Go(func() error {
			_, err := s.db.UpdateItem(gctx, &dynamodb.UpdateItemInput{
				TableName: aws.String(s.table), Key: key(pk, skListCount),
				UpdateExpression:          aws.String("ADD n :d"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":d": &types.AttributeValueMemberN{Value: strconv.Itoa(d)}},
			})
			if err != nil {
				return fmt.Errorf("count listing: %w", err)
			}
			return nil
		})
	}
	return g.Wait()
}

// afterPromptWrite syncs the listing after a write to prompt pid. The
// write is done whatever happens here: a sync that fails is logged and
// leaves the prompt marked behind (srev), for the next write of it or the
// backfill to finish.
func (s *Store) afterPromptWrite(ctx context.Context, pid string) {
	if err := s.syncListing(context.WithoutCancel(ctx), pid, nil); err != nil {
		slog.ErrorContext(ctx, "marketplace listing not brought up to date", "prompt", pid, "err", err)
	}
}

// refreshListingRatings brings a prompt's copies in line with its new
// rating aggregate (it, as the rating's write left it): the rating fields
// of every copy, and the copy in the featured order, whose place the
// rating moves. A sync, as any write's (the rating moved the revision on).
func (s *Store) refreshListingRatings(ctx context.Context, it promptItem) {
	if err := s.syncListing(context.WithoutCancel(ctx), it.ID, nil); err != nil {
		slog.ErrorContext(ctx, "marketplace listing: rating not copied", "prompt", it.ID, "err", err)
	}
}

// BackfillPromptListings gives the listing every prompt whose copies are
// missing or behind: stored before the listing existed, in an older
// format, or left behind by a sync that failed. It reads the catalogue
// index (every prompt's item) once, so it runs outside requests: at the
// devserver's start, and by the operator after the deploy that brings the
// listing (infra/cmd/backfill-admin-index). Each prompt is synced as a
// write would, so running it again, or beside the functions, is safe.
func (s *Store) BackfillPromptListings(ctx context.Context) (int, error) {
	in := gsi1Query(gsiCatalogKey, "")
	in.FilterExpression = aws.String("attribute_not_exists(srev) OR attribute_not_exists(irev) OR srev <> irev OR attribute_not_exists(lfmt) OR lfmt <> :fmt")
	in.ProjectionExpression = aws.String("id")
	in.ExpressionAttributeValues[":fmt"] = &types.AttributeValueMemberN{Value: strconv.Itoa(listingFormat)}
	behind, err := queryAll[struct {
		ID string `dynamodbav:"id"`
	}](ctx, s, in, "backfill prompt listings")
	if err != nil {
		return 0, err
	}
	var mu sync.Mutex
	var recount []string
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(4)
	for _, b := range behind {
		g.Go(func() error {
			// A prompt stored before revisions starts at 1.
			_, err := s.db.UpdateItem(gctx, &dynamodb.UpdateItemInput{
				TableName: aws.String(s.table), Key: key(promptPK(b.ID), skPromptMeta),
				UpdateExpression:          aws.String("SET irev = if_not_exists(irev, :one)"),
				ConditionExpression:       aws.String("attribute_exists(PK)"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}},
			})
			if isConditionFailed(err) {
				return nil
			}
			if err != nil {
				return fmt.Errorf("backfill prompt listings: %w", err)
			}
			// Its partitions before and after: a sync that stopped may have
			// left a count in either off by one.
			before, err := s.listedIn(gctx, b.ID)
			if err != nil {
				return err
			}
			if err := s.syncListing(gctx, b.ID, nil); err != nil {
				return err
			}
			after, err := s.listedIn(gctx, b.ID)
			mu.Lock()
			recount = append(append(recount, before...), after...)
			mu.Unlock()
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return 0, err
	}
	if err := s.recountListings(ctx, recount); err != nil {
		return 0, err
	}
	return len(behind), nil
}

// BulkLoadPrompts writes new prompts with their listing in batches
// (BatchWriteItem, no conditions, counts added once at the end): for
// seeding an empty catalogue, and benchmarks and tests that need a large
// one in seconds. The ids must be new; the functions never call it (none
// of them writes in batches).
func (s *Store) BulkLoadPrompts(ctx context.Context, ps []domain.Prompt) error {
	// The cards first, then the counts, the prompts last: a load that
	// stops before the end leaves no prompt, and loading again writes the
	// same cards again (counted again only if it stopped in the moment
	// between the counts and the prompts).
	var bulk bulkListing
	for _, p := range ps {
		it := promptItem{PK: promptPK(p.ID), SK: skPromptMeta, GSI1PK: gsiCatalogKey, GSI1SK: promptGSI1SK(p.CreatedAt, p.ID), ID: p.ID,
			Title: p.Title, Description: p.Description, Content: p.Content, Price: roundCents(p.Price), CategoryID: p.CategoryID,
			Featured: p.Featured, CreatedAt: formatTime(p.CreatedAt), RatingSum: p.RatingSum, RatingCount: p.RatingCount,
			Unpublished: p.Unpublished, Version: p.Version, Irev: 1, Srev: 1, Lfmt: listingFormat}
		if !p.UpdatedAt.IsZero() {
			it.UpdatedAt = formatTime(p.UpdatedAt)
		}
		keys, err := bulk.copiesOf(asAny(listingTargets(it)), isMembership)
		if err != nil {
			return err
		}
		it.Idx = append(it.Idx, keys...)
		if err := bulk.entry(it); err != nil {
			return err
		}
	}
	return s.writeBulk(ctx, &bulk)
}

// batchPut writes items unconditionally, 25 a call, a few calls at once.
func (s *Store) batchPut(ctx context.Context, items []map[string]types.AttributeValue) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(syncWorkers)
	for chunk := range slices.Chunk(items, 25) {
		g.Go(func() error {
			reqs := make([]types.WriteRequest, len(chunk))
			for i, av := range chunk {
				reqs[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: av}}
			}
			pending := map[string][]types.WriteRequest{s.table: reqs}
			for len(pending) > 0 {
				out, err := s.db.BatchWriteItem(gctx, &dynamodb.BatchWriteItemInput{RequestItems: pending})
				if err != nil {
					return fmt.Errorf("bulk load prompts: %w", err)
				}
				pending = out.UnprocessedItems
			}
			return nil
		})
	}
	return g.Wait()
}

// asAny is m with its values as any (the copies' writer takes any item).
func asAny[V any](m map[string]V) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
