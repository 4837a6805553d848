package store

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
)

// Creators: a user who sells prompts has a creator item beside their
// profile (USER#<uid> / CREATOR): the profile they show and their payout
// account as Stripe reports it (payouts_status, charges_enabled,
// payouts_enabled, stripe_account_id: written by the payouts part, only
// read here). Every creator is listed for the admins through GSI2
// (CREATORS, newest first). Their prompts are catalogue prompts with a
// creator and a review state (creator_prompts.go).

// GSI2 partition keys of the creators' listings: every creator, and one
// creator's prompts (CPROMPTS#<uid>).
const (
	GSI2Creators       = "CREATORS"
	GSI2CreatorPrompts = "CPROMPTS#"
)

const skCreator = "CREATOR"

func creatorPromptsGSI2PK(uid string) string { return GSI2CreatorPrompts + uid }

type creatorItem struct {
	PK              string `dynamodbav:"PK"`
	SK              string `dynamodbav:"SK"`
	GSI2PK          string `dynamodbav:"GSI2PK"`
	GSI2SK          string `dynamodbav:"GSI2SK"`
	UserID          string `dynamodbav:"user_id"`
	Username        string `dynamodbav:"username"`
	DisplayName     string `dynamodbav:"display_name"`
	Bio             string `dynamodbav:"bio"`
	Country         string `dynamodbav:"country"`
	Suspended       bool   `dynamodbav:"suspended,omitempty"`
	PayoutsStatus   string `dynamodbav:"payouts_status,omitempty"`
	ChargesEnabled  bool   `dynamodbav:"charges_enabled,omitempty"`
	PayoutsEnabled  bool   `dynamodbav:"payouts_enabled,omitempty"`
	StripeAccountID string `dynamodbav:"stripe_account_id,omitempty"`
	CreatedAt       string `dynamodbav:"created_at"`
	UpdatedAt       string `dynamodbav:"updated_at"`
}

func (it creatorItem) domain() domain.Creator {
	status := it.PayoutsStatus
	if status == "" {
		status = domain.PayoutsNone
	}
	return domain.Creator{UserID: it.UserID, Username: it.Username, DisplayName: it.DisplayName, Bio: it.Bio, Country: it.Country,
		Suspended: it.Suspended, PayoutsStatus: status, ChargesEnabled: it.ChargesEnabled, PayoutsEnabled: it.PayoutsEnabled,
		CreatedAt: parseTime(it.CreatedAt), UpdatedAt: parseTime(it.UpdatedAt)}
}

// GetCreator reads uid's creator item; ErrNotFound when uid is no creator.
func (s *Store) GetCreator(ctx context.Context, uid string) (domain.Creator, error) {
	var it creatorItem
	if err := s.getItem(ctx, userPK(uid), skCreator, &it); err != nil {
		return domain.Creator{}, fmt.Errorf("get creator: %w", err)
	}
	return it.domain(), nil
}

// PutCreator writes c's profile (display name, bio, country, username) and
// answers the creator as stored: the first write makes the user a creator;
// later ones replace those fields and leave the payout account and a
// suspension as they are. A new name is copied to the creator's prompts
// and their listing copies.
func (s *Store) PutCreator(ctx context.Context, c domain.Creator, now time.Time) (domain.Creator, error) {
	at := formatTime(now)
	out, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String(s.table),
		Key:       key(userPK(c.UserID), skCreator),
		UpdateExpression: aws.String("SET user_id = :uid, username = :un, display_name = :dn, bio = :bio, country = :c, updated_at = :at, " +
			"created_at = if_not_exists(created_at, :at), GSI2PK = :g, GSI2SK = if_not_exists(GSI2SK, :gs)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":uid": &types.AttributeValueMemberS{Value: c.UserID},
			":un":  &types.AttributeValueMemberS{Value: c.Username},
			":dn":  &types.AttributeValueMemberS{Value: c.DisplayName},
			":bio": &types.AttributeValueMemberS{Value: c.Bio},
			":c":   &types.AttributeValueMemberS{Value: c.Country},
			":at":  &types.AttributeValueMemberS{Value: at},
			":g":   &types.AttributeValueMemberS{Value: GSI2Creators},
			":gs":  &types.AttributeValueMemberS{Value: userGSI2SK(now, c.UserID)},
		},
		ReturnValues: types.ReturnValueAllOld,
	})
	if err != nil {
		return domain.Creator{}, fmt.Errorf("put creator: %w", err)
	}
	var old creatorItem
	if err := attributevalue.UnmarshalMap(out.Attributes, &old); err != nil {
		return domain.Creator{}, fmt.Errorf("put creator: %w", err)
	}
	if len(out.Attributes) > 0 && (old.DisplayName != c.DisplayName || old.Username != c.Username) {
		err := s.markCreatorPrompts(ctx, c.UserID, "SET creator_username = :un, creator_name = :dn", map[string]types.AttributeValue{
			":un": &types.AttributeValueMemberS{Value: c.Username}, ":dn": &types.AttributeValueMemberS{Value: c.DisplayName}})
		if err != nil {
			return domain.Creator{}, fmt.Errorf("put creator: %w", err)
		}
		err = s.markCreatorAgents(ctx, c.UserID, func(a *domain.Agent) { a.CreatorUsername, a.CreatorDisplayName = c.Username, c.DisplayName })
		if err != nil {
			return domain.Creator{}, fmt.Errorf("put creator: %w", err)
		}
	}
	return s.GetCreator(ctx, c.UserID)
}

