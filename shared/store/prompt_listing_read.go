package store

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"golang.org/x/sync/errgroup"

	"aiwork/shared/domain"
	"aiwork/shared/prompts"
)

// Reading the marketplace listing (prompt_listing.go writes it).
//
// A page without a search is one Query of PLIST#ALL (or PLIST#CAT#<cid>)
// in the order's SK range, Limit one card more than the page (to know
// whether another follows), from the cursor's place, beside one GetItem
// of the partition's COUNT: about 3 RCU for 24 cards, whatever the
// catalogue's size.
//
// A search reads the partition of one of its words, the one listing the
// fewest prompts (the words' COUNT items, read first in one BatchGetItem),
// in the chosen order, and keeps each card that has its other words too
// (the card carries its words). A word that is in a category's name also
// finds that category's prompts: its partition is then read beside the
// category's, merged in order. A search that narrows a lot may read more
// than a page to fill one; each request reads at most maxExamined cards
// and answers what it found with the place to go on from.

// maxExamined bounds the cards one request reads to fill a page.
const maxExamined = 200

// maxFetch is the largest Query page a search asks for after its first.
const maxFetch = 100

// PromptListQuery asks for one page of the marketplace list.
type PromptListQuery struct {
	Order prompts.Order
	// CategoryID keeps one category's prompts ("": every category; an
	// unknown one lists nothing).
	CategoryID string
	// Words are the search's (prompts.QueryTokens); none: no search.
	Words []string
	// CategoryNames are the categories' names by id: a word of a name
	// finds that category's prompts.
	CategoryNames map[string]string
	// Only, when not nil, lists only these prompts (a user's own, read by
	// id, published or not) instead of the catalogue.
	Only []string
	// Limit is the page's size; Cursor the NextCursor of the page before
	// ("" for the first).
	Limit  int
	Cursor string
}

// PromptListPage is one page of the list.
type PromptListPage struct {
	Cards []domain.PromptCard
	// Prompts are the whole prompts an Only list read, by id.
	Prompts map[string]domain.Prompt
	// NextCursor continues the list ("" on its last page).
	NextCursor string
	// Count is how many prompts the list has when CountExact; otherwise
	// at least how many this page found (a search spanning pages that
	// would have to read them all to count).
	Count      int
	CountExact bool
}

// ListPrompts answers one page of the marketplace list; ErrBadCursor for a
// cursor this query did not give.
func (s *Store) ListPrompts(ctx context.Context, q PromptListQuery) (PromptListPage, error) {
	if q.Limit < 1 {
		return PromptListPage{}, fmt.Errorf("list prompts: limit %d", q.Limit)
	}
	if !slices.Contains(prompts.Orders, q.Order) {
		q.Order = prompts.Newest
	}
	cur, err := q.decodeCursor()
	if err != nil {
		return PromptListPage{}, err
	}
	var (
		page PromptListPage
		from []string
	)
	switch {
	case q.Only != nil:
		page, err = s.listOnly(ctx, q, cur.After)
	case len(q.Words) == 0:
		page, err = s.listPlain(ctx, q, cur.After)
	default:
		page, from, err = s.listSearch(ctx, q, cur)
	}
	if err != nil {
		return PromptListPage{}, err
	}
	page.NextCursor = q.encodeCursor(page.NextCursor, from)
	if page.Cards == nil {
		page.Cards = []domain.PromptCard{}
	}
	return page, nil
}

// listPlain is the list without a search: the catalogue or one category.
func (s *Store) listPlain(ctx context.Context, q PromptListQuery, after string) (PromptListPage, error) {
	pk := listAllPK
	if q.CategoryID != "" {
		pk = listCategoryPK(q.CategoryID)
	}
	var (
		page     PromptListPage
		count    int
		countErr error
		wg       sync.WaitGroup
	)
	wg.Go(func() {
		var counts map[string]int
		counts, countErr = s.listCounts(ctx, []string{pk})
		count = counts[pk]
	})
	page, err := s.mergePage(ctx, q, []string{pk}, after)
	wg.Wait()
	if err := errors.Join(err, countErr); err != nil {
		return PromptListPage{}, err
	}
	page.Count, page.CountExact = max(count, 0), true
	return page, nil
}

// searchSources are the partitions each of the search's words finds
// prompts in: its own, and those of the categories whose name has it
// (only the category asked for, if any).
func (q PromptListQuery) searchSources() map[string][]string {
	byName := prompts.CategoryMatches(q.Words, q.CategoryNames)
	sources := map[string][]string{}
	for _, w := range q.Words {
		pks := []string{listTokenPK(w)}
		for _, c := range byName[w] {
			if q.CategoryID == "" || c == q.CategoryID {
				pks = append(pks, listCategoryPK(c))
			}
		}
		sources[w] = pks
	}
	return sources
}

