package store

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
)

type ratingItem struct {
	PK        string `dynamodbav:"PK"`
	SK        string `dynamodbav:"SK"`
	GSI1PK    string `dynamodbav:"GSI1PK"`
	GSI1SK    string `dynamodbav:"GSI1SK"`
	PromptID  string `dynamodbav:"prompt_id"`
	Rating    int    `dynamodbav:"rating"`
	UpdatedAt string `dynamodbav:"updated_at"`
}

// Rate sets uid's rating of pid and updates the prompt's aggregate.
//
// Two single-item writes, no transaction: the rating item is replaced
// atomically and answers the rating it replaced, then the aggregate is moved
// by the difference with ADD. Each writer adds exactly its own difference, so
// concurrent raters (even one user racing with themself) sum up exactly. If
// the second write fails, the first is undone so a retry starts clean. The
// new aggregate is then copied into the prompt's marketplace cards.
func (s *Store) Rate(ctx context.Context, uid, pid string, rating int) (domain.Prompt, error) {
	it := ratingItem{
		PK: promptPK(pid), SK: ratingSK(uid), GSI1PK: userPK(uid), GSI1SK: ratingGSI1SK(pid),
		PromptID: pid, Rating: rating, UpdatedAt: time.Now().UTC().Format(time.RFC3339Nano),
	}
	av, err := attributevalue.MarshalMap(it)
	if err != nil {
		return domain.Prompt{}, err
	}
	put, err := s.db.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: aws.String(s.table), Item: av, ReturnValues: types.ReturnValueAllOld,
	})
	if err != nil {
		return domain.Prompt{}, fmt.Errorf("rate: %w", err)
	}
	delta, added := rating, 1
	var old ratingItem
	if put.Attributes != nil {
		if err := attributevalue.UnmarshalMap(put.Attributes, &old); err != nil {
			return domain.Prompt{}, fmt.Errorf("rate: %w", err)
		}
		delta, added = rating-old.Rating, 0
	}
	out, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String(s.table),
		Key:                 key(promptPK(pid), skPromptMeta),
		UpdateExpression:    aws.String("ADD rating_sum :delta, rating_count :added, irev :one"),
		ConditionExpression: aws.String("attribute_exists(PK)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":delta": &types.AttributeValueMemberN{Value: strconv.Itoa(delta)},
			":added": &types.AttributeValueMemberN{Value: strconv.Itoa(added)},
			":one":   &types.AttributeValueMemberN{Value: "1"},
		},
		ReturnValues: types.ReturnValueAllNew,
	})
	if err != nil {
		s.undoRating(ctx, it, put.Attributes)
		if isConditionFailed(err) {
			return domain.Prompt{}, fmt.Errorf("rate: %w", ErrNotFound)
		}
		return domain.Prompt{}, fmt.Errorf("rate: %w", err)
	}
	var p promptItem
	if err := attributevalue.UnmarshalMap(out.Attributes, &p); err != nil {
		return domain.Prompt{}, fmt.Errorf("rate: %w", err)
	}
	s.refreshListingRatings(ctx, p)
	return p.domain(), nil
}

// undoRating restores the replaced rating item (or removes the new one) if
// it still holds this call's value.
func (s *Store) undoRating(ctx context.Context, it ratingItem, old map[string]types.AttributeValue) {
	cond := map[string]types.AttributeValue{":r": &types.AttributeValueMemberN{Value: strconv.Itoa(it.Rating)}, ":at": &types.AttributeValueMemberS{Value: it.UpdatedAt}}
	var err error
	if old == nil {
		_, err = s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{
			TableName: aws.String(s.table), Key: key(it.PK, it.SK),
			ConditionExpression: aws.String("rating = :r AND updated_at = :at"), ExpressionAttributeValues: cond,
		})
	} else {
		_, err = s.db.PutItem(ctx, &dynamodb.PutItemInput{
			TableName: aws.String(s.table), Item: old,
			ConditionExpression: aws.String("rating = :r AND updated_at = :at"), ExpressionAttributeValues: cond,
		})
	}
	if err != nil && !isConditionFailed(err) {
		slog.ErrorContext(ctx, "undo rating failed; aggregate may drift", "prompt", it.PromptID, "err", err)
	}
}

// UserRatings answers uid's ratings by prompt id.
func (s *Store) UserRatings(ctx context.Context, uid string) (map[string]int, error) {
	items, err := queryAll[ratingItem](ctx, s, gsi1Query(userPK(uid), ratingPrefix), "user ratings")
	if err != nil {
		return nil, err
	}
	out := make(map[string]int, len(items))
	for _, it := range items {
		out[it.PromptID] = it.Rating
	}
	return out, nil
}
