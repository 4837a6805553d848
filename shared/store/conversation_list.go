package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
)

// History's list: a page of a user's conversations, newest first, at the
// same cost whatever their number (docs/design-listings.md, "History").
//
// Beside each conversation's item (CONV#<cid>, with its search snippets) the
// user's partition holds a small copy of what the list shows (CONVL#<cid>:
// no snippets), keyed in GSI1 by the list it is in (CONVLIST#<uid>#open or
// #archived) and its place there (its update time, fixed width, then its
// id). A page is one Query of that GSI1 partition, backwards. The copy has
// one key for the conversation's life, so moving it is one put and the
// index moves its entry: no old copy to find and delete.
//
// The copy follows the conversation's revision (lrev, moved by every write
// that changes what the list shows): a put never lands over a newer one,
// so the last write leaves the copy as the conversation is, whatever the
// interleaving. Once the conversation is listed (its item's listed), a
// write only replaces its copy, never makes one: a write still in flight
// when the conversation is deleted cannot list it again. A conversation
// not listed yet (kept before the list, or whose copy could not be made)
// gets its copy from its next write or the backfill.
//
// Beside them, CONVCOUNT counts the user's conversations (the dashboard's
// total) without reading them.

// GSI1ConversationList prefixes the GSI1 partitions of the History lists
// (the chat function queries them).
const GSI1ConversationList = "CONVLIST#"

const (
	convListPrefix = "CONVL#"
	skConvCount    = "CONVCOUNT"
	// listTimeForm orders update times as strings (RFC3339Nano drops
	// trailing zeros and would not).
	listTimeForm = "2006-01-02T15:04:05.000000000Z07:00"
)

// MaxConversationSearchRead bounds the conversations one search request
// reads: it answers the matches among them and the place to go on from.
const MaxConversationSearchRead = 150

func convListSK(cid string) string { return convListPrefix + cid }

func convListPK(uid string, archived bool) string {
	if archived {
		return GSI1ConversationList + uid + "#archived"
	}
	return GSI1ConversationList + uid + "#open"
}

func convListPlace(updated time.Time, cid string) string {
	return updated.UTC().Format(listTimeForm) + "#" + cid
}

// convListItem is the list's copy of a conversation.
type convListItem struct {
	PK           string `dynamodbav:"PK"`
	SK           string `dynamodbav:"SK"`
	GSI1PK       string `dynamodbav:"GSI1PK"`
	GSI1SK       string `dynamodbav:"GSI1SK"`
	ID           string `dynamodbav:"id"`
	Title        string `dynamodbav:"title"`
	Provider     string `dynamodbav:"provider"`
	Model        string `dynamodbav:"model"`
	CreatedAt    string `dynamodbav:"created_at"`
	UpdatedAt    string `dynamodbav:"updated_at"`
	Archived     bool   `dynamodbav:"archived"`
	MessageCount int    `dynamodbav:"message_count"`
	AgentID      string `dynamodbav:"agent_id,omitempty"`
	AgentName    string `dynamodbav:"agent_name,omitempty"`
	Rev          int64  `dynamodbav:"lrev"`
}

func (it convListItem) domain() domain.Conversation {
	return domain.Conversation{ID: it.ID, Title: it.Title, Provider: it.Provider, Model: it.Model,
		CreatedAt: parseTime(it.CreatedAt), UpdatedAt: parseTime(it.UpdatedAt), Archived: it.Archived, MessageCount: it.MessageCount,
		AgentID: it.AgentID, AgentName: it.AgentName}
}

func listCopy(uid string, c conversationItem) convListItem {
	return convListItem{PK: userPK(uid), SK: convListSK(c.ID),
		GSI1PK: convListPK(uid, c.Archived), GSI1SK: convListPlace(parseTime(c.UpdatedAt), c.ID),
		ID: c.ID, Title: c.Title, Provider: c.Provider, Model: c.Model, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt,
		Archived: c.Archived, MessageCount: c.MessageCount, AgentID: c.AgentID, AgentName: c.AgentName, Rev: c.LRev}
}

// How a copy is put.
type copyPut int