// searchPartitions are every partition the search may read.
func (q PromptListQuery) searchPartitions() map[string]bool {
	out := map[string]bool{}
	for _, pks := range q.searchSources() {
		for _, pk := range pks {
			out[pk] = true
		}
	}
	if q.CategoryID != "" {
		out[listCategoryPK(q.CategoryID)] = true
	}
	return out
}

// listSearch is a search: the partitions of its most selective word (or
// category), chosen on the first page by the partitions' counts and kept
// by the cursor.
func (s *Store) listSearch(ctx context.Context, q PromptListQuery, cur listCursor) (PromptListPage, []string, error) {
	sources := q.searchSources()
	from := cur.From
	var counts map[string]int
	if len(from) == 0 {
		var pks []string
		for pk := range q.searchPartitions() {
			pks = append(pks, pk)
		}
		slices.Sort(pks)
		var err error
		if counts, err = s.wordCounts.get(ctx, s, pks); err != nil {
			return PromptListPage{}, nil, err
		}
		// The fewest cards to read: a word's partitions, or the category's.
		bestSize := -1
		for _, w := range q.Words {
			size := 0
			for _, pk := range sources[w] {
				size += max(counts[pk], 0)
			}
			if bestSize < 0 || size < bestSize {
				from, bestSize = sources[w], size
			}
		}
		if q.CategoryID != "" && max(counts[listCategoryPK(q.CategoryID)], 0) < bestSize {
			from = []string{listCategoryPK(q.CategoryID)}
		}
	}
	page, err := s.mergePage(ctx, q, from, cur.After)
	if err != nil {
		return PromptListPage{}, nil, err
	}
	only := sources[q.Words[0]]
	switch {
	case len(q.Words) == 1 && q.CategoryID == "" && len(only) == 1 && counts != nil && page.NextCursor != "":
		// One word found by no category's name: its partition's count.
		page.Count, page.CountExact = max(counts[only[0]], len(page.Cards)), true
	case cur.After == "" && page.NextCursor == "":
		page.Count, page.CountExact = len(page.Cards), true
	default:
		page.Count = len(page.Cards)
	}
	return page, from, nil
}

// wordCountTTL is how long a process trusts the counts of the search
// words' partitions it read: they only choose which partition a search
// reads (any would answer the same cards) and give a one-word search's
// count, so a minute behind costs nothing but a count a minute old, and
// saves half a read unit per word of every search.
const wordCountTTL = time.Minute

// countCache holds partitions' counts, each read at most once per TTL.
type countCache struct {
	mu     sync.Mutex
	counts map[string]cachedCount
}

type cachedCount struct {
	n    int
	read time.Time
}

// get answers the counts of pks, reading those not read within the TTL.
func (c *countCache) get(ctx context.Context, s *Store, pks []string) (map[string]int, error) {
	out := make(map[string]int, len(pks))
	var missing []string
	c.mu.Lock()
	for _, pk := range pks {
		if cc, ok := c.counts[pk]; ok && time.Since(cc.read) < wordCountTTL {
			out[pk] = cc.n
		} else {
			missing = append(missing, pk)
		}
	}
	c.mu.Unlock()
	if len(missing) == 0 {
		return out, nil
	}
	read, err := s.listCounts(ctx, missing)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.counts == nil || len(c.counts) > 10_000 {
		c.counts = map[string]cachedCount{}
	}
	for _, pk := range missing {
		out[pk] = read[pk]
		c.counts[pk] = cachedCount{n: read[pk], read: now}
	}
	return out, nil
}

// stream reads one partition's cards in the query's order, a Query page at
// a time.
type stream struct {
	pk    string
	buf   []listingItem
	start map[string]types.AttributeValue
	done  bool
	limit int32
}

// mergePage reads partitions pks in the query's order from the place
// after, merged (a card in two of them is one), and keeps the cards that
// match the query until the page is full.
func (s *Store) mergePage(ctx context.Context, q PromptListQuery, pks []string, after string) (PromptListPage, error) {
	newest := q.Order != prompts.PriceLow && q.Order != prompts.PriceHigh
	first := func(a, b string) bool {
		if newest {
			return a > b
		}
		return a < b
	}
	streams := make([]*stream, len(pks))
	for i, pk := range pks {
		st := &stream{pk: pk, limit: int32(q.Limit + 1)}
		if after != "" {
			st.start = key(pk, after)
		}
		streams[i] = st
	}
	matches := q.matcher()
	var (
		out      []listingItem
		last     string
		examined int
	)
	for {
		// Every stream that has more needs its next card in hand.
		for _, st := range streams {
			if len(st.buf) > 0 || st.done {
				continue
			}
			if examined >= maxExamined {
				// Read enough for one request: go on from here next time.
				return pageOf(out, q.Limit, last), nil
			}
			if err := s.fetch(ctx, st, q.Order, newest); err != nil {
				return PromptListPage{}, err
			}
		}
		var next *stream
		for _, st := range streams {
			if len(st.buf) > 0 && (next == nil || first(st.buf[0].SK, next.buf[0].SK)) {
				next = st
			}
		}
		if next == nil {
			return pageOf(out, q.Limit, ""), nil
		}
		it := next.buf[0]
		for _, st := range streams {
			if len(st.buf) > 0 && st.buf[0].SK == it.SK {
				st.buf = st.buf[1:]
			}
		}
		examined++
		last = it.SK
		if matches(it) {
			out = append(out, it)
			if len(out) > q.Limit {
				return pageOf(out, q.Limit, ""), nil
			}
		}
	}
}

