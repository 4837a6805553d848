package store

import (
	"context"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Release takes back one attempt Admit counted in w (the window Admit
// answered), for a caller that counted two limits at once and was refused
// by the other: the refused attempt must not use up this one. Only that
// window loses the count; once a new window has opened nothing changes.
func (s *Store) Release(ctx context.Context, scope, k string, w Window) error {
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                aws.String(s.table),
		Key:                      key(throttlePK(scope, k), skThrottle),
		UpdateExpression:         aws.String("ADD #c :minus"),
		ConditionExpression:      aws.String("window_start = :start AND #c > :zero"),
		ExpressionAttributeNames: map[string]string{"#c": "count"},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":minus": &types.AttributeValueMemberN{Value: "-1"},
			":zero":  &types.AttributeValueMemberN{Value: "0"},
			":start": &types.AttributeValueMemberN{Value: strconv.FormatInt(w.Start.UnixMilli(), 10)},
		},
	})
	return conditional("release", err, nil)
}
