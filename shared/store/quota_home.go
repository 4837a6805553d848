package store

import (
	"context"
	"errors"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
)

// quotaHomeItem is an account's QUOTA item (USER#<uid> / QUOTA). Mailbox
// is the mailbox its free uses count against, fixed at its first claim: a
// later change of address neither resets the count nor moves the claims.
// Used and PromptIDs are the account's own count from before quotas were
// per mailbox (the item then held the quota itself): the next claim folds
// them into the mailbox once and removes them.
type quotaHomeItem struct {
	Mailbox   string   `dynamodbav:"mailbox"`
	Used      int      `dynamodbav:"used"`
	PromptIDs []string `dynamodbav:"prompt_ids,stringset"`
}

func (h quotaHomeItem) hasEarlierCount() bool { return h.Used > 0 || len(h.PromptIDs) > 0 }

// quotaHome reads the account's QUOTA item; before its first claim (no
// mailbox fixed yet: fixed false) the mailbox is its current address's.
func (s *Store) quotaHome(ctx context.Context, uid string) (h quotaHomeItem, fixed bool, err error) {
	if err := s.getItem(ctx, userPK(uid), skQuota, &h); err != nil && !errors.Is(err, ErrNotFound) {
		return h, false, err
	}
	if h.Mailbox != "" {
		return h, true, nil
	}
	u, err := s.GetUser(ctx, uid)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return h, false, err
	}
	h.Mailbox = mailboxID(accountMailbox(uid, u.Email))
	return h, false, nil
}

// accountMailbox is the canonical mailbox of the account's address; an
// account without a usable address counts alone (the name has no '@', so
// it is nobody's address).
func accountMailbox(uid, email string) string {
	if c := domain.CanonicalMailbox(email); c != "" {
		return c
	}
	return "account " + uid
}

// claimHome is quotaHome made ready for a claim: the mailbox fixed on the
// account (the first writer wins, so concurrent first claims agree) and
// the account's earlier count folded into it.
func (s *Store) claimHome(ctx context.Context, uid string) (quotaHomeItem, error) {
	h, fixed, err := s.quotaHome(ctx, uid)
	if err != nil {
		return h, err
	}
	if !fixed {
		if err := s.fixMailbox(ctx, uid, h.Mailbox); errors.Is(err, errMailboxFixed) {
			// Another claim fixed a mailbox first (the address changed
			// between): take that one.
			return s.claimHome(ctx, uid)
		} else if err != nil {
			return h, err
		}
	}
	return h, s.foldEarlierCount(ctx, uid, h)
}

// errMailboxFixed: the account's mailbox was fixed meanwhile, to another.
var errMailboxFixed = errors.New("mailbox fixed meanwhile")

// fixMailbox sets the account's mailbox unless one is set already.
func (s *Store) fixMailbox(ctx context.Context, uid, mailbox string) error {
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String(s.table),
		Key:                 key(userPK(uid), skQuota),
		UpdateExpression:    aws.String("SET mailbox = :m"),
		ConditionExpression: aws.String("attribute_not_exists(mailbox) OR mailbox = :m"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":m": &types.AttributeValueMemberS{Value: mailbox},
		},
	})
	return conditional("fix mailbox", err, errMailboxFixed)
}

// foldEarlierCount adds the account's count from before mailboxes (if any)
// to its mailbox, once (the folded set records it, so a re-run after a
// failure adds nothing), then removes it from the account's item. A
// mailbox shared by several such accounts gets the sum: their claims stay
// theirs, and the uses left are what the address has not spent.
func (s *Store) foldEarlierCount(ctx context.Context, uid string, h quotaHomeItem) error {
	if !h.hasEarlierCount() {
		return nil
	}
	add := "ADD used :used, folded :me"
	values := map[string]types.AttributeValue{
		":used": &types.AttributeValueMemberN{Value: strconv.Itoa(h.Used)},
		":me":   &types.AttributeValueMemberSS{Value: []string{uid}},
		":uid":  &types.AttributeValueMemberS{Value: uid},
	}
	if len(h.PromptIDs) > 0 {
		claims := make([]string, len(h.PromptIDs))
		for i, pid := range h.PromptIDs {
			claims[i] = claimOf(uid, pid)
		}
		add += ", claims :claims"
		values[":claims"] = &types.AttributeValueMemberSS{Value: claims}
	}
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(s.table),
		Key:                       key(mailboxPK(h.Mailbox), skQuota),
		UpdateExpression:          aws.String(add),
		ConditionExpression:       aws.String("attribute_not_exists(folded) OR NOT contains(folded, :uid)"),
		ExpressionAttributeValues: values,
	})
	if err := conditional("fold free count", err, nil); err != nil {
		return err
	}
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(s.table),
		Key:                       key(userPK(uid), skQuota),
		UpdateExpression:          aws.String("REMOVE used, prompt_ids"),
		ConditionExpression:       aws.String("mailbox = :m"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":m": &types.AttributeValueMemberS{Value: h.Mailbox}},
	})
	return conditional("fold free count", err, nil)
}
