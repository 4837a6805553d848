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
	if !keyFits(userPK(uid), convMessagePartSK(cid, mid, maxReplyParts)) {
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

// queryMessages reads the message, chunk and part items under prefix and
// joins each message's text and tool frames; a reply's time is its latest
// save's.
func (s *Store) queryMessages(ctx context.Context, uid, prefix string) ([]domain.ConversationMessage, error) {
	raw, err := queryItems(ctx, s, partitionQuery(userPK(uid), prefix), "list messages")
	if err != nil {
		return nil, err
	}
	out := []domain.ConversationMessage{}
	var head *messageItem
	var msg domain.ConversationMessage
	var text strings.Builder
	flush := func() {
		if head != nil {
			msg.Content = text.String()
			out = append(out, msg)
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
			head, msg = &it, it.domain("")
			text.Reset()
			text.WriteString(it.Content)
			continue
		}
		if head == nil {
			continue
		}
		own := convMessageSK(head.ConversationID, head.ID) + "#"
		if _, ok := item["at"]; ok {
			var p replyPart
			if err := attributevalue.UnmarshalMap(item, &p); err != nil {
				return nil, fmt.Errorf("list messages: %w", err)
			}
			// Parts count from 1 without a gap (one left by a save that failed is not joined).
			if p.SK != convMessagePartSK(head.ConversationID, head.ID, msg.Parts+1) {
				continue
			}
			msg.Parts++
			text.WriteString(p.Text)
			for _, b := range p.Blocks {
				msg.Blocks = append(msg.Blocks, domain.MessageBlock{At: b.At, Frame: []byte(b.Frame)})
			}
			msg.UpdatedAt = latest(msg.UpdatedAt, p.At)
			continue
		}
		var c chunkItem
		if err := attributevalue.UnmarshalMap(item, &c); err != nil {
			return nil, fmt.Errorf("list messages: %w", err)
		}
		if strings.HasPrefix(c.SK, own) {
			n := 0
			fmt.Sscanf(c.SK[len(own):], "%d", &n)
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
	if n <= 0 {
		return ""
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
