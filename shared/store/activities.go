package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
)

// MaxActivities is how many recent activities a listing answers.
const MaxActivities = 50

type activityItem struct {
	PK          string   `dynamodbav:"PK"`
	SK          string   `dynamodbav:"SK"`
	ID          string   `dynamodbav:"id"`
	Type        string   `dynamodbav:"type"`
	Title       string   `dynamodbav:"title"`
	Description string   `dynamodbav:"description"`
	CreatedAt   string   `dynamodbav:"created_at"`
	Amount      *float64 `dynamodbav:"amount,omitempty"`
	PromptTitle string   `dynamodbav:"prompt_title,omitempty"`
}

// AddActivity records an activity once: the caller chooses a deterministic
// id and time for events that may be replayed, so a replay writes nothing.
func (s *Store) AddActivity(ctx context.Context, uid string, a domain.Activity) error {
	it := activityItem{
		PK: userPK(uid), SK: activitySK(a.CreatedAt, a.ID), ID: a.ID, Type: a.Type,
		Title: a.Title, Description: a.Description, CreatedAt: a.CreatedAt.UTC().Format(time.RFC3339Nano),
		Amount: a.Amount, PromptTitle: a.PromptTitle,
	}
	if err := s.putNew(ctx, it); err != nil && !errors.Is(err, errExists) {
		return fmt.Errorf("add activity: %w", err)
	}
	return nil
}

// Activities answers the user's most recent activities, newest first.
func (s *Store) Activities(ctx context.Context, uid string) ([]domain.Activity, error) {
	out, err := s.db.Query(ctx, &dynamodb.QueryInput{
		TableName:              aws.String(s.table),
		KeyConditionExpression: aws.String("PK = :pk AND begins_with(SK, :act)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk":  &types.AttributeValueMemberS{Value: userPK(uid)},
			":act": &types.AttributeValueMemberS{Value: activityIndex},
		},
		ScanIndexForward: aws.Bool(false),
		Limit:            aws.Int32(MaxActivities),
	})
	if err != nil {
		return nil, fmt.Errorf("list activities: %w", err)
	}
	var items []activityItem
	if err := attributevalue.UnmarshalListOfMaps(out.Items, &items); err != nil {
		return nil, fmt.Errorf("list activities: %w", err)
	}
	acts := make([]domain.Activity, 0, len(items))
	for _, it := range items {
		created, _ := time.Parse(time.RFC3339Nano, it.CreatedAt)
		acts = append(acts, domain.Activity{
			ID: it.ID, Type: it.Type, Title: it.Title, Description: it.Description,
			CreatedAt: created, Amount: it.Amount, PromptTitle: it.PromptTitle,
		})
	}
	return acts, nil
}
