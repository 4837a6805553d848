package store

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The admin listings: a page at a time from an index partition, newest
// first, with the filters DynamoDB applies (a FilterExpression) and the
// total that matches them (a COUNT query over the same range). No scan:
// every listing is a Query of one index partition.

// listing is one listing query: the index and its key attributes, the
// partition, the sort key range (lo, hi: BETWEEN, each "" for open) and the
// filter.
type listing struct {
	index, pkAttr, skAttr string
	pk                    string
	lo, hi                string
	filter                string
	names                 map[string]string
	values                map[string]types.AttributeValue
}

// input is the listing's query (newest first).
func (l listing) input(table string) *dynamodb.QueryInput {
	names := map[string]string{"#lpk": l.pkAttr, "#lsk": l.skAttr}
	values := map[string]types.AttributeValue{":lpk": &types.AttributeValueMemberS{Value: l.pk}}
	cond := "#lpk = :lpk"
	switch {
	case l.lo != "" && l.hi != "":
		cond += " AND #lsk BETWEEN :llo AND :lhi"
	case l.lo != "":
		cond += " AND #lsk >= :llo"
	case l.hi != "":
		cond += " AND #lsk <= :lhi"
	default:
		delete(names, "#lsk")
	}
	if l.lo != "" {
		values[":llo"] = &types.AttributeValueMemberS{Value: l.lo}
	}
	if l.hi != "" {
		values[":lhi"] = &types.AttributeValueMemberS{Value: l.hi}
	}
	for k, v := range l.names {
		names[k] = v
	}
	for k, v := range l.values {
		values[k] = v
	}
	in := &dynamodb.QueryInput{
		TableName: aws.String(table), IndexName: aws.String(l.index), KeyConditionExpression: aws.String(cond),
		ExpressionAttributeNames: names, ExpressionAttributeValues: values, ScanIndexForward: aws.Bool(false),
	}
	if l.filter != "" {
		in.FilterExpression = aws.String(l.filter)
	}
	return in
}

