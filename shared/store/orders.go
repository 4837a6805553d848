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

// Orders: one item per checkout session, moved through its states by
// conditional writes (domain.Order*), so a webhook and the success page
// fulfilling the same order at once agree on one outcome. Refunds are in
// refunds.go.

// orderAttrs is a domain.Order as stored. Its fields are domain.Order's, in
// the same order, so the two convert into each other (Go ignores tags in a
// struct conversion): a field added to one and not the other fails to
// compile rather than go unstored.
type orderAttrs struct {
	SessionID     string  `dynamodbav:"session_id"`
	UserID        string  `dynamodbav:"user_id"`
	PromptID      string  `dynamodbav:"prompt_id"`
	PromptTitle   string  `dynamodbav:"prompt_title"`
	Amount        float64 `dynamodbav:"amount"`
	Status        string  `dynamodbav:"status"`
	Provider      string  `dynamodbav:"provider"`
	CreatedAt     string  `dynamodbav:"created_at"`
	PaidAt        string  `dynamodbav:"paid_at,omitempty"`
	PaymentIntent string  `dynamodbav:"payment_intent,omitempty"`
	RefundedAt    string  `dynamodbav:"refunded_at,omitempty"`
	RefundReason  string  `dynamodbav:"refund_reason,omitempty"`
	Kind          string  `dynamodbav:"kind,omitempty"`
}

type orderItem struct {
	PK     string `dynamodbav:"PK"`
	SK     string `dynamodbav:"SK"`
	GSI1PK string `dynamodbav:"GSI1PK"`
	GSI1SK string `dynamodbav:"GSI1SK"`
	// GSI2: the admins' listing of every order (keys.go).
	GSI2PK string `dynamodbav:"GSI2PK,omitempty"`
	GSI2SK string `dynamodbav:"GSI2SK,omitempty"`
	orderAttrs
}

func (it orderItem) domain() domain.Order { return domain.Order(it.orderAttrs) }

// paymentIntentItem points a payment intent at the order it paid, so a
// refund event (which names only the intent) finds its order.
type paymentIntentItem struct {
	PK        string `dynamodbav:"PK"`
	SK        string `dynamodbav:"SK"`
	SessionID string `dynamodbav:"session_id"`
}

// ErrOrderState is a transition the order's current state does not allow.
var ErrOrderState = errors.New("order is not in a state that allows this")

// PutOrder stores a new order; an order already stored under the session
// id is left as it is (a retried create, or a webhook that came first).
func (s *Store) PutOrder(ctx context.Context, o domain.Order) error {
	created, _ := time.Parse(time.RFC3339Nano, o.CreatedAt)
	it := orderItem{PK: orderPK(o.SessionID), SK: skOrder, GSI1PK: userPK(o.UserID), GSI1SK: orderGSI1SK(created),
		GSI2PK: GSI2Orders, GSI2SK: orderGSI2SK(created, o.SessionID), orderAttrs: orderAttrs(o)}
	if err := s.putNew(ctx, it); err != nil && !errors.Is(err, errExists) {
		return fmt.Errorf("put order: %w", err)
	}
	return nil
}

// GetOrder reads an order by checkout session id.
func (s *Store) GetOrder(ctx context.Context, sid string) (domain.Order, error) {
	var it orderItem
	if err := s.getItem(ctx, orderPK(sid), skOrder, &it); err != nil {
		return domain.Order{}, fmt.Errorf("get order: %w", err)
	}
	return it.domain(), nil
}

