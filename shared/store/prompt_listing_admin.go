package store

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
	"aiwork/shared/prompts"
)

// The lists beside the marketplace's that read its copies rather than the
// whole catalogue: the featured prompts, the admins' prompt list and the
// categories' prompt counts. prompt_listing.go writes, besides a
// published prompt's cards,
//
//   - a copy of each published prompt flagged featured or rated in
//     PLIST#FEAT, its SK its place in the featured order (featuredSK), so
//     that the featured list is its first few; and
//   - a newest-order copy of each unpublished prompt in PLIST#OFF#ALL and
//     PLIST#OFF#CAT#<cid> (the drafts and the prompts taken off the
//     catalogue, which only admins list), each with its COUNT.
const (
	listFeaturedPK     = PKPromptList + "FEAT"
	listOffPre         = PKPromptList + "OFF#"
	listOffAllPK       = listOffPre + "ALL"
	listOffCategoryPre = listOffPre + "CAT#"

	featuredPre = "F#"
	// adminSearchExamined bounds the prompts one request of an admin's
	// search reads (whole prompts: their text is searched); it answers
	// what it found with the place to go on from.
	adminSearchExamined = 200
)

func listOffCategoryPK(cid string) string { return listOffCategoryPre + cid }

// featuredSK is p's place in the featured order (prompts.SortFeatured):
// flagged first, then the best rated (the average to one decimal, then
// the number of ratings), then the newest (created, then id, as SPEC §9's
// newest). Each part is inverted where the order is descending.
func featuredSK(p domain.Prompt) string {
	flag := 1
	if p.Featured {
		flag = 0
	}
	tenths := int(math.Round(p.RatingAvg() * 10))
	return fmt.Sprintf("%s%d#%03d#%010d#%s#%s", featuredPre, flag, 999-tenths, 9_999_999_999-int64(p.RatingCount),
		invertDigits(sortableTime(p.CreatedAt)), invertID(p.ID))
}

// FeaturedPrompts answers the featured list's n prompts (published):
// those flagged featured first, then the best rated (average, then number
// of ratings), then the newest (prompts.SortFeatured). The first n of the
// featured order hold the flagged and rated ones; when fewer are, the
// newest of the others follow. It reads those copies, a page of the
// newest when needed, and the n prompts: never the catalogue.
func (s *Store) FeaturedPrompts(ctx context.Context, n int) ([]domain.Prompt, error) {
	in := prefixQuery(AttrPK, AttrSK, listFeaturedPK, featuredPre)
	in.TableName, in.Limit = aws.String(s.table), aws.Int32(int32(n))
	res, err := s.db.Query(ctx, in)
	if err != nil {
		return nil, fmt.Errorf("featured prompts: %w", err)
	}
	var ranked []listingItem
	if err := attributevalue.UnmarshalListOfMaps(res.Items, &ranked); err != nil {
		return nil, fmt.Errorf("featured prompts: %w", err)
	}
	var ids []string
	for _, c := range ranked {
		ids = append(ids, c.ID)
	}
	if len(ids) < n {
		// Every flagged or rated prompt is in: the newest of the rest.
		newest, err := s.newestCopies(ctx, listAllPK, n+len(ids))
		if err != nil {
			return nil, err
		}
		for _, c := range newest {
			if len(ids) < n && !slices.Contains(ids, c.ID) {
				ids = append(ids, c.ID)
			}
		}
	}
	byID, err := s.GetPrompts(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := []domain.Prompt{}
	for _, id := range ids {
		// Taken off the catalogue since its copy was read: left out.
		if p, ok := byID[id]; ok && p.OnSale() {
			out = append(out, p)
		}
	}
	return out, nil
}

// newestCopies reads the first limit copies of partition pk, newest first.
func (s *Store) newestCopies(ctx context.Context, pk string, limit int) ([]listingItem, error) {
	in := prefixQuery(AttrPK, AttrSK, pk, listNewest)
	in.TableName, in.ScanIndexForward, in.Limit = aws.String(s.table), aws.Bool(false), aws.Int32(int32(limit))
	out, err := s.db.Query(ctx, in)
	if err != nil {
		return nil, fmt.Errorf("read listing %s: %w", pk, err)
	}
	var items []listingItem
	if err := attributevalue.UnmarshalListOfMaps(out.Items, &items); err != nil {
		return nil, fmt.Errorf("read listing %s: %w", pk, err)
	}
	return items, nil
}

// AdminPromptQuery asks for a page of the admins' prompt list: every
// prompt, published or not, newest first, that Filter keeps (its
// Search on the title and the description, its category and state).
type AdminPromptQuery struct {
	Filter prompts.Filter
	Limit  int
	Cursor string
}

// AdminPromptPage is a page of the admins' prompt list. Total is how many
// prompts the whole list has when TotalKnown (always without a search).
type AdminPromptPage struct {
	Prompts    []domain.Prompt
	NextCursor string
	Total      int
	TotalKnown bool
}

// adminCursor is where an admin's page ended: the last copy's SK in the
// partitions read, or, for a search, the last prompt's key in the
// catalogue index.
type adminCursor struct {
	After  string `json:"a,omitempty"`
	Search string `json:"s,omitempty"`
}

// AdminPrompts answers a page of the admins' prompt list; ErrBadCursor for
// a cursor this list did not give.
//
//   - Without a search: the copies of the state and category asked
//     (published: the marketplace's PLIST#ALL or PLIST#CAT#<cid>;
//     unpublished: PLIST#OFF#…; both merged for every state), the page
//     and one more, then the page's prompts by key; the total is the
//     partitions' COUNT items.
//   - A search (a part of the title or description, any case, as before)
//     reads whole prompts from the catalogue index, newest first, and
//     keeps those that match: at most adminSearchExamined a request, then
//     it answers what it found with the place to go on from. Its total is
//     known when its first page is its last.
func (s *Store) AdminPrompts(ctx context.Context, q AdminPromptQuery) (AdminPromptPage, error) {
	if q.Limit < 1 {
		return AdminPromptPage{}, fmt.Errorf("admin prompts: limit %d", q.Limit)
	}
	search := strings.TrimSpace(q.Filter.Search) != ""
	var cur adminCursor
	if q.Cursor != "" {
		raw, err := base64.RawURLEncoding.DecodeString(q.Cursor)
		if err != nil || json.Unmarshal(raw, &cur) != nil || (cur.After == "") == (cur.Search == "") || (cur.Search != "") != search ||
			(cur.After != "" && (!strings.HasPrefix(cur.After, listNewest) || len(cur.After) > maxSortKeyBytes)) {
			return AdminPromptPage{}, ErrBadCursor
		}
	}
	var (
		page AdminPromptPage
		err  error
	)
	if search {
		page, err = s.adminSearch(ctx, q, cur.Search)
	} else {
		page, err = s.adminPartitions(ctx, q, cur.After)
	}
	if err != nil {
		return AdminPromptPage{}, err
	}
	if page.Prompts == nil {
		page.Prompts = []domain.Prompt{}
	}
	return page, nil
}

func (s *Store) adminPartitions(ctx context.Context, q AdminPromptQuery, after string) (AdminPromptPage, error) {
	published, unpublished := listAllPK, listOffAllPK
	if cid := q.Filter.CategoryID; cid != "" {
		published, unpublished = listCategoryPK(cid), listOffCategoryPK(cid)
	}
	var pks []string
	switch q.Filter.State {
	case prompts.Published:
		pks = []string{published}
	case prompts.Unpublished:
		pks = []string{unpublished}
	default:
		pks = []string{published, unpublished}
	}
	counts, err := s.listCounts(ctx, pks)
	if err != nil {
		return AdminPromptPage{}, err
	}
	cards, err := s.mergePage(ctx, PromptListQuery{Order: prompts.Newest, Limit: q.Limit}, pks, after)
	if err != nil {
		return AdminPromptPage{}, err
	}
	ids := make([]string, len(cards.Cards))
	for i, c := range cards.Cards {
		ids[i] = c.ID
	}
	byID, err := s.GetPrompts(ctx, ids)
	if err != nil {
		return AdminPromptPage{}, err
	}
	page := AdminPromptPage{TotalKnown: true}
	for _, pk := range pks {
		page.Total += max(counts[pk], 0)
	}
	for _, id := range ids {
		if p, ok := byID[id]; ok {
			page.Prompts = append(page.Prompts, p)
		}
	}
	if cards.NextCursor != "" {
		page.NextCursor = encodeAdminCursor(adminCursor{After: cards.NextCursor})
	}
	return page, nil
}

func encodeAdminCursor(c adminCursor) string {
	b, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b)
}

