package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
)

// Writes to the catalogue's prompts, each a conditional single-item write:
// a new prompt only under a new id, an edit or a removal only at the
// version the writer read. What a prompt may hold and which version comes
// next are the prompts package's rules; the history of a write is its
// writer's (an admin's write runs inside WithAudit). Each then brings the
// marketplace listing in line (prompt_listing.go).

// ErrVersionConflict: the item changed since the version the writer read
// (or is gone: the caller reads it again to tell).
var ErrVersionConflict = errors.New("changed since it was read")

// ErrPromptInUse: a prompt someone bought or used for free is not deleted
// (unpublishing takes it off the catalogue and keeps it for its owners).
var ErrPromptInUse = errors.New("prompt is owned or used")

// CreatePrompt adds p under a new id, at p.Version (at least 1: version 0
// is a seeded prompt's, which seeding may overwrite).
func (s *Store) CreatePrompt(ctx context.Context, p domain.Prompt) error {
	if p.Version < 1 {
		return fmt.Errorf("create prompt %s: version %d, want at least 1", p.ID, p.Version)
	}
	it := promptItem{PK: promptPK(p.ID), SK: skPromptMeta, GSI1PK: gsiCatalogKey, GSI1SK: promptGSI1SK(p.CreatedAt, p.ID), ID: p.ID,
		Title: p.Title, Description: p.Description, Content: p.Content, Price: roundCents(p.Price), CategoryID: p.CategoryID,
		Featured: p.Featured, CreatedAt: formatTime(p.CreatedAt), Unpublished: p.Unpublished, Version: p.Version,
		UpdatedAt: formatTime(cmp.Or(p.UpdatedAt, p.CreatedAt)), Irev: 1,
		CreatorID: p.CreatorID, State: p.State, ReviewReason: p.ReviewReason,
		CreatorUsername: p.CreatorUsername, CreatorDisplayName: p.CreatorDisplayName}
	if p.CreatorID != "" {
		it.GSI2PK, it.GSI2SK = creatorPromptsGSI2PK(p.CreatorID), promptGSI1SK(p.CreatedAt, p.ID)
	}
	if err := s.putNew(ctx, it); err != nil {
		return fmt.Errorf("create prompt: %w", err)
	}
	s.afterPromptWrite(ctx, p.ID)
	return nil
}

// UpdatePrompt writes p's editable fields (title, description, content,
// price, category, featured, unpublished), its version and updated_at if
// the prompt is still at version read; ErrVersionConflict otherwise.
func (s *Store) UpdatePrompt(ctx context.Context, p domain.Prompt, read int) error {
	if p.Version <= read {
		return fmt.Errorf("update prompt %s: version %d does not follow %d", p.ID, p.Version, read)
	}
	cond, values := atVersion(read)
	values[":title"] = &types.AttributeValueMemberS{Value: p.Title}
	values[":desc"] = &types.AttributeValueMemberS{Value: p.Description}
	values[":content"] = &types.AttributeValueMemberS{Value: p.Content}
	values[":price"] = &types.AttributeValueMemberN{Value: strconv.FormatFloat(roundCents(p.Price), 'f', 2, 64)}
	values[":cat"] = &types.AttributeValueMemberS{Value: p.CategoryID}
	values[":featured"] = &types.AttributeValueMemberBOOL{Value: p.Featured}
	values[":unpub"] = &types.AttributeValueMemberBOOL{Value: p.Unpublished}
	values[":next"] = &types.AttributeValueMemberN{Value: strconv.Itoa(p.Version)}
	values[":now"] = &types.AttributeValueMemberS{Value: formatTime(p.UpdatedAt)}
	values[":one"] = &types.AttributeValueMemberN{Value: "1"}
	if read > 0 {
		delete(values, ":zero")
	}
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String(s.table),
		Key:       key(promptPK(p.ID), skPromptMeta),
		UpdateExpression: aws.String("SET title = :title, description = :desc, content = :content, price = :price, category_id = :cat, " +
			"featured = :featured, unpublished = :unpub, version = :next, updated_at = :now ADD irev :one"),
		ConditionExpression:       aws.String(cond),
		ExpressionAttributeValues: values,
	})
	if err := conditional("update prompt", err, fmt.Errorf("update prompt: %w", ErrVersionConflict)); err != nil {
		return err
	}
	s.afterPromptWrite(ctx, p.ID)
	return nil
}

