package payments_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/payments"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// An agent's checkout tells Stripe its kind beside the buyer and the item,
// on the session and on its payment (stripe-mock checks the shapes); a
// prompt's carries no kind, as before.
func TestStripeCheckoutOfAnAgentSaysItsKind(t *testing.T) {
	t.Parallel()
	proxy := newRecordingProxy(t)
	p := payments.NewStripe("sk_test_123", proxy.srv.URL)
	req := checkoutRequest()
	req.PromptID, req.Kind = "a-0123456789ab", domain.KindAgent
	split, _ := payments.SplitSale(req.AmountCents, 20)
	req.Destination, req.ApplicationFeeCents = "acct_creator_1", split.FeeCents
	if _, err := p.CreateCheckout(t.Context(), req); err != nil {
		t.Fatalf("create checkout: %v", err)
	}
	form := proxy.last(t).form
	for k, v := range map[string]string{
		"metadata[kind]": "agent", "payment_intent_data[metadata][kind]": "agent",
		"metadata[prompt_id]": req.PromptID, "payment_intent_data[application_fee_amount]": "260",
	} {
		if got := form.Get(k); got != v {
			t.Errorf("param %s = %q, want %q", k, got, v)
		}
	}
	if _, err := p.CreateCheckout(t.Context(), checkoutRequest()); err != nil {
		t.Fatalf("create checkout: %v", err)
	}
	if form := proxy.last(t).form; form.Has("metadata[kind]") || form.Has("payment_intent_data[metadata][kind]") {
		t.Errorf("a prompt's checkout sent a kind: %v", form)
	}
}

// A paid session for an agent fulfilled before our own order was stored
// (the webhook came first): the order is made from the session as the
// agent's, the ownership is the agent's (not among the prompts) and counted
// on the agent, the activity says an agent. A session whose kind did not
// come back is still the agent's (no prompt has its id). Run again, nothing
// more.
func TestFulfilAnAgentsSession(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	ctx := context.Background()
	a := domain.Agent{ID: "a-00000000f00d", Name: "Tax helper", Instructions: "secret", Provider: "openai", Model: "gpt-4o-mini",
		CategoryID: "business", Price: 7, CreatorID: "maker", State: domain.PromptPublished, Version: 1, Published: 1, CreatedAt: time.Now()}
	storetest.Must(t, st.PutAgent(ctx, a), "agent")
	f := payments.NewFulfiller(st, payments.NewLocal(st))
	for _, c := range []struct{ uid, kind string }{{"u-kind", domain.KindAgent}, {"u-nokind", ""}} {
		sess := payments.Session{ID: "cs_" + c.uid, Status: "complete", PaymentStatus: "paid", UserID: c.uid, PromptID: a.ID,
			Kind: c.kind, AmountCents: 700, Currency: "usd", PaymentIntent: "pi_" + c.uid}
		for range 2 {
			order, err := f.Fulfil(ctx, "local", sess)
			if err != nil {
				t.Fatalf("%s: fulfil: %v", c.uid, err)
			}
			if order.Kind != domain.KindAgent || order.PromptID != a.ID || order.PromptTitle != a.Name || order.Status != domain.OrderPaid {
				t.Errorf("%s: order %+v; want the agent's, paid", c.uid, order)
			}
		}
		own, err := st.OwnershipOf(ctx, c.uid, a.ID)
		if err != nil || own.Kind != domain.KindAgent || own.OrderID != sess.ID {
			t.Errorf("%s: ownership %+v, %v; want the agent's from %s", c.uid, own, err, sess.ID)
		}
		if ids := owned(t, st, c.uid); len(ids) != 0 {
			t.Errorf("%s: owned prompts %v; want none", c.uid, ids)
		}
		if ids, err := st.OwnedAgentIDs(ctx, c.uid); err != nil || !slices.Equal(ids, []string{a.ID}) {
			t.Errorf("%s: owned agents %v, %v; want [%s]", c.uid, ids, err, a.ID)
		}
		if acts := activitiesOf(t, st, c.uid, domain.ActivityPurchase); len(acts) != 1 || acts[0].Title != "Purchased an agent" {
			t.Errorf("%s: purchase activities %+v; want one \"Purchased an agent\"", c.uid, acts)
		}
	}
	if n, err := st.AgentPurchases(ctx, a.ID); err != nil || n != 2 {
		t.Errorf("agent purchases = %d, %v; want 2", n, err)
	}
	// Refunded at the provider (charge.refunded): the agent is taken back
	// and its count with it; the buyer is told they can no longer chat.
	order, err := st.GetOrder(ctx, "cs_u-kind")
	storetest.Must(t, err, "order")
	storetest.Must(t, f.Refund(ctx, order.PaymentIntent), "refund")
	if ok, err := st.Owns(ctx, "u-kind", a.ID); err != nil || ok {
		t.Errorf("after the refund Owns = %v, %v; want false", ok, err)
	}
	if n, err := st.AgentPurchases(ctx, a.ID); err != nil || n != 1 {
		t.Errorf("agent purchases after a refund = %d, %v; want 1", n, err)
	}
	if acts := activitiesOf(t, st, "u-kind", domain.ActivityOther); len(acts) != 1 ||
		acts[0].Description != `Your purchase of "Tax helper" was refunded; you can no longer chat with the agent.` {
		t.Errorf("refund activities %+v", acts)
	}
}

// The creator's ledger keeps an agent's counters apart from the prompts'
// (both in the totals), each sale and refund counted once.
func TestLedgerCountsAgentsApart(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	ctx := context.Background()
	split := store.OrderSplit{CreatorID: "maker", FeeCents: 200, NetCents: 799}
	for _, c := range []struct{ sid, kind, id string }{
		{"cs_p", domain.KindPrompt, "cp"}, {"cs_a", domain.KindAgent, "a-0000000000aa"}, {"cs_a", domain.KindAgent, "a-0000000000aa"},
	} {
		_, err := st.CountCreatorSale(ctx, c.sid, c.kind, c.id, split, 999)
		storetest.Must(t, err, "sale")
	}
	_, err := st.CountCreatorRefund(ctx, "cs_a", domain.KindAgent, "a-0000000000aa", split, 999)
	storetest.Must(t, err, "refund")
	total, prompts, err := st.CreatorLedgerOf(ctx, "maker")
	storetest.Must(t, err, "ledger")
	if want := (store.CreatorLedger{Sales: 2, GrossCents: 1998, FeeCents: 200, NetCents: 799, RefundCents: 999, Refunded: 1}); total != want {
		t.Errorf("totals %+v; want %+v", total, want)
	}
	if len(prompts) != 1 || prompts[0].PromptID != "cp" || prompts[0].AgentID != "" {
		t.Errorf("prompt counters %+v; want cp's alone", prompts)
	}
	agents, err := st.CreatorAgentLedger(ctx, "maker")
	storetest.Must(t, err, "agent ledger")
	if want := []store.CreatorLedger{{AgentID: "a-0000000000aa", Sales: 1, GrossCents: 999, RefundCents: 999, Refunded: 1}}; !slices.Equal(agents, want) {
		t.Errorf("agent counters %+v; want %+v", agents, want)
	}
}