const (
	// copyMade: the conversation's first copy, at its creation; it
	// replaces a copy left by a conversation that had the id before
	// (another created_at).
	copyMade copyPut = iota
	// copyMoved: a listed conversation's copy replaced, never made.
	copyMoved
	// copyHealed: a conversation not listed yet gets its copy.
	copyHealed
)

// putListCopy writes c's copy as c is at its revision, unless the copy
// holds that revision or a later one already (or, moved, is gone); false
// when it was not written.
func (s *Store) putListCopy(ctx context.Context, uid string, c conversationItem, how copyPut) (bool, error) {
	av, err := attributevalue.MarshalMap(listCopy(uid, c))
	if err != nil {
		return false, err
	}
	cond := map[copyPut]string{
		copyMade:   "attribute_not_exists(PK) OR created_at <> :c OR lrev < :r",
		copyMoved:  "attribute_exists(PK) AND created_at = :c AND lrev < :r",
		copyHealed: "attribute_not_exists(PK) OR (created_at = :c AND lrev < :r)",
	}[how]
	_, err = s.db.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: aws.String(s.table), Item: av, ConditionExpression: aws.String(cond),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":c": &types.AttributeValueMemberS{Value: c.CreatedAt},
			":r": &types.AttributeValueMemberN{Value: strconv.FormatInt(c.LRev, 10)},
		},
	})
	if isConditionFailed(err) {
		return false, nil
	}
	return err == nil, err
}

// syncListCopy brings c's copy in line after a write to c (made: its
// creation). A conversation not listed yet is listed: its copy made, then
// its item marked (and the copy taken back should the item be gone
// meanwhile). A copy that could not be written is logged, not the write's
// failure: the conversation's next write, or the backfill, lists it.
func (s *Store) syncListCopy(ctx context.Context, uid string, c conversationItem, made bool) {
	if err := s.listConversation(ctx, uid, c, made); err != nil {
		slog.ErrorContext(ctx, "History list not brought up to date", "conversation", c.ID, "err", err)
	}
}

func (s *Store) listConversation(ctx context.Context, uid string, c conversationItem, made bool) error {
	switch {
	case made:
		if _, err := s.putListCopy(ctx, uid, c, copyMade); err != nil {
			// Not listed: its next write makes the copy.
			return errors.Join(err, s.markListed(ctx, uid, c, false))
		}
		return nil
	case c.Listed:
		_, err := s.putListCopy(ctx, uid, c, copyMoved)
		return err
	}
	put, err := s.putListCopy(ctx, uid, c, copyHealed)
	if err != nil || !put {
		return err
	}
	err = s.markListed(ctx, uid, c, true)
	if errors.Is(err, ErrNotFound) {
		// Deleted meanwhile: its delete found no copy to take off.
		return s.dropListCopy(ctx, uid, c.ID, c.CreatedAt)
	}
	return err
}

// markListed records on uid's conversation c (c's very item, by its
// created_at) whether it has its copy; ErrNotFound when it is gone.
func (s *Store) markListed(ctx context.Context, uid string, c conversationItem, listed bool) error {
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String(s.table), Key: key(userPK(uid), conversationSK(c.ID)),
		UpdateExpression:    aws.String("SET listed = :l"),
		ConditionExpression: aws.String("attribute_exists(PK) AND created_at = :c"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":l": &types.AttributeValueMemberBOOL{Value: listed},
			":c": &types.AttributeValueMemberS{Value: c.CreatedAt},
		},
	})
	return conditional("list conversation", err, ErrNotFound)
}

// dropListCopy deletes the copy of uid's conversation cid made at created
// (not a copy of a conversation made since under the same id).
func (s *Store) dropListCopy(ctx context.Context, uid, cid, created string) error {
	_, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName: aws.String(s.table), Key: key(userPK(uid), convListSK(cid)),
		ConditionExpression:       aws.String("created_at = :c"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":c": &types.AttributeValueMemberS{Value: created}},
	})
	return conditional("unlist conversation", err, nil)
}

