package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"golang.org/x/sync/errgroup"

	"aiwork/shared/domain"
)

// A conversation's messages: each message's item, the chunk items holding
// text past it, and the saves of a reply as it is generated.

type messageBlockAtt struct {
	At    int    `dynamodbav:"at"`
	Frame string `dynamodbav:"frame"`
}

type messageItem struct {
	PK             string               `dynamodbav:"PK"`
	SK             string               `dynamodbav:"SK"`
	ID             string               `dynamodbav:"id"`
	ConversationID string               `dynamodbav:"conversation_id"`
	Role           string               `dynamodbav:"role"`
	Content        string               `dynamodbav:"content"`
	Chunks         int                  `dynamodbav:"chunks,omitempty"`
	CreatedAt      string               `dynamodbav:"created_at"`
	UpdatedAt      string               `dynamodbav:"updated_at"`
	Complete       bool                 `dynamodbav:"complete"`
	Error          string               `dynamodbav:"error,omitempty"`
	Truncated      bool                 `dynamodbav:"truncated,omitempty"`
	Usage          *domain.MessageUsage `dynamodbav:"usage,omitempty"`
	Blocks         []messageBlockAtt    `dynamodbav:"blocks,omitempty"`
	StopRequested  bool                 `dynamodbav:"stop_requested,omitempty"`
	Attachments    []attachmentAtt      `dynamodbav:"attachments,omitempty"`
}

// attachmentAtt is a user message's attached resource, by name.
type attachmentAtt struct {
	ConnectionID string `dynamodbav:"connection_id"`
	URI          string `dynamodbav:"uri"`
	Name         string `dynamodbav:"name"`
	MIMEType     string `dynamodbav:"mime_type,omitempty"`
	Size         int64  `dynamodbav:"size"`
}

// chunkItem holds text past a message's own item.
type chunkItem struct {
	PK   string `dynamodbav:"PK"`
	SK   string `dynamodbav:"SK"`
	Text string `dynamodbav:"text"`
}

func (it messageItem) domain(text string) domain.ConversationMessage {
	m := domain.ConversationMessage{ID: it.ID, ConversationID: it.ConversationID, Role: it.Role, Content: text,
		CreatedAt: parseTime(it.CreatedAt), UpdatedAt: parseTime(it.UpdatedAt), Complete: it.Complete, Error: it.Error,
		Truncated: it.Truncated, Usage: it.Usage, StopRequested: it.StopRequested}
	for _, b := range it.Blocks {
		m.Blocks = append(m.Blocks, domain.MessageBlock{At: b.At, Frame: []byte(b.Frame)})
	}
	for _, a := range it.Attachments {
		m.Attachments = append(m.Attachments, domain.MessageAttachment(a))
	}
	return m
}

// PutMessages writes new messages (each id new: concurrent requests never
// overwrite each other's).
func (s *Store) PutMessages(ctx context.Context, uid string, msgs ...domain.ConversationMessage) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(putMessagesAtOnce)
	for _, m := range msgs {
		head, chunks := messageItems(uid, m)
		g.Go(func() error {
			if err := s.putNew(ctx, head); err != nil {
				return fmt.Errorf("add message: %w", err)
			}
			for _, c := range chunks {
				if err := s.put(ctx, c); err != nil {
					return fmt.Errorf("add message: %w", err)
				}
			}
			return nil
		})
	}
	return g.Wait()
}

// putMessagesAtOnce bounds the writes of an upload of many messages.
const putMessagesAtOnce = 8

// DeleteMessages removes messages of uid's conversation cid that were
// written for a message that could not be kept (its claim failed).
func (s *Store) DeleteMessages(ctx context.Context, uid, cid string, mids ...string) error {
	for _, mid := range mids {
		if _, err := s.deleteAll(ctx, userPK(uid), convMessageSK(cid, mid)); err != nil {
			return fmt.Errorf("delete messages: %w", err)
		}
	}
	return nil
}

// SaveReply writes a reply's progress over its item (text, blocks, usage,
// whether it is complete) unless its user stopped it or its conversation
// or message was deleted: then ErrStopRequested, and nothing is written.
func (s *Store) SaveReply(ctx context.Context, uid string, m domain.ConversationMessage) error {
	return s.saveReply(ctx, uid, m, false)
}

// FinishStoppedReply writes the last state of a reply its user stopped
// (what it had when Stop came); ErrStopRequested only when it is gone.
func (s *Store) FinishStoppedReply(ctx context.Context, uid string, m domain.ConversationMessage) error {
	m.StopRequested = true
	return s.saveReply(ctx, uid, m, true)
}

func (s *Store) saveReply(ctx context.Context, uid string, m domain.ConversationMessage, stopped bool) error {
	head, chunks := messageItems(uid, m)
	av, err := attributevalue.MarshalMap(head)
	if err != nil {
		return fmt.Errorf("save reply: %w", err)
	}
	// The text past the head goes first: a reader sees the head's chunk
	// count only once its chunks are there.
	for _, c := range chunks {
		if err := s.put(ctx, c); err != nil {
			return fmt.Errorf("save reply: %w", err)
		}
	}
	// The conversation's own item is not read here (one call per save): a
	// deleted conversation's messages are deleted with it, so the
	// message's existence stands for both.
	in := &dynamodb.PutItemInput{TableName: aws.String(s.table), Item: av, ConditionExpression: aws.String("attribute_exists(PK)")}
	if !stopped {
		in.ConditionExpression = aws.String("attribute_exists(PK) AND (attribute_not_exists(stop_requested) OR stop_requested = :no)")
		in.ExpressionAttributeValues = map[string]types.AttributeValue{":no": &types.AttributeValueMemberBOOL{Value: false}}
	}
	_, err = s.db.PutItem(ctx, in)
	if isConditionFailed(err) && len(chunks) > 0 {
		var gone messageItem
		if s.getItem(ctx, head.PK, head.SK, &gone) == ErrNotFound {
			// The message is gone (its conversation deleted): the chunks
			// just written belong to nothing.
			for _, c := range chunks {
				_, _ = s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(s.table), Key: key(c.PK, c.SK)})
			}
		}
	}
	return conditional("save reply", err, ErrStopRequested)
}

