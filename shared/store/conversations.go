package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
)

// Bounds of what a conversation keeps (an item holds at most 400 KB).
const (
	// MaxMessageText is the most text a message keeps; the rest is cut
	// (domain.ConversationMessage.Truncated).
	MaxMessageText = 1 << 20
	// headText is the text a message's own item holds; the rest goes in
	// chunk items of chunkText, beside it.
	headText  = 128 << 10
	chunkText = 256 << 10
	// maxSearch bounds what q= matches on per conversation.
	maxSearch = 2 << 10
)

// ErrStopRequested: the reply being saved was stopped by its user (Stop)
// or its conversation deleted; its generation should end.
var ErrStopRequested = errors.New("conversation reply stopped")

// ErrConversationExists: a conversation of the user already has the id.
var ErrConversationExists = errors.New("conversation exists")

type conversationItem struct {
	PK           string   `dynamodbav:"PK"`
	SK           string   `dynamodbav:"SK"`
	ID           string   `dynamodbav:"id"`
	Title        string   `dynamodbav:"title"`
	Provider     string   `dynamodbav:"provider"`
	Model        string   `dynamodbav:"model"`
	CreatedAt    string   `dynamodbav:"created_at"`
	UpdatedAt    string   `dynamodbav:"updated_at"`
	Archived     bool     `dynamodbav:"archived"`
	MessageCount int      `dynamodbav:"message_count"`
	Snippets     []string `dynamodbav:"snippets,omitempty"`
	// LRev moves with every write that changes what History's list shows
	// of the conversation; its list copy follows it (conversation_list.go).
	LRev int64 `dynamodbav:"lrev"`
	// Listed: the conversation has its list copy; a write then only
	// replaces it.
	Listed bool `dynamodbav:"listed"`
	// AgentID and AgentName: the agent it is bound to (never changed).
	AgentID   string `dynamodbav:"agent_id,omitempty"`
	AgentName string `dynamodbav:"agent_name,omitempty"`
}

func (it conversationItem) domain() domain.Conversation {
	return domain.Conversation{ID: it.ID, Title: it.Title, Provider: it.Provider, Model: it.Model,
		CreatedAt: parseTime(it.CreatedAt), UpdatedAt: parseTime(it.UpdatedAt), Archived: it.Archived,
		MessageCount: it.MessageCount, AgentID: it.AgentID, AgentName: it.AgentName, Search: strings.ToLower(it.Title) + " " + strings.Join(it.Snippets, " ")}
}

func formatTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func parseTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

// CreateConversation stores a new conversation of uid, with msgs (its
// past messages, when one is uploaded) in it; ErrConversationExists when
// the user has one of its id.
func (s *Store) CreateConversation(ctx context.Context, uid string, c domain.Conversation, msgs ...domain.ConversationMessage) error {
	it := conversationItem{PK: userPK(uid), SK: conversationSK(c.ID), ID: c.ID, Title: c.Title, Provider: c.Provider, Model: c.Model,
		CreatedAt: formatTime(c.CreatedAt), UpdatedAt: formatTime(c.UpdatedAt), Archived: c.Archived, MessageCount: len(msgs), LRev: 1, Listed: true,
		AgentID: c.AgentID, AgentName: c.AgentName}
	s.ensureCounted(ctx, uid)
	// The messages go first and the conversation last, so that it is never
	// seen with part of them; if it cannot be made, they are removed again
	// (only these: a conversation made meanwhile under its id keeps its own).
	mids := make([]string, 0, len(msgs))
	for _, m := range msgs {
		if m.ConversationID != c.ID {
			return fmt.Errorf("create conversation: message %s is of conversation %q", m.ID, m.ConversationID)
		}
		if m.Role == domain.RoleUser && len(it.Snippets) < maxSnippets {
			if sn := searchSnippet(m.Content); sn != "" {
				it.Snippets = append(it.Snippets, sn)
			}
		}
		mids = append(mids, m.ID)
	}
	err := s.PutMessages(ctx, uid, msgs...)
	if err == nil {
		err = s.putNew(ctx, it)
	}
	if err == nil {
		s.syncListCopy(ctx, uid, it, true)
		s.countConversation(ctx, uid, 1)
		return nil
	}
	if len(mids) > 0 {
		if derr := s.DeleteMessages(context.WithoutCancel(ctx), uid, c.ID, mids...); derr != nil {
			err = errors.Join(err, derr)
		}
	}
	if errors.Is(err, errExists) {
		return fmt.Errorf("create conversation: %w", ErrConversationExists)
	}
	return fmt.Errorf("create conversation: %w", err)
}