// dropOrphanCopy takes off the list the copy of a conversation whose item
// is gone (a delete stopped between its two writes), so that Delete on
// what the list shows clears it. The copy is read before the item: a copy
// is written after its item, so a copy found with no item after it is an
// orphan.
func (s *Store) dropOrphanCopy(ctx context.Context, uid, cid string) error {
	var cp convListItem
	if err := s.getItem(ctx, userPK(uid), convListSK(cid), &cp); errors.Is(err, ErrNotFound) {
		return nil
	} else if err != nil {
		return err
	}
	var it conversationItem
	if err := s.getItem(ctx, userPK(uid), conversationSK(cid), &it); !errors.Is(err, ErrNotFound) {
		return err
	}
	return s.dropListCopy(ctx, uid, cid, cp.CreatedAt)
}

// countConversation moves uid's conversation count by delta; never below
// zero. The count is taken before any conversation of uid is made or
// deleted (ensureCounted), so a move never lands on a count not yet taken.
func (s *Store) countConversation(ctx context.Context, uid string, delta int) {
	in := &dynamodb.UpdateItemInput{
		TableName: aws.String(s.table), Key: key(userPK(uid), skConvCount),
		UpdateExpression:          aws.String("ADD n :d"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":d": &types.AttributeValueMemberN{Value: strconv.Itoa(delta)}},
	}
	if delta < 0 {
		in.ConditionExpression = aws.String("n >= :min")
		in.ExpressionAttributeValues[":min"] = &types.AttributeValueMemberN{Value: strconv.Itoa(-delta)}
	}
	if _, err := s.db.UpdateItem(ctx, in); err != nil && !isConditionFailed(err) {
		slog.ErrorContext(ctx, "conversation count not moved", "user", uid, "err", err)
	}
}

type convCountItem struct {
	N       int  `dynamodbav:"n"`
	Counted bool `dynamodbav:"counted"`
}

// CountConversations counts uid's conversations (archived ones included):
// one read of their counter. The first time (a counter never taken, as
// for conversations kept before it), they are counted once and the counter
// set to that count. Every create and delete takes it first
// (ensureCounted), so none of them moves it while it is being taken: a
// count taken beside a create that is past that point would count its
// conversation twice.
func (s *Store) CountConversations(ctx context.Context, uid string) (int, error) {
	for {
		var c convCountItem
		err := s.getItem(ctx, userPK(uid), skConvCount, &c)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return 0, fmt.Errorf("count conversations: %w", err)
		}
		if c.Counted {
			return max(c.N, 0), nil
		}
		in := partitionQuery(userPK(uid), conversationPrefix)
		in.TableName, in.Select = aws.String(s.table), types.SelectCount
		p := dynamodb.NewQueryPaginator(s.db, in)
		n := 0
		for p.HasMorePages() {
			page, err := p.NextPage(ctx)
			if err != nil {
				return 0, fmt.Errorf("count conversations: %w", err)
			}
			n += int(page.Count)
		}
		_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName: aws.String(s.table), Key: key(userPK(uid), skConvCount),
			UpdateExpression:    aws.String("SET counted = :t, n = :n"),
			ConditionExpression: aws.String("attribute_not_exists(counted)"),
			ExpressionAttributeValues: map[string]types.AttributeValue{
				":t": &types.AttributeValueMemberBOOL{Value: true},
				":n": &types.AttributeValueMemberN{Value: strconv.Itoa(n)},
			},
		})
		if isConditionFailed(err) {
			continue // counted by another request meanwhile
		}
		if err != nil {
			return 0, fmt.Errorf("count conversations: %w", err)
		}
		return n, nil
	}
}

// ensureCounted takes uid's count if it was never taken (see
// CountConversations); a failure is logged: the count is then taken at its
// next read, possibly one off.
func (s *Store) ensureCounted(ctx context.Context, uid string) {
	if _, err := s.CountConversations(ctx, uid); err != nil {
		slog.ErrorContext(ctx, "conversation count not taken", "user", uid, "err", err)
	}
}

// ConversationPlace is a conversation's place in its list: its update time
// and id.
type ConversationPlace struct {
	UpdatedAt time.Time
	ID        string
}

// ConversationListQuery asks for one page of a user's conversations.
type ConversationListQuery struct {
	Archived bool
	// Search is what the title or the snippets must hold, lower-cased;
	// "" lists every conversation.
	Search string
	Limit  int
	// After is the place the page before ended; nil for the first page.
	After *ConversationPlace
}