// pageOf makes the page of cards found: with one more than limit, the
// list goes on after the limit-th; otherwise after rest ("": it ends).
func pageOf(found []listingItem, limit int, rest string) PromptListPage {
	next := rest
	if len(found) > limit {
		found = found[:limit]
		next = found[limit-1].SK
	}
	cards := make([]domain.PromptCard, len(found))
	for i, it := range found {
		cards[i] = it.card()
	}
	return PromptListPage{Cards: cards, NextCursor: next}
}

// fetch reads the stream's next Query page.
func (s *Store) fetch(ctx context.Context, st *stream, o prompts.Order, newest bool) error {
	in := prefixQuery(AttrPK, AttrSK, st.pk, orderPrefix(o))
	in.TableName = aws.String(s.table)
	in.ScanIndexForward = aws.Bool(!newest)
	in.Limit = aws.Int32(st.limit)
	in.ExclusiveStartKey = st.start
	out, err := s.db.Query(ctx, in)
	if err != nil {
		return fmt.Errorf("list prompts: %w", err)
	}
	var items []listingItem
	if err := attributevalue.UnmarshalListOfMaps(out.Items, &items); err != nil {
		return fmt.Errorf("list prompts: %w", err)
	}
	st.buf = items
	st.start = out.LastEvaluatedKey
	st.done = out.LastEvaluatedKey == nil
	st.limit = min(2*st.limit, maxFetch)
	return nil
}

// matcher answers whether a card read belongs to the query: its category,
// and every word, in its own words or its category's name.
func (q PromptListQuery) matcher() func(listingItem) bool {
	byName := prompts.CategoryMatches(q.Words, q.CategoryNames)
	return func(it listingItem) bool {
		if q.CategoryID != "" && it.CategoryID != q.CategoryID {
			return false
		}
		for _, w := range q.Words {
			if !slices.Contains(it.Words, w) && !slices.Contains(byName[w], it.CategoryID) {
				return false
			}
		}
		return true
	}
}

// listCounts reads the COUNT items of partitions pks (missing: 0).
func (s *Store) listCounts(ctx context.Context, pks []string) (map[string]int, error) {
	keys := make([]map[string]types.AttributeValue, len(pks))
	for i, pk := range pks {
		keys[i] = key(pk, skListCount)
	}
	items, err := s.batchGet(ctx, keys, false)
	if err != nil {
		return nil, fmt.Errorf("list counts: %w", err)
	}
	out := make(map[string]int, len(pks))
	for _, raw := range items {
		var c countItem
		if err := attributevalue.UnmarshalMap(raw, &c); err != nil {
			return nil, fmt.Errorf("list counts: %w", err)
		}
		out[c.PK] = c.N
	}
	return out, nil
}