// markCreatorPrompts applies update (SET or REMOVE clauses) to each of
// uid's prompts, moving its revision on, and brings its listing copies in
// line.
func (s *Store) markCreatorPrompts(ctx context.Context, uid, update string, values map[string]types.AttributeValue) error {
	ps, err := s.CreatorPrompts(ctx, uid)
	if err != nil {
		return err
	}
	values = mergeValues(values, map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}})
	for _, p := range ps {
		_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName: aws.String(s.table), Key: key(promptPK(p.ID), skPromptMeta),
			UpdateExpression: aws.String(update + " ADD irev :one"), ConditionExpression: aws.String("attribute_exists(PK)"),
			ExpressionAttributeValues: values,
		})
		if err := conditional("creator's prompt", err, nil); err != nil {
			return err
		}
		if err := s.syncListing(context.WithoutCancel(ctx), p.ID, nil); err != nil {
			return err
		}
	}
	return nil
}

// CreatorQuery pages the admins' creators list.
type CreatorQuery struct {
	Limit  int
	Cursor string
}

// AdminCreators lists every creator, newest first, a page at a time: the
// page, the next page's cursor ("" on the last) and how many there are.
// ErrBadCursor for a cursor this listing did not give.
func (s *Store) AdminCreators(ctx context.Context, q CreatorQuery) ([]domain.Creator, string, int, error) {
	l := listing{index: IndexGSI2, pkAttr: AttrGSI2PK, skAttr: AttrGSI2SK, pk: GSI2Creators}
	return listingPage(ctx, s, l, q.Limit, q.Cursor, "admin creators", creatorItem.domain)
}

// SetCreatorSuspended suspends (on) or unsuspends uid and answers the
// creator after it; ErrNotFound when uid is no creator. Each of their
// prompts is marked the same and its listing copies brought in line at
// once: a suspended creator's prompts leave the marketplace (their owners
// keep them). Running it again finishes what a failure left undone.
func (s *Store) SetCreatorSuspended(ctx context.Context, uid string, on bool) (domain.Creator, error) {
	update, values := "REMOVE suspended", map[string]types.AttributeValue(nil)
	if on {
		update, values = "SET suspended = :t", map[string]types.AttributeValue{":t": &types.AttributeValueMemberBOOL{Value: true}}
	}
	out, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String(s.table), Key: key(userPK(uid), skCreator),
		UpdateExpression: aws.String(update), ConditionExpression: aws.String("attribute_exists(PK)"),
		ExpressionAttributeValues: values, ReturnValues: types.ReturnValueAllNew,
	})
	if isConditionFailed(err) {
		return domain.Creator{}, fmt.Errorf("suspend creator: %w", ErrNotFound)
	}
	if err != nil {
		return domain.Creator{}, fmt.Errorf("suspend creator: %w", err)
	}
	var it creatorItem
	if err := attributevalue.UnmarshalMap(out.Attributes, &it); err != nil {
		return domain.Creator{}, fmt.Errorf("suspend creator: %w", err)
	}
	mark, markValues := "REMOVE creator_suspended", map[string]types.AttributeValue{}
	if on {
		mark = "SET creator_suspended = :t"
		markValues[":t"] = &types.AttributeValueMemberBOOL{Value: true}
	}
	if err := s.markCreatorPrompts(ctx, uid, mark, markValues); err != nil {
		return domain.Creator{}, fmt.Errorf("suspend creator: %w", err)
	}
	if err := s.markCreatorAgents(ctx, uid, func(a *domain.Agent) { a.CreatorSuspended = on }); err != nil {
		return domain.Creator{}, fmt.Errorf("suspend creator: %w", err)
	}
	return it.domain(), nil
}

// CreatorByUsername reads the creator whose account has username (any
// case), through the account's username guard; ErrNotFound when there is
// none (no such account, or not a creator).
func (s *Store) CreatorByUsername(ctx context.Context, username string) (domain.Creator, error) {
	var g guardItem
	if err := s.getItem(ctx, usernameGuardPK(username), skGuard, &g); err != nil {
		return domain.Creator{}, fmt.Errorf("creator by username: %w", err)
	}
	c, err := s.GetCreator(ctx, g.UserID)
	if err != nil {
		return domain.Creator{}, err
	}
	if !strings.EqualFold(c.Username, username) {
		return domain.Creator{}, fmt.Errorf("creator by username: %w", ErrNotFound) // a guard left by a renamed account
	}
	return c, nil
}