// ConversationListPage is one page of the list, newest first.
type ConversationListPage struct {
	Conversations []domain.Conversation
	// Next is the place to go on from; nil when nothing follows.
	Next *ConversationPlace
}

// ListConversationPage answers one page of uid's open or archived
// conversations, newest first (update time, then id): one Query of their
// list. A search reads the list in the same order and keeps the
// conversations whose title (on the copy) or search snippets (on the
// conversation's item, read in batches for those whose title does not
// match) hold it; one request reads at most MaxConversationSearchRead
// conversations and answers the matches among them, possibly fewer than
// Limit or none, with the place to go on from.
func (s *Store) ListConversationPage(ctx context.Context, uid string, q ConversationListQuery) (ConversationListPage, error) {
	if q.Limit < 1 {
		return ConversationListPage{}, fmt.Errorf("list conversations: limit %d", q.Limit)
	}
	if q.After != nil && !keyFits(userPK(uid), conversationSK(q.After.ID)) {
		return ConversationListPage{}, ErrBadCursor
	}
	in := gsi1Query(convListPK(uid, q.Archived), "")
	in.TableName, in.ScanIndexForward = aws.String(s.table), aws.Bool(false)
	if q.After != nil {
		in.KeyConditionExpression = aws.String(AttrGSI1PK + " = :pk AND " + AttrGSI1SK + " < :after")
		in.ExpressionAttributeValues[":after"] = &types.AttributeValueMemberS{Value: convListPlace(q.After.UpdatedAt, q.After.ID)}
	}
	if q.Search == "" {
		return s.listConversationsPlain(ctx, in, q.Limit)
	}
	return s.searchConversations(ctx, uid, in, q)
}