// batchGet reads the items at keys (at most 100 a call, any number of
// calls, keys DynamoDB left unprocessed asked again); missing ones are
// left out.
func (s *Store) batchGet(ctx context.Context, keys []map[string]types.AttributeValue, consistent bool) ([]map[string]types.AttributeValue, error) {
	// Batches of 100 (DynamoDB's limit), side by side: a request's round
	// trips do not grow with the keys.
	var mu sync.Mutex
	var out []map[string]types.AttributeValue
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(batchGetsAtOnce)
	for chunk := range slices.Chunk(keys, 100) {
		g.Go(func() error {
			req := map[string]types.KeysAndAttributes{s.table: {Keys: chunk, ConsistentRead: aws.Bool(consistent)}}
			for len(req) > 0 {
				res, err := s.db.BatchGetItem(gctx, &dynamodb.BatchGetItemInput{RequestItems: req})
				if err != nil {
					return err
				}
				mu.Lock()
				out = append(out, res.Responses[s.table]...)
				mu.Unlock()
				req = res.UnprocessedKeys
				if len(req) > 0 {
					if err := gctx.Err(); err != nil {
						return err
					}
				}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

// batchGetsAtOnce bounds the batches one batchGet has in flight.
const batchGetsAtOnce = 4

// GetPrompts reads the prompts with the given ids (those that exist), by
// id.
func (s *Store) GetPrompts(ctx context.Context, ids []string) (map[string]domain.Prompt, error) {
	keys := make([]map[string]types.AttributeValue, 0, len(ids))
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] || !keyFits(promptPK(id), skPromptMeta) {
			continue
		}
		seen[id] = true
		keys = append(keys, key(promptPK(id), skPromptMeta))
	}
	raw, err := s.batchGet(ctx, keys, false)
	if err != nil {
		return nil, fmt.Errorf("get prompts: %w", err)
	}
	var items []promptItem
	if err := attributevalue.UnmarshalListOfMaps(raw, &items); err != nil {
		return nil, fmt.Errorf("get prompts: %w", err)
	}
	out := make(map[string]domain.Prompt, len(items))
	for _, it := range items {
		out[it.ID] = it.domain()
	}
	return out, nil
}

// listOnly is the list of the Only prompts (a user's own: few, read by id,
// then filtered, ordered and paged here with the same cursors).
func (s *Store) listOnly(ctx context.Context, q PromptListQuery, after string) (PromptListPage, error) {
	all, err := s.GetPrompts(ctx, q.Only)
	if err != nil {
		return PromptListPage{}, err
	}
	byName := prompts.CategoryMatches(q.Words, q.CategoryNames)
	type placed struct {
		sk string
		p  domain.Prompt
	}
	var found []placed
	for _, p := range all {
		if q.CategoryID != "" && p.CategoryID != q.CategoryID {
			continue
		}
		words := prompts.IndexTokens(p)
		if !allFound(q.Words, words, byName, p.CategoryID) {
			continue
		}
		found = append(found, placed{listingSK(q.Order, p.CreatedAt, p.ID, p.Price), p})
	}
	newest := q.Order != prompts.PriceLow && q.Order != prompts.PriceHigh
	slices.SortFunc(found, func(a, b placed) int {
		if newest {
			return strings.Compare(b.sk, a.sk)
		}
		return strings.Compare(a.sk, b.sk)
	})
	total := len(found)
	if after != "" {
		i := slices.IndexFunc(found, func(x placed) bool {
			if newest {
				return x.sk < after
			}
			return x.sk > after
		})
		if i < 0 {
			i = len(found)
		}
		found = found[i:]
	}
	page := PromptListPage{Prompts: make(map[string]domain.Prompt), Count: total, CountExact: true}
	if len(found) > q.Limit {
		found = found[:q.Limit]
		page.NextCursor = found[q.Limit-1].sk
	}
	for _, f := range found {
		page.Cards = append(page.Cards, prompts.Card(f.p))
		page.Prompts[f.p.ID] = f.p
	}
	return page, nil
}

func allFound(words, have []string, byName map[string][]string, category string) bool {
	for _, w := range words {
		if !slices.Contains(have, w) && !slices.Contains(byName[w], category) {
			return false
		}
	}
	return true
}

// A list cursor is the place the page before ended (the SK of its last
// card), with the order and a hash of the query it was given for:
// base64url JSON. The place needs no card there, so a card added or
// removed between two pages moves nothing: the next page starts right
// after the last card shown.
type listCursor struct {
	Order string `json:"o"`
	Query string `json:"q"`
	After string `json:"k"`
	// From are the partitions a search reads, chosen on its first page.
	From []string `json:"p,omitempty"`
}

// queryHash names what a cursor continues: the order, category, words and
// whether it lists someone's own prompts.
func (q PromptListQuery) queryHash() string {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%v", q.Order, q.CategoryID, strings.Join(q.Words, " "), q.Only != nil)
	return strconv.FormatUint(h.Sum64(), 36)
}

// encodeCursor makes the cursor continuing q after the SK after, reading
// partitions from.
func (q PromptListQuery) encodeCursor(after string, from []string) string {
	if after == "" {
		return ""
	}
	b, _ := json.Marshal(listCursor{Order: string(q.Order), Query: q.queryHash(), After: after, From: from})
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor answers the place the cursor continues from and the
// partitions it reads (each one the search may read).
func (q PromptListQuery) decodeCursor() (listCursor, error) {
	if q.Cursor == "" {
		return listCursor{}, nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(q.Cursor)
	if err != nil {
		return listCursor{}, ErrBadCursor
	}
	var c listCursor
	if json.Unmarshal(raw, &c) != nil || c.Order != string(q.Order) || c.Query != q.queryHash() ||
		!strings.HasPrefix(c.After, orderPrefix(q.Order)) || len(c.After) > maxSortKeyBytes {
		return listCursor{}, ErrBadCursor
	}
	allowed := q.searchPartitions()
	for _, pk := range c.From {
		if !allowed[pk] {
			return listCursor{}, ErrBadCursor
		}
	}
	return c, nil
}