// GetConversation answers uid's conversation cid; ErrNotFound if uid has none
// by that id.
func (s *Store) GetConversation(ctx context.Context, uid, cid string) (domain.Conversation, error) {
	var it conversationItem
	if err := s.getItem(ctx, userPK(uid), conversationSK(cid), &it); err != nil {
		return domain.Conversation{}, fmt.Errorf("get conversation: %w", err)
	}
	return it.domain(), nil
}

// ListConversations answers every conversation of uid, in no order (it
// reads them all: History reads a page, ListConversationPage).
func (s *Store) ListConversations(ctx context.Context, uid string) ([]domain.Conversation, error) {
	items, err := queryAll[conversationItem](ctx, s, partitionQuery(userPK(uid), conversationPrefix), "list conversations")
	if err != nil {
		return nil, err
	}
	return convertAll(items, conversationItem.domain), nil
}

// ConversationPatch changes the fields that are set.
type ConversationPatch struct {
	Title, Provider, Model *string
	Archived               *bool
}

// UpdateConversation applies p to uid's conversation cid and answers it;
// ErrNotFound if there is none.
func (s *Store) UpdateConversation(ctx context.Context, uid, cid string, p ConversationPatch, now time.Time) (domain.Conversation, error) {
	if !keyFits(userPK(uid), conversationSK(cid)) {
		return domain.Conversation{}, fmt.Errorf("update conversation: %w", ErrNotFound)
	}
	// Names through placeholders: some (model) are DynamoDB reserved words.
	set := []string{"updated_at = :now"}
	names := map[string]string{}
	values := map[string]types.AttributeValue{":now": &types.AttributeValueMemberS{Value: formatTime(now)}, ":one": &types.AttributeValueMemberN{Value: "1"}}
	field := func(attr string, v types.AttributeValue) {
		set = append(set, "#"+attr+" = :"+attr)
		names["#"+attr], values[":"+attr] = attr, v
	}
	for attr, v := range map[string]*string{"title": p.Title, "provider": p.Provider, "model": p.Model} {
		if v != nil {
			field(attr, &types.AttributeValueMemberS{Value: *v})
		}
	}
	if p.Archived != nil {
		field("archived", &types.AttributeValueMemberBOOL{Value: *p.Archived})
	}
	if len(names) == 0 {
		names = nil
	}
	out, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(s.table),
		Key:                       key(userPK(uid), conversationSK(cid)),
		UpdateExpression:          aws.String("SET " + strings.Join(set, ", ") + " ADD lrev :one"),
		ConditionExpression:       aws.String("attribute_exists(PK)"),
		ExpressionAttributeNames:  names,
		ExpressionAttributeValues: values,
		ReturnValues:              types.ReturnValueAllNew,
	})
	if err := conditional("update conversation", err, fmt.Errorf("update conversation: %w", ErrNotFound)); err != nil {
		return domain.Conversation{}, err
	}
	var it conversationItem
	if err := attributevalue.UnmarshalMap(out.Attributes, &it); err != nil {
		return domain.Conversation{}, fmt.Errorf("update conversation: %w", err)
	}
	s.syncListCopy(ctx, uid, it, false)
	return it.domain(), nil
}

// DeleteConversation removes uid's conversation cid and its messages;
// ErrNotFound if there is none. The conversation goes first, so a reply
// still being saved finds it gone (ErrStopRequested) and stops; then its
// place in History's list and its count.
func (s *Store) DeleteConversation(ctx context.Context, uid, cid string) error {
	if !keyFits(userPK(uid), conversationSK(cid)) {
		return fmt.Errorf("delete conversation: %w", ErrNotFound)
	}
	s.ensureCounted(ctx, uid)
	out, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName:           aws.String(s.table),
		Key:                 key(userPK(uid), conversationSK(cid)),
		ConditionExpression: aws.String("attribute_exists(PK)"),
		ReturnValues:        types.ReturnValueAllOld,
	})
	if err := conditional("delete conversation", err, fmt.Errorf("delete conversation: %w", ErrNotFound)); err != nil {
		if errors.Is(err, ErrNotFound) {
			if berr := s.dropOrphanCopy(ctx, uid, cid); berr != nil {
				return fmt.Errorf("delete conversation: %w", berr)
			}
		}
		return err
	}
	var old conversationItem
	if err := attributevalue.UnmarshalMap(out.Attributes, &old); err != nil {
		return fmt.Errorf("delete conversation: %w", err)
	}
	if err := s.dropListCopy(ctx, uid, cid, old.CreatedAt); err != nil {
		// Listed still: Delete on it again takes it off (dropOrphanCopy).
		slog.ErrorContext(ctx, "deleted conversation left in History's list", "conversation", cid, "err", err)
	}
	s.countConversation(ctx, uid, -1)
	if _, err := s.deleteAll(ctx, userPK(uid), convMessagesPrefix(cid)); err != nil {
		return fmt.Errorf("delete conversation: %w", err)
	}
	return nil
}

