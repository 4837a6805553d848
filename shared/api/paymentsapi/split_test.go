package paymentsapi_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/api/apitest"
	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/local/devstack"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// newFeeStack is newStack (no free prompts) with the platform's fee at
// percent.
func newFeeStack(t *testing.T, percent int, prompts ...domain.Prompt) *stack {
	t.Helper()
	st, storeCfg := storetest.NewWithConfig(t)
	apitest.PutCatalogue(t, st, prompts...)
	cfg := devstack.ConfigFor(storeCfg, jwtSecret, 0, webhookSecret)
	cfg.Payments.PlatformFeePercent = percent
	h, err := devstack.Handler(st, cfg, "")
	if err != nil {
		t.Fatal(err)
	}
	return &stack{&apitest.Stack{T: t, H: h, St: st, Tokens: auth.NewTokens(jwtSecret, time.Hour)}}
}

// sellerOf makes name a creator who sells pids; enabled gives them a
// payout account Stripe has enabled.
func (s *stack) sellerOf(name string, enabled bool, pids ...string) string {
	s.T.Helper()
	ctx := context.Background()
	uid, _ := s.User(name)
	_, err := s.St.PutCreator(ctx, domain.Creator{UserID: uid, Username: name, DisplayName: name, Country: "US"}, time.Now())
	storetest.Must(s.T, err, "put creator")
	if enabled {
		storetest.Must(s.T, s.St.SetCreatorStripeAccount(ctx, uid, "acct_"+name), "account")
		storetest.Must(s.T, s.St.SetCreatorPayouts(ctx, uid, "acct_"+name,
			store.CreatorPayouts{Status: domain.PayoutsEnabled, ChargesEnabled: true, PayoutsEnabled: true}), "payouts")
	}
	for _, pid := range pids {
		_, err := s.St.DB().UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName: aws.String(s.St.Table()),
			Key: map[string]types.AttributeValue{
				store.AttrPK: &types.AttributeValueMemberS{Value: store.PKPrompt + pid}, store.AttrSK: &types.AttributeValueMemberS{Value: "META"}},
			UpdateExpression:          aws.String("SET creator_id = :c"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":c": &types.AttributeValueMemberS{Value: uid}},
		})
		storetest.Must(s.T, err, "creator of "+pid)
	}
	return uid
}

// A creator's sale records on its order the split the destination charge
// makes: the fee rounds half up to the cent, the creator gets the rest.
func TestCheckoutSplitsACreatorsSale(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		percent        int
		price          float64
		feeCents, nets int64
	}{
		{20, 0.99, 20, 79}, {20, 1.01, 20, 81}, {20, 9.99, 200, 799},
		{15, 0.99, 15, 84}, {15, 1.01, 15, 86}, {15, 9.99, 150, 849},
	} {
		s := newFeeStack(t, c.percent, fixture("cp", c.price), fixture("own", c.price))
		creator := s.sellerOf("maker", true, "cp")
		_, token := s.User("buyer")
		sid := s.checkout(token, "cp").SessionID
		split, err := s.St.GetOrderSplit(context.Background(), sid)
		storetest.Must(t, err, "split")
		if split.CreatorID != creator || split.FeeCents != c.feeCents || split.NetCents != c.nets {
			t.Errorf("%d %% of $%.2f: split %+v; want fee %d net %d", c.percent, c.price, split, c.feeCents, c.nets)
		}
		// The platform's own prompt: no split.
		own, err := s.St.GetOrderSplit(context.Background(), s.checkout(token, "own").SessionID)
		if err != nil || own != (store.OrderSplit{}) {
			t.Errorf("the platform's own sale: %+v, %v; want no split", own, err)
		}
	}
}

// A creator whose payouts are not enabled (or who has no account) cannot
// sell yet: the checkout is refused and no order is made.
func TestCheckoutRefusesACreatorWithoutPayouts(t *testing.T) {
	t.Parallel()
	s := newFeeStack(t, 20, fixture("cp", 5))
	s.sellerOf("waiting", false, "cp")
	_, token := s.User("buyer")
	w := s.Do("POST", "/api/v1/payments/create-checkout-session", token, `{"prompt_id":"cp"}`)
	wantError(t, w, http.StatusConflict, "This prompt is not for sale right now.")
}

// 20 buyers at once: 20 orders, each split exactly.
func TestConcurrentCheckoutsSplitEach(t *testing.T) {
	t.Parallel()
	s := newFeeStack(t, 20, fixture("cp", 9.99))
	s.sellerOf("busy", true, "cp")
	sids := make([]string, 20)
	tokens := make([]string, 20)
	for i := range tokens {
		_, tokens[i] = s.User("buyer" + string(rune('a'+i)))
	}
	var wg sync.WaitGroup
	for i := range sids {
		wg.Add(1)
		go func() { defer wg.Done(); sids[i] = s.checkout(tokens[i], "cp").SessionID }()
	}
	wg.Wait()
	seen := map[string]bool{}
	for _, sid := range sids {
		split, err := s.St.GetOrderSplit(context.Background(), sid)
		storetest.Must(t, err, "split")
		if seen[sid] || split.FeeCents != 200 || split.NetCents != 799 {
			t.Errorf("order %s: %+v (seen %v); want 200 + 799", sid, split, seen[sid])
		}
		seen[sid] = true
	}
}
