package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
)

// ErrQuotaExhausted means every free use has been claimed.
var ErrQuotaExhausted = errors.New("free prompt quota exhausted")

type quotaItem struct {
	Used      int      `dynamodbav:"used"`
	PromptIDs []string `dynamodbav:"prompt_ids,stringset"`
}

func (q quotaItem) status(limit int) domain.FreeStatus {
	ids := slices.Clone(q.PromptIDs)
	slices.Sort(ids)
	if ids == nil {
		ids = []string{}
	}
	return domain.FreeStatus{Remaining: max(0, limit-q.Used), TotalAllowed: limit, Used: q.Used, PromptIDs: ids}
}

// ClaimFree spends one free use on pid in a single conditional write: it
// succeeds only while fewer than limit are used and pid is not claimed yet,
// so concurrent claims can never exceed the quota. Claiming a prompt that is
// already claimed succeeds (already = true) and spends nothing.
func (s *Store) ClaimFree(ctx context.Context, uid, pid string, limit int) (status domain.FreeStatus, already bool, err error) {
	out, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:        aws.String(s.table),
		Key:              key(userPK(uid), skQuota),
		UpdateExpression: aws.String("SET used = if_not_exists(used, :zero) + :one ADD prompt_ids :pids"),
		ConditionExpression: aws.String("(attribute_not_exists(used) OR used < :limit) AND " +
			"(attribute_not_exists(prompt_ids) OR NOT contains(prompt_ids, :pid))"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":zero":  &types.AttributeValueMemberN{Value: "0"},
			":one":   &types.AttributeValueMemberN{Value: "1"},
			":limit": &types.AttributeValueMemberN{Value: strconv.Itoa(limit)},
			":pids":  &types.AttributeValueMemberSS{Value: []string{pid}},
			":pid":   &types.AttributeValueMemberS{Value: pid},
		},
		ReturnValues: types.ReturnValueAllNew,
	})
	if err == nil {
		var q quotaItem
		if err := attributevalue.UnmarshalMap(out.Attributes, &q); err != nil {
			return domain.FreeStatus{}, false, fmt.Errorf("claim free: %w", err)
		}
		s.countPromptUse(ctx, pid, 1, 0, 0)
		return q.status(limit), false, nil
	}
	if !isConditionFailed(err) {
		return domain.FreeStatus{}, false, fmt.Errorf("claim free: %w", err)
	}
	// Refused: either claimed before (fine) or no uses left.
	status, err = s.FreeStatus(ctx, uid, limit)
	if err != nil {
		return domain.FreeStatus{}, false, err
	}
	if slices.Contains(status.PromptIDs, pid) {
		return status, true, nil
	}
	return status, false, ErrQuotaExhausted
}

// FreeStatus reads the user's quota; a user who never claimed has all uses left.
func (s *Store) FreeStatus(ctx context.Context, uid string, limit int) (domain.FreeStatus, error) {
	var q quotaItem
	err := s.getItem(ctx, userPK(uid), skQuota, &q)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return domain.FreeStatus{}, fmt.Errorf("free status: %w", err)
	}
	return q.status(limit), nil
}
