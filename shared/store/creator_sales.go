package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
)

// OrderSplit is how a creator's sale divides, recorded on its order
// (creator_id, fee_cents, net_cents beside the order's own attributes), so
// refunds and the creator's dashboard read what the checkout charged.
type OrderSplit struct {
	CreatorID string
	FeeCents  int64
	NetCents  int64
}

// SetOrderSplit records split on the order sid (which must exist). The
// order's other attributes are untouched, and a repeat writes the same.
func (s *Store) SetOrderSplit(ctx context.Context, sid string, split OrderSplit) error {
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String(s.table),
		Key:                 key(orderPK(sid), skOrder),
		UpdateExpression:    aws.String("SET creator_id = :c, fee_cents = :f, net_cents = :n"),
		ConditionExpression: aws.String("attribute_exists(PK)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":c": &types.AttributeValueMemberS{Value: split.CreatorID},
			":f": &types.AttributeValueMemberN{Value: strconv.FormatInt(split.FeeCents, 10)},
			":n": &types.AttributeValueMemberN{Value: strconv.FormatInt(split.NetCents, 10)},
		},
	})
	if isConditionFailed(err) {
		return fmt.Errorf("set order split: %w", ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("set order split: %w", err)
	}
	return nil
}

// GetOrderSplit reads the order's split: the zero split (no creator) for
// the platform's own sales; ErrNotFound when there is no such order.
func (s *Store) GetOrderSplit(ctx context.Context, sid string) (OrderSplit, error) {
	var it struct {
		CreatorID string `dynamodbav:"creator_id"`
		FeeCents  int64  `dynamodbav:"fee_cents"`
		NetCents  int64  `dynamodbav:"net_cents"`
	}
	if err := s.getItem(ctx, orderPK(sid), skOrder, &it); err != nil {
		return OrderSplit{}, fmt.Errorf("get order split: %w", err)
	}
	return OrderSplit{CreatorID: it.CreatorID, FeeCents: it.FeeCents, NetCents: it.NetCents}, nil
}

// The creator's sales ledger: counters kept as sales and refunds happen,
// for the creator's dashboard. CSALES#<creator> / TOTAL holds the
// creator's totals, CSALES#<creator> / PROMPT#<pid> each prompt's and
// CSALES#<creator> / AGENT#<aid> each agent's; all
// only ever take ADDs, so concurrent sales never lose a count. A sale or a
// refund is counted once: its marker (CSALES#<creator> / SALE#<sid> or
// REFUND#<sid>) is created, on condition that it is new, before the ADDs.

// PKCreatorSales is the partition of a creator's sales ledger (CSALES#<uid>).
const PKCreatorSales = "CSALES#"

const (
	pkCreatorSales   = PKCreatorSales
	skCreatorTotal   = "TOTAL"
	skCreatorPrompt  = "PROMPT#"
	skCreatorAgent   = "AGENT#"
	skCreatorSale    = "SALE#"
	skCreatorRefund  = "REFUND#"
	ledgerSales      = "sales"
	ledgerGross      = "gross_cents"
	ledgerFees       = "fee_cents"
	ledgerNet        = "net_cents"
	ledgerRefunds    = "refund_cents"
	ledgerRefundedNo = "refunded"
	ledgerFreeUses   = "free_uses"
)

// CreatorLedger is a creator's (or one prompt's, or one agent's) counters. A refunded sale
// stays in Sales and Gross and is counted in Refunded and RefundCents; Net
// and Fees are what the creator and the platform keep after refunds.
type CreatorLedger struct {
	PromptID    string `dynamodbav:"prompt_id,omitempty"`
	AgentID     string `dynamodbav:"agent_id,omitempty"`
	Sales       int64  `dynamodbav:"sales"`
	GrossCents  int64  `dynamodbav:"gross_cents"`
	FeeCents    int64  `dynamodbav:"fee_cents"`
	NetCents    int64  `dynamodbav:"net_cents"`
	RefundCents int64  `dynamodbav:"refund_cents"`
	Refunded    int64  `dynamodbav:"refunded"`
	FreeUses    int64  `dynamodbav:"free_uses"`
}

func ledgerNum(n int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
}

// ledgerKey is the SK of the counters of the item kind/id sold (a
// prompt's or an agent's) and the attribute naming it there.
func ledgerKey(kind, id string) (sk, attr string) {
	if kind == domain.KindAgent {
		return skCreatorAgent + id, "agent_id"
	}
	return skCreatorPrompt + id, "prompt_id"
}