// ErrOtherAgent: the conversation is bound to another agent than the
// message's (or to one, or to none).
var ErrOtherAgent = errors.New("conversation bound to another agent")

// ClaimMessages counts n new messages on uid's conversation cid and marks
// it updated: one conditional write, which is also the proof that the
// conversation is uid's (ErrNotFound otherwise) and runs as agentID (""
// for none; ErrOtherAgent otherwise, nothing written), then its History
// copy moved to the top of its list. Concurrent messages never lose a
// count: it is an ADD.
func (s *Store) ClaimMessages(ctx context.Context, uid, cid string, n int, now time.Time, agentID string) error {
	if !keyFits(userPK(uid), conversationSK(cid)) {
		return fmt.Errorf("add message: %w", ErrNotFound)
	}
	values := map[string]types.AttributeValue{
		":now": &types.AttributeValueMemberS{Value: formatTime(now)},
		":n":   &types.AttributeValueMemberN{Value: fmt.Sprint(n)},
		":one": &types.AttributeValueMemberN{Value: "1"},
	}
	cond := "attribute_exists(PK) AND attribute_not_exists(agent_id)"
	if agentID != "" {
		cond = "attribute_exists(PK) AND agent_id = :agent"
		values[":agent"] = &types.AttributeValueMemberS{Value: agentID}
	}
	out, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(s.table),
		Key:                       key(userPK(uid), conversationSK(cid)),
		UpdateExpression:          aws.String("SET updated_at = :now ADD message_count :n, lrev :one"),
		ConditionExpression:       aws.String(cond),
		ExpressionAttributeValues: values,
		ReturnValues:              types.ReturnValueAllNew,
	})
	if err := conditional("add message", err, errClaimRefused); err != nil {
		if !errors.Is(err, errClaimRefused) {
			return err
		}
		// Refused: gone, or bound to another agent (a rare path: one read
		// to say which).
		if _, gerr := s.GetConversation(ctx, uid, cid); gerr != nil {
			return fmt.Errorf("add message: %w", gerr)
		}
		return fmt.Errorf("add message: %w", ErrOtherAgent)
	}
	var it conversationItem
	if err := attributevalue.UnmarshalMap(out.Attributes, &it); err != nil {
		return fmt.Errorf("add message: %w", err)
	}
	s.syncListCopy(ctx, uid, it, false)
	return nil
}

var errClaimRefused = errors.New("claim refused")

// maxSnippets bounds how many messages' starts a conversation's search
// keeps (with maxSearch bounding their size).
const maxSnippets = 12

// AddSearchSnippet adds the start of a message to what q= matches on, while
// the conversation keeps fewer than maxSnippets (later messages are found
// by the earlier ones' words and the title).
func (s *Store) AddSearchSnippet(ctx context.Context, uid, cid, snippet string) error {
	snippet = searchSnippet(snippet)
	if snippet == "" || !keyFits(userPK(uid), conversationSK(cid)) {
		return nil
	}
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String(s.table),
		Key:                 key(userPK(uid), conversationSK(cid)),
		UpdateExpression:    aws.String("SET snippets = list_append(if_not_exists(snippets, :empty), :s)"),
		ConditionExpression: aws.String("attribute_exists(PK) AND (attribute_not_exists(snippets) OR size(snippets) < :max)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":empty": &types.AttributeValueMemberL{Value: []types.AttributeValue{}},
			":s":     &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberS{Value: snippet}}},
			":max":   &types.AttributeValueMemberN{Value: fmt.Sprint(maxSnippets)},
		},
	})
	return conditional("add search snippet", err, nil)
}

// searchSnippet is what q= matches on of a message's text: its start,
// lower-cased.
func searchSnippet(text string) string {
	return strings.TrimSpace(cutUTF8(strings.ToLower(strings.TrimSpace(text)), maxSearch/maxSnippets))
}
