package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
)

// The admins' accounts: every account listed through GSI2 (USERS), newest
// first; what an admin changes on one (admin right, disabled); the counts
// shown beside it; and the lease that keeps the last admin.

// UserQuery filters the admins' account listing.
type UserQuery struct {
	// Search matches the start of the email or of the username (any case);
	// "" for every account.
	Search string
	Limit  int
	// Cursor is the next of the page before ("" for the first page).
	Cursor string
}

// AdminUsers lists the accounts q selects, newest first, a page at a time:
// the page, the cursor of the next ("" on the last) and how many match in
// all. ErrBadCursor for a cursor this listing did not give.
func (s *Store) AdminUsers(ctx context.Context, q UserQuery) (users []domain.User, next string, total int, err error) {
	l := listing{index: IndexGSI2, pkAttr: AttrGSI2PK, skAttr: AttrGSI2SK, pk: GSI2Users}
	if search := strings.ToLower(strings.TrimSpace(q.Search)); search != "" {
		l.filter = "begins_with(#em, :q) OR begins_with(#ul, :q)"
		l.names = map[string]string{"#em": "email", "#ul": "username_lower"}
		l.values = map[string]types.AttributeValue{":q": &types.AttributeValueMemberS{Value: search}}
	}
	return listingPage(ctx, s, l, q.Limit, q.Cursor, "admin users", userItem.domain)
}

// SetSuperuser grants (on) or revokes the admin right of uid and answers
// the account after it; ErrNotFound when there is none.
func (s *Store) SetSuperuser(ctx context.Context, uid string, on bool) (domain.User, error) {
	if !keyFits(userPK(uid), skProfile) {
		return domain.User{}, ErrNotFound
	}
	return s.updateProfile(ctx, "set admin", uid, "SET is_superuser = :v", "attribute_exists(PK)",
		map[string]types.AttributeValue{":v": &types.AttributeValueMemberBOOL{Value: on}})
}

// SetDisabled disables (on) or enables uid and answers the account after
// it; ErrNotFound when there is none. Disabling does not end the account's
// sessions: the caller does (EndSessions), after this write.
func (s *Store) SetDisabled(ctx context.Context, uid string, on bool) (domain.User, error) {
	if !keyFits(userPK(uid), skProfile) {
		return domain.User{}, ErrNotFound
	}
	if !on {
		return s.updateProfile(ctx, "enable user", uid, "REMOVE disabled", "attribute_exists(PK)", nil)
	}
	return s.updateProfile(ctx, "disable user", uid, "SET disabled = :t", "attribute_exists(PK)",
		map[string]types.AttributeValue{":t": &types.AttributeValueMemberBOOL{Value: true}})
}

// CountSessions answers how many sessions of uid are open (not expired).
func (s *Store) CountSessions(ctx context.Context, uid string, now time.Time) (int, error) {
	in := partitionQuery(userPK(uid), sessionPrefix)
	in.FilterExpression = aws.String("#e > :now")
	in.ExpressionAttributeNames = map[string]string{"#e": AttrExpires}
	in.ExpressionAttributeValues[":now"] = &types.AttributeValueMemberN{Value: strconv.FormatInt(now.Unix(), 10)}
	return s.countQuery(ctx, in, "count sessions")
}

// UserCounts is what the admins see beside an account.
type UserCounts struct {
	// Purchases: prompts and agents the user owns by a purchase (a refund takes one
	// away).
	Purchases int
	// Connections: the user's MCP server connections.
	Connections int
	// ChatTokensToday: chat tokens (in and out) on today's UTC day.
	ChatTokensToday int
}

// CountsOf answers uid's counts at now.
func (s *Store) CountsOf(ctx context.Context, uid string, now time.Time) (UserCounts, error) {
	var c UserCounts
	owned := partitionQuery(userPK(uid), ownPrefix)
	owned.FilterExpression = aws.String("#src = :purchase")
	owned.ExpressionAttributeNames = map[string]string{"#src": "source"}
	owned.ExpressionAttributeValues[":purchase"] = &types.AttributeValueMemberS{Value: domain.SourcePurchase}
	var err error
	if c.Purchases, err = s.countQuery(ctx, owned, "count purchases"); err != nil {
		return c, err
	}
	if c.Connections, err = s.countQuery(ctx, partitionQuery(userPK(uid), mcpConnPrefix), "count connections"); err != nil {
		return c, err
	}
	if c.ChatTokensToday, err = s.ChatTokensOn(ctx, uid, now); err != nil {
		return c, err
	}
	return c, nil
}