func (s *Store) adminSearch(ctx context.Context, q AdminPromptQuery, cursor string) (AdminPromptPage, error) {
	l := listing{index: IndexGSI1, pkAttr: AttrGSI1PK, skAttr: AttrGSI1SK, pk: gsiCatalogKey}
	in := gsi1Query(gsiCatalogKey, "")
	in.TableName, in.ScanIndexForward = aws.String(s.table), aws.Bool(false)
	if cursor != "" {
		start, err := decodeListCursor(cursor, l)
		if err != nil {
			return AdminPromptPage{}, err
		}
		in.ExclusiveStartKey = start
	}
	var (
		page     AdminPromptPage
		keys     []map[string]types.AttributeValue // of the prompts kept
		last     map[string]types.AttributeValue   // of the last prompt read
		examined int
	)
	for {
		in.Limit = aws.Int32(int32(min(adminSearchExamined-examined, max(q.Limit+1, 4*examined))))
		out, err := s.db.Query(ctx, in)
		if err != nil {
			return AdminPromptPage{}, fmt.Errorf("admin prompts: %w", err)
		}
		for _, raw := range out.Items {
			examined++
			last = raw
			var it promptItem
			if err := attributevalue.UnmarshalMap(raw, &it); err != nil {
				return AdminPromptPage{}, fmt.Errorf("admin prompts: %w", err)
			}
			p := it.domain()
			if !q.Filter.Matches(p) {
				continue
			}
			if len(page.Prompts) == q.Limit {
				// One more matches: the page ends at the last one kept.
				page.NextCursor = encodeAdminCursor(adminCursor{Search: encodeListCursor(keys[len(keys)-1], l)})
				return page, nil
			}
			page.Prompts, keys = append(page.Prompts, p), append(keys, raw)
		}
		if out.LastEvaluatedKey == nil {
			page.Total, page.TotalKnown = len(page.Prompts), cursor == ""
			return page, nil
		}
		if examined >= adminSearchExamined {
			page.NextCursor = encodeAdminCursor(adminCursor{Search: encodeListCursor(last, l)})
			return page, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// CategoryPromptCounts answers how many prompts each category holds,
// published or not, from the COUNT items of its partitions (its
// marketplace one and its unpublished one): two small reads a category.
func (s *Store) CategoryPromptCounts(ctx context.Context, cids []string) (map[string]int, error) {
	var pks []string
	for _, cid := range cids {
		pks = append(pks, listCategoryPK(cid), listOffCategoryPK(cid))
	}
	counts, err := s.listCounts(ctx, pks)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int, len(cids))
	for _, cid := range cids {
		out[cid] = max(counts[listCategoryPK(cid)], 0) + max(counts[listOffCategoryPK(cid)], 0)
	}
	return out, nil
}