// RequestStop marks uid's reply mid in conversation cid as stopped (its
// generating invocation ends at its next save); ErrNotFound if there is no
// such message.
func (s *Store) RequestStop(ctx context.Context, uid, cid, mid string) error {
	if !keyFits(userPK(uid), convMessageSK(cid, mid)) {
		return fmt.Errorf("stop reply: %w", ErrNotFound)
	}
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(s.table),
		Key:                       key(userPK(uid), convMessageSK(cid, mid)),
		UpdateExpression:          aws.String("SET stop_requested = :yes"),
		ConditionExpression:       aws.String("attribute_exists(PK)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":yes": &types.AttributeValueMemberBOOL{Value: true}},
	})
	return conditional("stop reply", err, fmt.Errorf("stop reply: %w", ErrNotFound))
}

// GetMessage answers one message of uid's conversation cid, its text whole.
func (s *Store) GetMessage(ctx context.Context, uid, cid, mid string) (domain.ConversationMessage, error) {
	if !keyFits(userPK(uid), convMessageChunkSK(cid, mid, 99)) {
		return domain.ConversationMessage{}, fmt.Errorf("get message: %w", ErrNotFound)
	}
	msgs, err := s.queryMessages(ctx, uid, convMessageSK(cid, mid))
	if err != nil {
		return domain.ConversationMessage{}, err
	}
	if len(msgs) == 0 || msgs[0].ID != mid {
		return domain.ConversationMessage{}, fmt.Errorf("get message: %w", ErrNotFound)
	}
	return msgs[0], nil
}

// ListMessages answers the messages of uid's conversation cid in order.
func (s *Store) ListMessages(ctx context.Context, uid, cid string) ([]domain.ConversationMessage, error) {
	return s.queryMessages(ctx, uid, convMessagesPrefix(cid))
}

// queryMessages reads the message and chunk items under prefix and joins
// each message's text.
func (s *Store) queryMessages(ctx context.Context, uid, prefix string) ([]domain.ConversationMessage, error) {
	raw, err := queryItems(ctx, s, partitionQuery(userPK(uid), prefix), "list messages")
	if err != nil {
		return nil, err
	}
	out := []domain.ConversationMessage{}
	var head *messageItem
	var text strings.Builder
	flush := func() {
		if head != nil {
			out = append(out, head.domain(text.String()))
		}
		head = nil
	}
	for _, item := range raw {
		if _, ok := item["role"]; ok {
			flush()
			var it messageItem
			if err := attributevalue.UnmarshalMap(item, &it); err != nil {
				return nil, fmt.Errorf("list messages: %w", err)
			}
			head = &it
			text.Reset()
			text.WriteString(it.Content)
			continue
		}
		var c chunkItem
		if err := attributevalue.UnmarshalMap(item, &c); err != nil {
			return nil, fmt.Errorf("list messages: %w", err)
		}
		if head != nil && strings.HasPrefix(c.SK, convMessageSK(head.ConversationID, head.ID)+"#") {
			n := 0
			fmt.Sscanf(c.SK[len(convMessageSK(head.ConversationID, head.ID))+1:], "%d", &n)
			if n <= head.Chunks { // a chunk left from a longer save is not part of the text
				text.WriteString(c.Text)
			}
		}
	}
	flush()
	return out, nil
}

// messageItems splits m into its item and its chunk items, cutting its
// text at MaxMessageText (on a character boundary).
func messageItems(uid string, m domain.ConversationMessage) (messageItem, []chunkItem) {
	text := m.Content
	if len(text) > MaxMessageText {
		text, m.Truncated = cutUTF8(text, MaxMessageText), true
	}
	first := cutUTF8(text, headText)
	rest := text[len(first):]
	var chunks []chunkItem
	for n := 1; rest != ""; n++ {
		part := cutUTF8(rest, chunkText)
		chunks = append(chunks, chunkItem{PK: userPK(uid), SK: convMessageChunkSK(m.ConversationID, m.ID, n), Text: part})
		rest = rest[len(part):]
	}
	it := messageItem{PK: userPK(uid), SK: convMessageSK(m.ConversationID, m.ID), ID: m.ID, ConversationID: m.ConversationID,
		Role: m.Role, Content: first, Chunks: len(chunks), CreatedAt: formatTime(m.CreatedAt), UpdatedAt: formatTime(m.UpdatedAt),
		Complete: m.Complete, Error: m.Error, Truncated: m.Truncated, Usage: m.Usage, StopRequested: m.StopRequested}
	for _, b := range m.Blocks {
		it.Blocks = append(it.Blocks, messageBlockAtt{At: b.At, Frame: string(b.Frame)})
	}
	for _, a := range m.Attachments {
		it.Attachments = append(it.Attachments, attachmentAtt(a))
	}
	return it, chunks
}

// cutUTF8 is the longest prefix of s of at most n bytes that ends on a
// character boundary.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