// countQuery counts what a query selects, all pages.
func (s *Store) countQuery(ctx context.Context, in *dynamodb.QueryInput, what string) (int, error) {
	in.TableName = aws.String(s.table)
	in.Select = types.SelectCount
	n := 0
	for {
		out, err := s.db.Query(ctx, in)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", what, err)
		}
		n += int(out.Count)
		if out.LastEvaluatedKey == nil {
			return n, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// ErrAdminRightsBusy: another change that takes an admin away held the
// lease for as long as WithAdminRightsLease waits.
var ErrAdminRightsBusy = errors.New("another change to admin rights is under way")

// How long a lease lasts (longer than any request may run, so a holder
// always finishes or dies before another may take it) and how long a
// change waits for one.
const (
	adminLeaseTTL  = 2 * time.Minute
	adminLeaseWait = 5 * time.Second
)

// WithAdminRightsLease runs change while holding the one lease of the
// changes that take an admin away (revoke, disable), so that the check
// "an admin remains" and the write after it are never interleaved with
// another such change: two admins revoking each other at once end with one
// admin, not none. The lease is one conditional put (taken over only once
// expired: a holder that died), released by a conditional delete.
func (s *Store) WithAdminRightsLease(ctx context.Context, holder string, change func() error) error {
	deadline := time.Now().Add(adminLeaseWait)
	for delay := 20 * time.Millisecond; ; delay = min(2*delay, 500*time.Millisecond) {
		now := time.Now()
		_, err := s.db.PutItem(ctx, &dynamodb.PutItemInput{
			TableName: aws.String(s.table),
			Item: map[string]types.AttributeValue{
				AttrPK:        &types.AttributeValueMemberS{Value: PKAdminRights},
				AttrSK:        &types.AttributeValueMemberS{Value: skAdminLease},
				"holder":      &types.AttributeValueMemberS{Value: holder},
				"lease_until": &types.AttributeValueMemberN{Value: strconv.FormatInt(now.Add(adminLeaseTTL).UnixMilli(), 10)},
				AttrExpires:   &types.AttributeValueMemberN{Value: strconv.FormatInt(now.Add(adminLeaseTTL).Unix()+60, 10)},
			},
			ConditionExpression:       aws.String("attribute_not_exists(PK) OR lease_until < :now"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":now": &types.AttributeValueMemberN{Value: strconv.FormatInt(now.UnixMilli(), 10)}},
		})
		if err == nil {
			break
		}
		if !isConditionFailed(err) {
			return fmt.Errorf("admin rights lease: %w", err)
		}
		if time.Now().Add(delay).After(deadline) {
			return ErrAdminRightsBusy
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
	}
	defer func() {
		_, _ = s.db.DeleteItem(context.WithoutCancel(ctx), &dynamodb.DeleteItemInput{
			TableName: aws.String(s.table), Key: key(PKAdminRights, skAdminLease),
			ConditionExpression:       aws.String("holder = :h"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":h": &types.AttributeValueMemberS{Value: holder}},
		})
	}()
	return change()
}

// OtherActiveAdmin reports whether an account other than except is an
// admin and not disabled. The listing index only names candidates (it may
// lag a moment behind a change); each is confirmed by a strongly
// consistent read of its profile.
func (s *Store) OtherActiveAdmin(ctx context.Context, except string) (bool, error) {
	in := gsi2Query(GSI2Users)
	in.FilterExpression = aws.String("#su = :t AND NOT #dis = :t AND #id <> :except")
	in.ExpressionAttributeNames = map[string]string{"#su": "is_superuser", "#dis": "disabled", "#id": "id"}
	in.ExpressionAttributeValues[":t"] = &types.AttributeValueMemberBOOL{Value: true}
	in.ExpressionAttributeValues[":except"] = &types.AttributeValueMemberS{Value: except}
	in.ProjectionExpression = aws.String("#id")
	in.TableName = aws.String(s.table)
	p := dynamodb.NewQueryPaginator(s.db, in)
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return false, fmt.Errorf("other admin: %w", err)
		}
		for _, item := range page.Items {
			id, _ := item["id"].(*types.AttributeValueMemberS)
			if id == nil {
				continue
			}
			u, err := s.GetUser(ctx, id.Value)
			if errors.Is(err, ErrNotFound) {
				continue
			}
			if err != nil {
				return false, err
			}
			if u.IsSuperuser && !u.Disabled {
				return true, nil
			}
		}
	}
	return false, nil
}

// gsi2Query selects the GSI2 entries under pk (an index reads eventually
// consistent only).
func gsi2Query(pk string) *dynamodb.QueryInput {
	in := prefixQuery(AttrGSI2PK, AttrGSI2SK, pk, "")
	in.IndexName = aws.String(IndexGSI2)
	return in
}