// DeletePrompt removes a prompt nobody owns or used, at version read
// (ErrPromptInUse, ErrVersionConflict otherwise), then its ratings. It is
// taken off the marketplace listing first (marked deleting, its copies
// removed), so no card outlives it: a removal that stops midway leaves it
// unlisted and at the same version, for the admin to remove again. Once
// the prompt is gone the removal is done: ratings left behind by a
// failure are logged, never reported as the removal's failure (they
// belong to no listed prompt).
func (s *Store) DeletePrompt(ctx context.Context, pid string, read int) error {
	cond, values := atVersion(read)
	unused := " AND (attribute_not_exists(purchases) OR purchases = :zero) AND (attribute_not_exists(free_uses) OR free_uses = :zero)"
	values[":zero"] = &types.AttributeValueMemberN{Value: "0"}
	values[":one"] = &types.AttributeValueMemberN{Value: "1"}
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String(s.table), Key: key(promptPK(pid), skPromptMeta),
		UpdateExpression:    aws.String("SET deleting = :yes ADD irev :one"),
		ConditionExpression: aws.String(cond + unused),
		ExpressionAttributeValues: mergeValues(values, map[string]types.AttributeValue{
			":yes": &types.AttributeValueMemberBOOL{Value: true},
		}),
	})
	if err := s.deleteRefused(ctx, pid, read, err); err != nil {
		return err
	}
	if err := s.syncListing(context.WithoutCancel(ctx), pid, nil); err != nil {
		return fmt.Errorf("delete prompt: %w", err)
	}
	delete(values, ":one")
	_, err = s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName:                 aws.String(s.table),
		Key:                       key(promptPK(pid), skPromptMeta),
		ConditionExpression:       aws.String(cond + unused + " AND deleting = :yes"),
		ExpressionAttributeValues: mergeValues(values, map[string]types.AttributeValue{":yes": &types.AttributeValueMemberBOOL{Value: true}}),
	})
	if err := s.deleteRefused(ctx, pid, read, err); err != nil {
		// Used meanwhile: back on the listing as it was.
		s.relist(ctx, pid)
		return err
	}
	if _, err := s.deleteAll(context.WithoutCancel(ctx), promptPK(pid), ratingPrefix); err != nil {
		slog.WarnContext(ctx, "ratings of a deleted prompt left behind", "prompt", pid, "err", err)
	}
	if _, err := s.deleteAll(context.WithoutCancel(ctx), promptPK(pid), versionPrefix); err != nil {
		slog.WarnContext(ctx, "versions of a deleted prompt left behind", "prompt", pid, "err", err)
	}
	return nil
}

// deleteRefused is a removal's conditional write outcome: ErrPromptInUse
// when the prompt at version read is owned or used, ErrVersionConflict when
// it changed or is gone.
func (s *Store) deleteRefused(ctx context.Context, pid string, read int, err error) error {
	err = conditional("delete prompt", err, fmt.Errorf("delete prompt: %w", ErrVersionConflict))
	if errors.Is(err, ErrVersionConflict) {
		if p, gerr := s.GetPrompt(ctx, pid); gerr == nil && p.Version == read && (p.Stats.Purchases > 0 || p.Stats.FreeUses > 0) {
			return fmt.Errorf("delete prompt: %w", ErrPromptInUse)
		}
	}
	return err
}

// relist undoes the first step of a removal that was refused.
func (s *Store) relist(ctx context.Context, pid string) {
	_, err := s.db.UpdateItem(context.WithoutCancel(ctx), &dynamodb.UpdateItemInput{
		TableName: aws.String(s.table), Key: key(promptPK(pid), skPromptMeta),
		UpdateExpression:          aws.String("REMOVE deleting ADD irev :one"),
		ConditionExpression:       aws.String("attribute_exists(PK)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}},
	})
	if err != nil && !isConditionFailed(err) {
		slog.ErrorContext(ctx, "a prompt whose removal was refused stays off the listing", "prompt", pid, "err", err)
		return
	}
	s.afterPromptWrite(ctx, pid)
}

func mergeValues(a, b map[string]types.AttributeValue) map[string]types.AttributeValue {
	out := make(map[string]types.AttributeValue, len(a)+len(b))
	maps.Copy(out, a)
	maps.Copy(out, b)
	return out
}

// atVersion is the condition that an existing item is at version read (a
// seeded prompt, never edited, has no version: 0).
func atVersion(read int) (string, map[string]types.AttributeValue) {
	values := map[string]types.AttributeValue{":zero": &types.AttributeValueMemberN{Value: "0"}}
	if read == 0 {
		return "attribute_exists(PK) AND (attribute_not_exists(version) OR version = :zero)", values
	}
	values[":read"] = &types.AttributeValueMemberN{Value: strconv.Itoa(read)}
	return "attribute_exists(PK) AND version = :read", values
}

func roundCents(x float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 2, 64), 64)
	return v
}

// countPromptUse adds to a prompt's use counts (free uses, purchases,
// revenue) as they happen; a prompt gone meanwhile is left alone. The use
// itself is done: a failed count is logged, never the use's failure.
func (s *Store) countPromptUse(ctx context.Context, pid string, freeUses, purchases int, revenue float64) {
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String(s.table),
		Key:                 key(promptPK(pid), skPromptMeta),
		UpdateExpression:    aws.String("ADD free_uses :f, purchases :p, revenue :r"),
		ConditionExpression: aws.String("attribute_exists(PK)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":f": &types.AttributeValueMemberN{Value: strconv.Itoa(freeUses)},
			":p": &types.AttributeValueMemberN{Value: strconv.Itoa(purchases)},
			":r": &types.AttributeValueMemberN{Value: strconv.FormatFloat(roundCents(revenue), 'f', 2, 64)},
		},
	})
	if err := conditional("count prompt use", err, nil); err != nil {
		slog.WarnContext(ctx, "prompt use not counted", "prompt", pid, "err", err)
	}
}
