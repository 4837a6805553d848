package store

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
)

type promptItem struct {
	PK          string  `dynamodbav:"PK"`
	SK          string  `dynamodbav:"SK"`
	GSI1PK      string  `dynamodbav:"GSI1PK"`
	GSI1SK      string  `dynamodbav:"GSI1SK"`
	ID          string  `dynamodbav:"id"`
	Title       string  `dynamodbav:"title"`
	Description string  `dynamodbav:"description"`
	Content     string  `dynamodbav:"content"`
	Price       float64 `dynamodbav:"price"`
	CategoryID  string  `dynamodbav:"category_id"`
	Featured    bool    `dynamodbav:"featured"`
	CreatedAt   string  `dynamodbav:"created_at"`
	RatingSum   int     `dynamodbav:"rating_sum"`
	RatingCount int     `dynamodbav:"rating_count"`
	Unpublished bool    `dynamodbav:"unpublished,omitempty"`
	Version     int     `dynamodbav:"version,omitempty"`
	UpdatedAt   string  `dynamodbav:"updated_at,omitempty"`
	FreeUses    int     `dynamodbav:"free_uses,omitempty"`
	Purchases   int     `dynamodbav:"purchases,omitempty"`
	Revenue     float64 `dynamodbav:"revenue,omitempty"`
	// The marketplace listing's bookkeeping (prompt_listing.go): the
	// revision of what the prompt's cards show (every such write moves it
	// on), the revision its copies last reached, their format, the keys of
	// the copies it has, and a deletion under way (taken off the listing
	// first).
	Irev     int      `dynamodbav:"irev,omitempty"`
	Srev     int      `dynamodbav:"srev,omitempty"`
	Lfmt     int      `dynamodbav:"lfmt,omitempty"`
	Idx      []string `dynamodbav:"idx,stringset,omitempty"`
	Deleting bool     `dynamodbav:"deleting,omitempty"`
	// A creator's prompt (creator_prompts.go): its creator, review state
	// and reason, and its place in the creator's list (GSI2).
	CreatorID    string `dynamodbav:"creator_id,omitempty"`
	State        string `dynamodbav:"state,omitempty"`
	ReviewReason string `dynamodbav:"review_reason,omitempty"`
	// Suspended: its creator is suspended (off the listing, kept for its
	// owners).
	Suspended bool `dynamodbav:"creator_suspended,omitempty"`
	// The creator as the cards name them.
	CreatorUsername    string `dynamodbav:"creator_username,omitempty"`
	CreatorDisplayName string `dynamodbav:"creator_name,omitempty"`
	// The versions that went live (creator_prompts.go) and the next one.
	Cver    int                    `dynamodbav:"cver,omitempty"`
	Pending *domain.PendingVersion `dynamodbav:"pending,omitempty"`
	GSI2PK  string                 `dynamodbav:"GSI2PK,omitempty"`
	GSI2SK  string                 `dynamodbav:"GSI2SK,omitempty"`
}

func (it promptItem) domain() domain.Prompt {
	created, _ := time.Parse(time.RFC3339Nano, it.CreatedAt)
	return domain.Prompt{
		ID: it.ID, Title: it.Title, Description: it.Description, Content: it.Content,
		Price: it.Price, CategoryID: it.CategoryID, Featured: it.Featured, CreatedAt: created,
		RatingSum: it.RatingSum, RatingCount: it.RatingCount, Unpublished: it.Unpublished, Version: it.Version,
		UpdatedAt: parseTime(it.UpdatedAt), Stats: domain.PromptStats{FreeUses: it.FreeUses, Purchases: it.Purchases, Revenue: it.Revenue},
		CreatorID: it.CreatorID, State: it.State, ReviewReason: it.ReviewReason, CreatorSuspended: it.Suspended,
		CreatorUsername: it.CreatorUsername, CreatorDisplayName: it.CreatorDisplayName, Published: it.Cver, Pending: it.Pending,
	}
}