// listConversationsPlain reads the page and one more, to know whether
// another page follows.
func (s *Store) listConversationsPlain(ctx context.Context, in *dynamodb.QueryInput, limit int) (ConversationListPage, error) {
	page := ConversationListPage{Conversations: []domain.Conversation{}}
	in.Limit = aws.Int32(int32(limit + 1))
	for {
		out, err := s.db.Query(ctx, in)
		if err != nil {
			return page, fmt.Errorf("list conversations: %w", err)
		}
		var items []convListItem
		if err := attributevalue.UnmarshalListOfMaps(out.Items, &items); err != nil {
			return page, fmt.Errorf("list conversations: %w", err)
		}
		for _, it := range items {
			if len(page.Conversations) == limit {
				last := page.Conversations[limit-1]
				page.Next = &ConversationPlace{UpdatedAt: last.UpdatedAt, ID: last.ID}
				return page, nil
			}
			page.Conversations = append(page.Conversations, it.domain())
		}
		if out.LastEvaluatedKey == nil {
			return page, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
		in.Limit = aws.Int32(int32(limit + 1 - len(page.Conversations)))
	}
}

// searchConversations reads the list in chunks (at most 100, a batch
// read's size) and keeps the matches, until the page is full, the read
// bound is reached or the list ends.
func (s *Store) searchConversations(ctx context.Context, uid string, in *dynamodb.QueryInput, q ConversationListQuery) (ConversationListPage, error) {
	page := ConversationListPage{Conversations: []domain.Conversation{}}
	// The copies first, all at once (small: a few hundred bytes each),
	// then the texts of those whose title does not match: the first block,
	// which a common word's page often fills, then the rest, its batches
	// side by side. A request's work and round trips stay the same
	// whatever the number of conversations.
	items, more, err := s.queryListCopies(ctx, in, MaxConversationSearchRead)
	if err != nil {
		return page, err
	}
	for start := 0; start < len(items); {
		end := len(items)
		if start == 0 {
			end = min(searchFirstBlock, len(items))
		}
		texts, err := s.searchTexts(ctx, uid, items[start:end], q.Search)
		if err != nil {
			return page, err
		}
		for i := start; i < end; i++ {
			it := items[i]
			if !strings.Contains(strings.ToLower(it.Title), q.Search) && !strings.Contains(texts[it.ID], q.Search) {
				continue
			}
			page.Conversations = append(page.Conversations, it.domain())
			if len(page.Conversations) == q.Limit && (i < len(items)-1 || more) {
				// Full, with more to read: go on from here next time.
				page.Next = &ConversationPlace{UpdatedAt: it.domain().UpdatedAt, ID: it.ID}
				return page, nil
			}
		}
		start = end
	}
	if more {
		last := items[len(items)-1]
		page.Next = &ConversationPlace{UpdatedAt: parseTime(last.UpdatedAt), ID: last.ID}
	}
	return page, nil
}

// searchFirstBlock is how many conversations a search matches before it
// reads the texts of the rest of what it read.
const searchFirstBlock = 50

// queryListCopies reads up to n copies of the list in in's order; more
// reports whether the list goes on past them.
func (s *Store) queryListCopies(ctx context.Context, in *dynamodb.QueryInput, n int) (items []convListItem, more bool, err error) {
	for len(items) < n {
		in.Limit = aws.Int32(int32(n - len(items)))
		out, err := s.db.Query(ctx, in)
		if err != nil {
			return nil, false, fmt.Errorf("search conversations: %w", err)
		}
		var got []convListItem
		if err := attributevalue.UnmarshalListOfMaps(out.Items, &got); err != nil {
			return nil, false, fmt.Errorf("search conversations: %w", err)
		}
		items = append(items, got...)
		if out.LastEvaluatedKey == nil || len(got) == 0 {
			return items, false, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
	return items, true, nil
}

// searchTexts reads what q= matches on (the lower-cased title and the
// snippets) of the items whose title on the copy does not hold search
// already; by id.
func (s *Store) searchTexts(ctx context.Context, uid string, items []convListItem, search string) (map[string]string, error) {
	var keys []map[string]types.AttributeValue
	for _, it := range items {
		if !strings.Contains(strings.ToLower(it.Title), search) {
			keys = append(keys, key(userPK(uid), conversationSK(it.ID)))
		}
	}
	if len(keys) == 0 {
		return nil, nil
	}
	raw, err := s.batchGet(ctx, keys, false)
	if err != nil {
		return nil, fmt.Errorf("search conversations: %w", err)
	}
	var convs []conversationItem
	if err := attributevalue.UnmarshalListOfMaps(raw, &convs); err != nil {
		return nil, fmt.Errorf("search conversations: %w", err)
	}
	out := make(map[string]string, len(convs))
	for _, c := range convs {
		out[c.ID] = c.domain().Search
	}
	return out, nil
}

// BackfillConversationLists lists the conversations that are not listed
// yet (kept before History's list, or whose copy could not be made): each
// gets its copy, as its next write would give it. It scans the table once,
// so it runs outside requests (the devserver's start, the operator's
// backfill); running it again, or beside the functions, is safe.
func (s *Store) BackfillConversationLists(ctx context.Context) (int, error) {
	p := dynamodb.NewScanPaginator(s.db, &dynamodb.ScanInput{
		TableName:            aws.String(s.table),
		FilterExpression:     aws.String("begins_with(#sk, :conv) AND begins_with(#pk, :users) AND (attribute_not_exists(#l) OR #l = :f)"),
		ProjectionExpression: aws.String("#pk, #sk, #id, #t, #p, #m, #c, #u, #a, #n, #r"),
		ExpressionAttributeNames: map[string]string{"#pk": AttrPK, "#sk": AttrSK, "#id": "id", "#t": "title", "#p": "provider", "#m": "model",
			"#c": "created_at", "#u": "updated_at", "#a": "archived", "#n": "message_count", "#r": "lrev", "#l": "listed"},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":conv": &types.AttributeValueMemberS{Value: conversationPrefix}, ":users": &types.AttributeValueMemberS{Value: PKUser},
			":f": &types.AttributeValueMemberBOOL{Value: false},
		},
	})
	n := 0
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return n, fmt.Errorf("backfill conversation lists: %w", err)
		}
		var items []conversationItem
		if err := attributevalue.UnmarshalListOfMaps(page.Items, &items); err != nil {
			return n, fmt.Errorf("backfill conversation lists: %w", err)
		}
		for _, it := range items {
			if err := s.listConversation(ctx, strings.TrimPrefix(it.PK, PKUser), it, false); err != nil {
				return n, fmt.Errorf("backfill conversation lists: %w", err)
			}
			n++
		}
	}
	return n, nil
}