// listPage answers at most limit items after cursor (the next of the page
// before, "" for the first) and the cursor of the page after ("" on the
// last). It reads one item more than the page to know whether another
// page follows.
func (s *Store) listPage(ctx context.Context, l listing, limit int, cursor string) (items []map[string]types.AttributeValue, next string, err error) {
	in := l.input(s.table)
	if cursor != "" {
		start, err := decodeListCursor(cursor, l)
		if err != nil {
			return nil, "", err
		}
		in.ExclusiveStartKey = start
	}
	for {
		out, err := s.db.Query(ctx, in)
		if err != nil {
			return nil, "", fmt.Errorf("admin listing: %w", err)
		}
		for _, it := range out.Items {
			if len(items) == limit {
				return items, encodeListCursor(items[limit-1], l), nil
			}
			items = append(items, it)
		}
		if out.LastEvaluatedKey == nil {
			return items, "", nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// listCount answers how many items the listing matches, all pages.
func (s *Store) listCount(ctx context.Context, l listing) (int, error) {
	in := l.input(s.table)
	in.Select = types.SelectCount
	n := 0
	for {
		out, err := s.db.Query(ctx, in)
		if err != nil {
			return 0, fmt.Errorf("admin listing count: %w", err)
		}
		n += int(out.Count)
		if out.LastEvaluatedKey == nil {
			return n, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// A listing cursor is the key of the page's last item (the table's key and
// the index's), base64url JSON: a query of the same index partition starts
// after it.
func encodeListCursor(item map[string]types.AttributeValue, l listing) string {
	k := map[string]string{}
	for _, a := range []string{AttrPK, AttrSK, l.pkAttr, l.skAttr} {
		if v, ok := item[a].(*types.AttributeValueMemberS); ok {
			k[a] = v.Value
		}
	}
	b, _ := json.Marshal(k)
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeListCursor(cursor string, l listing) (map[string]types.AttributeValue, error) {
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return nil, ErrBadCursor
	}
	var k map[string]string
	if json.Unmarshal(raw, &k) != nil || len(k) != 4 || k[l.pkAttr] != l.pk {
		return nil, ErrBadCursor
	}
	out := map[string]types.AttributeValue{}
	for _, a := range []string{AttrPK, AttrSK, l.pkAttr, l.skAttr} {
		v, ok := k[a]
		if !ok || v == "" {
			return nil, ErrBadCursor
		}
		out[a] = &types.AttributeValueMemberS{Value: v}
	}
	return out, nil
}

// BackfillResult counts the items BackfillAdminIndex gave GSI2 keys.
type BackfillResult struct{ Orders, Users int }

// BackfillAdminIndex gives the orders and accounts stored before GSI2
// existed their GSI2 keys (what PutOrder and CreateUser write now), so the
// admin listings show them. It scans the table once for them, so it runs
// outside requests: at the devserver's start, and once by the operator
// after the deploy that adds GSI2 (infra/cmd/backfill-admin-index). Each
// item is one conditional update that never overwrites keys already there:
// running it again, or beside the functions, changes nothing else.
func (s *Store) BackfillAdminIndex(ctx context.Context) (BackfillResult, error) {
	var res BackfillResult
	p := dynamodb.NewScanPaginator(s.db, &dynamodb.ScanInput{
		TableName: aws.String(s.table),
		FilterExpression: aws.String("attribute_not_exists(#g) AND ((#sk = :order AND begins_with(#pk, :orders)) OR " +
			"(#sk = :profile AND begins_with(#pk, :users)))"),
		ProjectionExpression:     aws.String("#pk, #sk, #c, #u"),
		ExpressionAttributeNames: map[string]string{"#g": AttrGSI2PK, "#pk": AttrPK, "#sk": AttrSK, "#c": "created_at", "#u": "username"},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":order": &types.AttributeValueMemberS{Value: skOrder}, ":orders": &types.AttributeValueMemberS{Value: PKOrder},
			":profile": &types.AttributeValueMemberS{Value: skProfile}, ":users": &types.AttributeValueMemberS{Value: PKUser},
		},
	})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return res, fmt.Errorf("backfill admin index: %w", err)
		}
		for _, item := range page.Items {
			pk, _ := item[AttrPK].(*types.AttributeValueMemberS)
			created := ""
			if c, ok := item["created_at"].(*types.AttributeValueMemberS); ok {
				created = c.Value
			}
			at, _ := time.Parse(time.RFC3339Nano, created)
			set := "SET #g = :g, #gs = :gs"
			values := map[string]types.AttributeValue{}
			names := map[string]string{"#g": AttrGSI2PK, "#gs": AttrGSI2SK}
			if strings.HasPrefix(pk.Value, PKOrder) {
				values[":g"] = &types.AttributeValueMemberS{Value: GSI2Orders}
				values[":gs"] = &types.AttributeValueMemberS{Value: orderGSI2SK(at, strings.TrimPrefix(pk.Value, PKOrder))}
				res.Orders++
			} else {
				values[":g"] = &types.AttributeValueMemberS{Value: GSI2Users}
				values[":gs"] = &types.AttributeValueMemberS{Value: userGSI2SK(at, strings.TrimPrefix(pk.Value, PKUser))}
				if u, ok := item["username"].(*types.AttributeValueMemberS); ok {
					set += ", username_lower = :ul"
					values[":ul"] = &types.AttributeValueMemberS{Value: strings.ToLower(u.Value)}
				}
				res.Users++
			}
			_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
				TableName: aws.String(s.table), Key: map[string]types.AttributeValue{AttrPK: item[AttrPK], AttrSK: item[AttrSK]},
				UpdateExpression: aws.String(set), ConditionExpression: aws.String("attribute_exists(PK) AND attribute_not_exists(#g)"),
				ExpressionAttributeNames: names, ExpressionAttributeValues: values,
			})
			if isConditionFailed(err) {
				// Deleted, or given its keys meanwhile.
				if strings.HasPrefix(pk.Value, PKOrder) {
					res.Orders--
				} else {
					res.Users--
				}
				continue
			}
			if err != nil {
				return res, fmt.Errorf("backfill admin index: %w", err)
			}
		}
	}
	return res, nil
}

// listingPage is one page of a listing as domain values (each item of
// type T converted by conv), the next page's cursor and the total.
func listingPage[T, D any](ctx context.Context, s *Store, l listing, limit int, cursor, what string, conv func(T) D) ([]D, string, int, error) {
	raw, next, err := s.listPage(ctx, l, limit, cursor)
	if err != nil {
		return nil, "", 0, err
	}
	var items []T
	if err := attributevalue.UnmarshalListOfMaps(raw, &items); err != nil {
		return nil, "", 0, fmt.Errorf("%s: %w", what, err)
	}
	total, err := s.listCount(ctx, l)
	if err != nil {
		return nil, "", 0, err
	}
	return convertAll(items, conv), next, total, nil
}
