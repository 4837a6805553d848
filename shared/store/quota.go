package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
)

// ErrQuotaExhausted means every free use has been claimed.
var ErrQuotaExhausted = errors.New("free prompt quota exhausted")

// mailboxQuotaItem is a mailbox's free uses (MAILBOX#<id> / QUOTA): how
// many are spent, and each claim as "<uid>#<pid>", so every account keeps
// access to its own claims only (an alias registered by someone else never
// reads another account's prompts).
type mailboxQuotaItem struct {
	Used   int      `dynamodbav:"used"`
	Claims []string `dynamodbav:"claims,stringset"`
	// Folded: the accounts whose count from before mailboxes is in Used.
	Folded []string `dynamodbav:"folded,stringset"`
}

func claimOf(uid, pid string) string { return uid + "#" + pid }

// status is the quota as uid sees it: the mailbox's count, uid's prompts,
// and whether another account spent some of the uses.
func (m mailboxQuotaItem) status(uid string, limit int) domain.FreeStatus {
	ids := []string{}
	shared := false
	for _, c := range m.Claims {
		if pid, mine := strings.CutPrefix(c, uid+"#"); mine {
			ids = append(ids, pid)
		} else {
			shared = true
		}
	}
	slices.Sort(ids)
	return domain.FreeStatus{
		Remaining: max(0, limit-m.Used), TotalAllowed: limit, Used: m.Used, PromptIDs: ids,
		SharedWithOtherAccounts: shared,
	}
}

// ClaimFree spends one free use on pid in a single conditional write on the
// caller's mailbox quota: it succeeds only while fewer than limit are used
// by all the mailbox's accounts together and this account has not claimed
// pid yet, so concurrent claims, from one account or several on the same
// address, never exceed the quota. Claiming a prompt the account already
// claimed succeeds (already = true) and spends nothing.
func (s *Store) ClaimFree(ctx context.Context, uid, pid string, limit int) (status domain.FreeStatus, already bool, err error) {
	home, err := s.claimHome(ctx, uid)
	if err != nil {
		return domain.FreeStatus{}, false, fmt.Errorf("claim free: %w", err)
	}
	claim := claimOf(uid, pid)
	out, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:        aws.String(s.table),
		Key:              key(mailboxPK(home.Mailbox), skQuota),
		UpdateExpression: aws.String("SET used = if_not_exists(used, :zero) + :one ADD claims :claims"),
		ConditionExpression: aws.String("(attribute_not_exists(used) OR used < :limit) AND " +
			"(attribute_not_exists(claims) OR NOT contains(claims, :claim))"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":zero":   &types.AttributeValueMemberN{Value: "0"},
			":one":    &types.AttributeValueMemberN{Value: "1"},
			":limit":  &types.AttributeValueMemberN{Value: strconv.Itoa(limit)},
			":claims": &types.AttributeValueMemberSS{Value: []string{claim}},
			":claim":  &types.AttributeValueMemberS{Value: claim},
		},
		ReturnValues: types.ReturnValueAllNew,
	})
	if err == nil {
		var m mailboxQuotaItem
		if err := attributevalue.UnmarshalMap(out.Attributes, &m); err != nil {
			return domain.FreeStatus{}, false, fmt.Errorf("claim free: %w", err)
		}
		s.countPromptUse(ctx, pid, 1, 0, 0)
		return m.status(uid, limit), false, nil
	}
	if !isConditionFailed(err) {
		return domain.FreeStatus{}, false, fmt.Errorf("claim free: %w", err)
	}
	// Refused: either claimed before (fine) or no uses left.
	status, err = s.mailboxStatus(ctx, uid, home, limit)
	if err != nil {
		return domain.FreeStatus{}, false, fmt.Errorf("claim free: %w", err)
	}
	if slices.Contains(status.PromptIDs, pid) {
		return status, true, nil
	}
	return status, false, ErrQuotaExhausted
}

// FreeStatus reads the user's quota, shared with the other accounts on the
// same mailbox; a mailbox nobody claimed on has all uses left. It only
// reads: an account's count from before mailboxes is added here until its
// next claim moves it into the mailbox.
func (s *Store) FreeStatus(ctx context.Context, uid string, limit int) (domain.FreeStatus, error) {
	home, _, err := s.quotaHome(ctx, uid)
	if err != nil {
		return domain.FreeStatus{}, fmt.Errorf("free status: %w", err)
	}
	status, err := s.mailboxStatus(ctx, uid, home, limit)
	if err != nil {
		return domain.FreeStatus{}, fmt.Errorf("free status: %w", err)
	}
	return status, nil
}

// mailboxStatus reads home's mailbox quota as uid sees it, with uid's
// earlier count when it is not folded in yet.
func (s *Store) mailboxStatus(ctx context.Context, uid string, home quotaHomeItem, limit int) (domain.FreeStatus, error) {
	var m mailboxQuotaItem
	if err := s.getItem(ctx, mailboxPK(home.Mailbox), skQuota, &m); err != nil && !errors.Is(err, ErrNotFound) {
		return domain.FreeStatus{}, err
	}
	if home.hasEarlierCount() && !slices.Contains(m.Folded, uid) {
		m.Used += home.Used
		for _, pid := range home.PromptIDs {
			m.Claims = append(m.Claims, claimOf(uid, pid))
		}
	}
	return m.status(uid, limit), nil
}