// PutPrompt writes a prompt's catalogue fields (seeding) and leaves its
// rating aggregate and use counts alone, so re-seeding never resets them;
// a prompt an admin edited (version > 0) is left as the admin made it.
// When the write changed what its card shows (or its listing is behind),
// the listing is brought in line.
func (s *Store) PutPrompt(ctx context.Context, p domain.Prompt) error {
	created := p.CreatedAt.UTC().Format(time.RFC3339Nano)
	out, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String(s.table),
		Key:       key(promptPK(p.ID), skPromptMeta),
		UpdateExpression: aws.String("SET GSI1PK = :gpk, GSI1SK = :gsk, id = :id, title = :title, description = :desc, content = :content, " +
			"price = :price, category_id = :cat, featured = :featured, created_at = :created, " +
			"rating_sum = if_not_exists(rating_sum, :zero), rating_count = if_not_exists(rating_count, :zero)"),
		ConditionExpression: aws.String("attribute_not_exists(version) OR version = :zero"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":gpk":      &types.AttributeValueMemberS{Value: gsiCatalogKey},
			":gsk":      &types.AttributeValueMemberS{Value: promptGSI1SK(p.CreatedAt, p.ID)},
			":id":       &types.AttributeValueMemberS{Value: p.ID},
			":title":    &types.AttributeValueMemberS{Value: p.Title},
			":desc":     &types.AttributeValueMemberS{Value: p.Description},
			":content":  &types.AttributeValueMemberS{Value: p.Content},
			":price":    &types.AttributeValueMemberN{Value: strconv.FormatFloat(p.Price, 'f', 2, 64)},
			":cat":      &types.AttributeValueMemberS{Value: p.CategoryID},
			":featured": &types.AttributeValueMemberBOOL{Value: p.Featured},
			":created":  &types.AttributeValueMemberS{Value: created},
			":zero":     &types.AttributeValueMemberN{Value: "0"},
		},
		ReturnValues: types.ReturnValueAllOld,
	})
	if isConditionFailed(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("put prompt %s: %w", p.ID, err)
	}
	var old promptItem
	if err := attributevalue.UnmarshalMap(out.Attributes, &old); err != nil {
		return fmt.Errorf("put prompt %s: %w", p.ID, err)
	}
	was := old.domain()
	same := len(out.Attributes) > 0 && was.Title == p.Title && was.Description == p.Description && was.Content == p.Content &&
		roundCents(was.Price) == roundCents(p.Price) && was.CategoryID == p.CategoryID && was.CreatedAt.Equal(p.CreatedAt)
	if same && old.Irev > 0 && old.Srev == old.Irev && old.Lfmt == listingFormat {
		return nil
	}
	if err := s.bumpRevision(ctx, p.ID); err != nil {
		return fmt.Errorf("put prompt %s: %w", p.ID, err)
	}
	s.afterPromptWrite(ctx, p.ID)
	return nil
}

// bumpRevision moves the revision of an existing prompt's cards on.
func (s *Store) bumpRevision(ctx context.Context, pid string) error {
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String(s.table), Key: key(promptPK(pid), skPromptMeta),
		UpdateExpression:          aws.String("ADD irev :one"),
		ConditionExpression:       aws.String("attribute_exists(PK)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}},
	})
	if isConditionFailed(err) {
		return nil
	}
	return err
}

// GetPrompt reads one prompt; ErrNotFound when it does not exist.
func (s *Store) GetPrompt(ctx context.Context, pid string) (domain.Prompt, error) {
	var it promptItem
	if err := s.getItem(ctx, promptPK(pid), skPromptMeta, &it); err != nil {
		return domain.Prompt{}, fmt.Errorf("get prompt: %w", err)
	}
	return it.domain(), nil
}

// Prompts lists the whole catalogue, newest first (created_at, then id).
func (s *Store) Prompts(ctx context.Context) ([]domain.Prompt, error) {
	in := gsi1Query(gsiCatalogKey, "")
	in.ScanIndexForward = aws.Bool(false)
	items, err := queryAll[promptItem](ctx, s, in, "list prompts")
	if err != nil {
		return nil, err
	}
	return convertAll(items, promptItem.domain), nil
}
