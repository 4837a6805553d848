package webhookapi_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// A paid agent's session, delivered by Stripe before our own order was
// stored, then delivered again as another event (async_payment_succeeded)
// and again as the same event (a retry): one order of the agent, one
// ownership of kind agent, one purchase counted on the agent, one
// activity. charge.refunded, delivered twice, takes it back once.
func TestWebhookFulfilsAnAgentOnce(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	ctx := context.Background()
	a := domain.Agent{ID: "a-00000000beef", Name: "Webhook agent", Instructions: "secret", Provider: "openai", Model: "gpt-4o-mini",
		CategoryID: "business", Price: 9.99, CreatorID: "maker", State: domain.PromptPublished, Version: 1, Published: 1, CreatedAt: time.Now()}
	storetest.Must(t, s.St.PutAgent(ctx, a), "agent")
	buyer, _ := s.User("buyer")
	sess := checkoutSession{ID: "cs_agent_webhook", Status: "complete", PaymentStatus: "paid", PaymentIntent: "pi_agent_webhook",
		UserID: buyer, PromptID: a.ID, AmountCents: 999}
	obj := sess.object()
	obj["metadata"] = map[string]string{"user_id": buyer, "prompt_id": a.ID, "kind": domain.KindAgent}
	completed := event("evt_agent_completed", "checkout.session.completed", obj)
	s.deliver(completed)
	s.deliver(event("evt_agent_async", "checkout.session.async_payment_succeeded", obj))
	s.deliver(completed)

	order := s.order(sess.ID)
	if order.Kind != domain.KindAgent || order.PromptTitle != a.Name || order.Status != domain.OrderPaid {
		t.Errorf("order %+v; want the agent's, paid", order)
	}
	own, err := s.St.OwnershipOf(ctx, buyer, a.ID)
	if err != nil || own.Kind != domain.KindAgent || own.OrderID != sess.ID {
		t.Errorf("ownership %+v, %v; want the agent's from %s", own, err, sess.ID)
	}
	if ids := s.owned(buyer); len(ids) != 0 {
		t.Errorf("owned prompts %v; want none", ids)
	}
	if ids, err := s.St.OwnedAgentIDs(ctx, buyer); err != nil || !slices.Equal(ids, []string{a.ID}) {
		t.Errorf("owned agents %v, %v", ids, err)
	}
	if n, err := s.St.AgentPurchases(ctx, a.ID); err != nil || n != 1 {
		t.Errorf("agent purchases = %d, %v; want 1", n, err)
	}
	if acts := s.activities(buyer, domain.ActivityPurchase); len(acts) != 1 {
		t.Errorf("purchase activities %+v; want one", acts)
	}

	refund := event("evt_agent_refunded", "charge.refunded", charge("ch_agent", sess.PaymentIntent, 999, 999, true))
	s.deliver(refund)
	s.deliver(event("evt_agent_refunded_again", "charge.refunded", charge("ch_agent", sess.PaymentIntent, 999, 999, true)))
	if ok, err := s.St.Owns(ctx, buyer, a.ID); err != nil || ok {
		t.Errorf("after the refund Owns = %v, %v; want false", ok, err)
	}
	if n, err := s.St.AgentPurchases(ctx, a.ID); err != nil || n != 0 {
		t.Errorf("agent purchases after the refund = %d, %v; want 0", n, err)
	}
	if o := s.order(sess.ID); o.Status != domain.OrderRefunded {
		t.Errorf("order after the refund %+v", o)
	}
	if total, err := s.St.CreatorTotal(ctx, "maker"); err != nil || total != (store.CreatorLedger{}) {
		// No split was recorded (the order came from the event): nothing
		// was counted for the creator, so nothing is taken back.
		t.Errorf("creator ledger %+v, %v; want untouched", total, err)
	}
}
