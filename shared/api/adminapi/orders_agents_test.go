package adminapi_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// An order of a paid agent, in the admins' orders: "kind": "agent", the
// agent's name for its title, its creator and split; refunded like a
// prompt's order (the refund reverses the split at the provider), the
// buyer no longer owns the agent. A prompt's order says "kind": "prompt".
func TestAdminOrdersOfAnAgent(t *testing.T) {
	t.Parallel()
	s, _ := newMailStack(t, seeded)
	_, boss := s.admin("boss")
	ctx := context.Background()
	creator, _ := s.User("maker")
	_, err := s.St.PutCreator(ctx, domain.Creator{UserID: creator, Username: "maker", DisplayName: "Maker", Country: "US"}, time.Now())
	storetest.Must(t, err, "creator")
	storetest.Must(t, s.St.SetCreatorStripeAccount(ctx, creator, "acct_maker"), "account")
	storetest.Must(t, s.St.SetCreatorPayouts(ctx, creator, "acct_maker",
		store.CreatorPayouts{Status: domain.PayoutsEnabled, ChargesEnabled: true, PayoutsEnabled: true}), "payouts")
	a := domain.Agent{ID: "a-00000000ad01", Name: "Refundable agent", Instructions: "secret", Provider: "openai", Model: "gpt-4o-mini",
		CategoryID: "business", Price: 9.99, CreatorID: creator, State: domain.PromptPublished, Version: 1, Published: 1, CreatedAt: time.Now()}
	storetest.Must(t, s.St.PutAgent(ctx, a), "agent")
	buyerID, buyer := s.User("buyer")
	co := decode[struct {
		SessionID string `json:"session_id"`
	}](t, s.Do("POST", "/api/v1/agents/"+a.ID+"/checkout", buyer, ""), http.StatusOK)
	if w := s.Do("POST", "/dev/checkout/"+co.SessionID+"/pay", "", ""); w.Code != http.StatusSeeOther {
		t.Fatalf("pay: %d %s", w.Code, w.Body)
	}
	prompt := s.buy(buyer, "seeded")

	type kindJSON struct {
		orderJSON
		Kind    string `json:"kind"`
		Creator *struct {
			Username string `json:"username"`
		} `json:"creator"`
		Fee *float64 `json:"fee"`
		Net *float64 `json:"net"`
	}
	detail := decode[kindJSON](t, s.Do("GET", admin+"orders/"+co.SessionID, boss, ""), http.StatusOK)
	if detail.Kind != domain.KindAgent || detail.PromptID != a.ID || detail.PromptTitle != a.Name || detail.Status != "paid" ||
		detail.Creator == nil || detail.Creator.Username != "maker" || detail.Fee == nil || *detail.Fee != 2 || detail.Net == nil || *detail.Net != 7.99 {
		t.Errorf("the agent's order %+v", detail)
	}
	list := decode[pageJSON[kindJSON]](t, s.Do("GET", admin+"orders", boss, ""), http.StatusOK)
	kinds := map[string]string{}
	for _, o := range list.Items {
		kinds[o.ID] = o.Kind
	}
	if kinds[co.SessionID] != domain.KindAgent || kinds[prompt] != domain.KindPrompt {
		t.Errorf("kinds listed %v; want agent for %s, prompt for %s", kinds, co.SessionID, prompt)
	}

	refunded := decode[kindJSON](t, s.Do("POST", admin+"orders/"+co.SessionID+"/refund", boss, ""), http.StatusOK)
	if refunded.Status != "refunded" || refunded.Kind != domain.KindAgent {
		t.Errorf("refunded %+v", refunded)
	}
	if refunds, err := s.St.LocalRefunds(ctx, co.SessionID); err != nil || len(refunds) != 1 || refunds[0].AmountCents != 999 {
		t.Errorf("provider refunds %+v, %v; want one of 999 cents", refunds, err)
	}
	if ok, err := s.St.Owns(ctx, buyerID, a.ID); err != nil || ok {
		t.Errorf("after the refund Owns = %v, %v; want false", ok, err)
	}
	if n, err := s.St.AgentPurchases(ctx, a.ID); err != nil || n != 0 {
		t.Errorf("agent purchases after the refund = %d, %v; want 0", n, err)
	}
}