// MarkOrderPaid moves an order to PAID from any state but REFUNDED and
// answers it. The first caller's paid_at stays, so everyone after reads the
// same time (deterministic activity keys).
func (s *Store) MarkOrderPaid(ctx context.Context, sid, paymentIntent string, now time.Time) (domain.Order, error) {
	o, err := s.transitionOrder(ctx, "mark order paid", sid,
		"SET #s = :paid, paid_at = if_not_exists(paid_at, :now), payment_intent = :pi",
		// An existing order only (never create one from a payment), and a
		// refund is final: a late "paid" event must not undo it.
		"attribute_exists(PK) AND #s <> :refunded",
		map[string]types.AttributeValue{
			":paid":     &types.AttributeValueMemberS{Value: domain.OrderPaid},
			":refunded": &types.AttributeValueMemberS{Value: domain.OrderRefunded},
			":now":      &types.AttributeValueMemberS{Value: now.UTC().Format(time.RFC3339Nano)},
			":pi":       &types.AttributeValueMemberS{Value: paymentIntent},
		})
	if err != nil {
		return domain.Order{}, err
	}
	if paymentIntent != "" {
		if err := s.put(ctx, paymentIntentItem{PK: paymentPK(paymentIntent), SK: skOrder, SessionID: sid}); err != nil {
			return domain.Order{}, fmt.Errorf("index payment intent: %w", err)
		}
	}
	return o, nil
}

// SetOrderStatus moves an order from one of the states in from to to.
// ErrOrderState when it is in none of them (an event that came too late).
func (s *Store) SetOrderStatus(ctx context.Context, sid, to string, from ...string) error {
	values := map[string]types.AttributeValue{":to": &types.AttributeValueMemberS{Value: to}}
	// An existing order in one of the from states: a late event must not
	// move an order on from a state it no longer is in.
	cond := "attribute_exists(PK) AND ("
	for i, f := range from {
		k := fmt.Sprintf(":f%d", i)
		values[k] = &types.AttributeValueMemberS{Value: f}
		if i > 0 {
			cond += " OR "
		}
		cond += "#s = " + k
	}
	_, err := s.transitionOrder(ctx, "set order status", sid, "SET #s = :to", cond+")", values)
	return err
}

// transitionOrder runs one conditional UpdateItem on order sid (#s names
// its status) and answers the order after it; ErrOrderState when cond
// refuses the write. op names the transition in errors.
func (s *Store) transitionOrder(ctx context.Context, op, sid, update, cond string, values map[string]types.AttributeValue) (domain.Order, error) {
	out, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(s.table),
		Key:                       key(orderPK(sid), skOrder),
		UpdateExpression:          aws.String(update),
		ConditionExpression:       aws.String(cond),
		ExpressionAttributeNames:  map[string]string{"#s": "status"},
		ExpressionAttributeValues: values,
		ReturnValues:              types.ReturnValueAllNew,
	})
	if isConditionFailed(err) {
		return domain.Order{}, ErrOrderState
	}
	if err != nil {
		return domain.Order{}, fmt.Errorf("%s: %w", op, err)
	}
	var it orderItem
	if err := attributevalue.UnmarshalMap(out.Attributes, &it); err != nil {
		return domain.Order{}, fmt.Errorf("%s: %w", op, err)
	}
	return it.domain(), nil
}

// OrderByPaymentIntent finds the order a payment intent paid.
func (s *Store) OrderByPaymentIntent(ctx context.Context, pi string) (domain.Order, error) {
	var ref paymentIntentItem
	if err := s.getItem(ctx, paymentPK(pi), skOrder, &ref); err != nil {
		return domain.Order{}, fmt.Errorf("order by payment intent: %w", err)
	}
	return s.GetOrder(ctx, ref.SessionID)
}

// PendingOrders lists uid's orders for pid that are still PENDING (open
// checkout sessions), from the user's order index.
func (s *Store) PendingOrders(ctx context.Context, uid, pid string) ([]domain.Order, error) {
	in := gsi1Query(userPK(uid), orderIndexPrefix)
	in.FilterExpression = aws.String("prompt_id = :pid AND #s = :pending")
	in.ExpressionAttributeNames = map[string]string{"#s": "status"}
	in.ExpressionAttributeValues[":pid"] = &types.AttributeValueMemberS{Value: pid}
	in.ExpressionAttributeValues[":pending"] = &types.AttributeValueMemberS{Value: domain.OrderPending}
	items, err := queryAll[orderItem](ctx, s, in, "pending orders")
	if err != nil {
		return nil, err
	}
	return convertAll(items, orderItem.domain), nil
}