// countOnce writes the marker (new only) and ADDs the values to the
// creator's totals and the item's counters (ledgerKey) in one transaction; false
// when the marker was there already (counted before).
func (s *Store) countOnce(ctx context.Context, creator, kind, id, marker string, add map[string]int64) (bool, error) {
	expr, values := "ADD", map[string]types.AttributeValue{}
	i := 0
	for name, v := range add {
		if i > 0 {
			expr += ","
		}
		expr += fmt.Sprintf(" %s :v%d", name, i)
		values[fmt.Sprintf(":v%d", i)] = ledgerNum(v)
		i++
	}
	pk := pkCreatorSales + creator
	itemSK, itemAttr := ledgerKey(kind, id)
	itemValues := map[string]types.AttributeValue{":id": &types.AttributeValueMemberS{Value: id}}
	for k, v := range values {
		itemValues[k] = v
	}
	// The local engine has no transactions, so the marker goes first: of
	// two runs for one order only the one that creates it adds. A failure
	// between the marker and the ADDs leaves the sale uncounted (logged by
	// the caller) rather than counted twice.
	_, err := s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table),
		Item:                map[string]types.AttributeValue{AttrPK: &types.AttributeValueMemberS{Value: pk}, AttrSK: &types.AttributeValueMemberS{Value: marker}},
		ConditionExpression: aws.String("attribute_not_exists(PK)")})
	if isConditionFailed(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("creator ledger: %w", err)
	}
	for _, u := range []*dynamodb.UpdateItemInput{
		{TableName: aws.String(s.table), Key: key(pk, skCreatorTotal), UpdateExpression: aws.String(expr), ExpressionAttributeValues: values},
		{TableName: aws.String(s.table), Key: key(pk, itemSK), UpdateExpression: aws.String("SET " + itemAttr + " = :id " + expr), ExpressionAttributeValues: itemValues},
	} {
		if _, err := s.db.UpdateItem(ctx, u); err != nil {
			return false, fmt.Errorf("creator ledger: %w", err)
		}
	}
	return true, nil
}

// CountCreatorSale counts the paid order sid of the creator's item once
// (kind: "" or domain.KindPrompt a prompt, domain.KindAgent an agent),
// however many times fulfilment runs.
func (s *Store) CountCreatorSale(ctx context.Context, sid, kind, id string, split OrderSplit, grossCents int64) (bool, error) {
	return s.countOnce(ctx, split.CreatorID, kind, id, skCreatorSale+sid, map[string]int64{
		ledgerSales: 1, ledgerGross: grossCents, ledgerFees: split.FeeCents, ledgerNet: split.NetCents})
}

// CountCreatorRefund counts the refund of the order sid once: the creator's
// net and the platform's fee go back, the refunded amount is added up.
func (s *Store) CountCreatorRefund(ctx context.Context, sid, kind, id string, split OrderSplit, grossCents int64) (bool, error) {
	// A sale never counted (refunded before its fulfilment) has nothing to take back.
	var sale struct{}
	if err := s.getItem(ctx, pkCreatorSales+split.CreatorID, skCreatorSale+sid, &sale); errors.Is(err, ErrNotFound) {
		return false, nil
	} else if err != nil {
		return false, fmt.Errorf("creator ledger: %w", err)
	}
	return s.countOnce(ctx, split.CreatorID, kind, id, skCreatorRefund+sid, map[string]int64{
		ledgerRefundedNo: 1, ledgerRefunds: grossCents, ledgerFees: -split.FeeCents, ledgerNet: -split.NetCents})
}

// CreatorTotal reads the creator's totals (zero before the first sale).
func (s *Store) CreatorTotal(ctx context.Context, creator string) (CreatorLedger, error) {
	var total CreatorLedger
	if err := s.getItem(ctx, pkCreatorSales+creator, skCreatorTotal, &total); err != nil && !errors.Is(err, ErrNotFound) {
		return CreatorLedger{}, fmt.Errorf("creator ledger: %w", err)
	}
	return total, nil
}

// CreatorLedgerOf reads the creator's totals and their prompts' counters.
func (s *Store) CreatorLedgerOf(ctx context.Context, creator string) (CreatorLedger, []CreatorLedger, error) {
	total, err := s.CreatorTotal(ctx, creator)
	if err != nil {
		return CreatorLedger{}, nil, err
	}
	prompts, err := s.creatorItemLedgers(ctx, creator, skCreatorPrompt)
	if err != nil {
		return CreatorLedger{}, nil, err
	}
	return total, prompts, nil
}

// CreatorAgentLedger reads the counters of the creator's agents sold
// (their sales are in CreatorTotal's totals too).
func (s *Store) CreatorAgentLedger(ctx context.Context, creator string) ([]CreatorLedger, error) {
	return s.creatorItemLedgers(ctx, creator, skCreatorAgent)
}

// creatorItemLedgers reads the creator's counters whose SK starts with prefix.
func (s *Store) creatorItemLedgers(ctx context.Context, creator, prefix string) ([]CreatorLedger, error) {
	var items []CreatorLedger
	p := dynamodb.NewQueryPaginator(s.db, &dynamodb.QueryInput{
		TableName:              aws.String(s.table),
		KeyConditionExpression: aws.String("PK = :pk AND begins_with(SK, :sk)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": &types.AttributeValueMemberS{Value: pkCreatorSales + creator}, ":sk": &types.AttributeValueMemberS{Value: prefix}},
		ConsistentRead: aws.Bool(true),
	})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("creator ledger: %w", err)
		}
		for _, item := range page.Items {
			var l CreatorLedger
			if err := attributevalue.UnmarshalMap(item, &l); err != nil {
				return nil, fmt.Errorf("creator ledger: %w", err)
			}
			items = append(items, l)
		}
	}
	return items, nil
}

// CountCreatorFreeUse counts uid's free use of the creator's prompt pid
// once: it pays nothing, so only free_uses moves.
func (s *Store) CountCreatorFreeUse(ctx context.Context, creator, pid, uid string) (bool, error) {
	return s.countOnce(ctx, creator, domain.KindPrompt, pid, "FREE#"+pid+"#"+uid, map[string]int64{ledgerFreeUses: 1})
}
