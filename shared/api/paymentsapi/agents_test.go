package paymentsapi_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"aiwork/shared/api/apitest"
	"aiwork/shared/domain"
	"aiwork/shared/payments"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// Paid agents are sold through the prompts' checkout: the same local
// checkout page, fee split, fulfilment, ledger and refunds, with "agent"
// on the order and the ownership.

// putAgent stores a published agent of creator's at price (its id made
// from name); change adjusts it first.
func (s *stack) putAgent(name, creator string, price float64, change func(*domain.Agent)) domain.Agent {
	s.T.Helper()
	sum := sha256.Sum256([]byte(name))
	a := domain.Agent{ID: "a-" + hex.EncodeToString(sum[:6]), Name: "Agent " + name, Description: "About " + name,
		Instructions: "SECRET-INSTRUCTIONS of " + name, Provider: "openai", Model: "gpt-4o-mini", CategoryID: "business",
		Price: price, CreatorID: creator, CreatorUsername: "maker", State: domain.PromptPublished, Version: 1, Published: 1,
		CreatedAt: time.Now(), UpdatedAt: time.Now()}
	if change != nil {
		change(&a)
	}
	storetest.Must(s.T, s.St.PutAgent(context.Background(), a), "put agent")
	return a
}

func agentCheckoutPath(id string) string { return "/api/v1/agents/" + id + "/checkout" }

// buyAgent opens the agent's checkout for token and answers it.
func (s *stack) buyAgent(token, id string) checkoutJSON {
	s.T.Helper()
	return decode[checkoutJSON](s.T, s.Do("POST", agentCheckoutPath(id), token, ""), http.StatusOK)
}

// pay pays a local checkout session on its page (its event reaches the
// webhook, which fulfils it).
func (s *stack) pay(co checkoutJSON) {
	s.T.Helper()
	if w := s.Do("POST", co.CheckoutURL+"/pay", "", ""); w.Code != http.StatusSeeOther {
		s.T.Fatalf("pay %s: %d %s", co.SessionID, w.Code, w.Body.String())
	}
}

// agentSales is what the ledger, the agent and the buyer's activities say
// of an agent's sales: compared whole before and after a re-run.
type agentSales struct {
	total      store.CreatorLedger
	agents     []store.CreatorLedger
	purchases  int
	activities int
}

func (s *stack) agentSales(creator, aid, buyerToken string) agentSales {
	s.T.Helper()
	ctx := context.Background()
	total, err := s.St.CreatorTotal(ctx, creator)
	storetest.Must(s.T, err, "ledger")
	agents, err := s.St.CreatorAgentLedger(ctx, creator)
	storetest.Must(s.T, err, "agent ledger")
	n, err := s.St.AgentPurchases(ctx, aid)
	storetest.Must(s.T, err, "purchases")
	return agentSales{total: total, agents: agents, purchases: n,
		activities: len(s.activities(buyerToken, domain.ActivityPurchase)) + len(s.activities(buyerToken, domain.ActivityOther))}
}

func (a agentSales) equal(b agentSales) bool {
	return a.total == b.total && slices.Equal(a.agents, b.agents) && a.purchases == b.purchases && a.activities == b.activities
}

// recordingProvider is the local checkout, noting the refunds asked of it.
type recordingProvider struct {
	payments.Provider
	mu      sync.Mutex
	refunds []payments.RefundRequest
}

func (p *recordingProvider) Refund(ctx context.Context, req payments.RefundRequest) (string, error) {
	p.mu.Lock()
	p.refunds = append(p.refunds, req)
	p.mu.Unlock()
	return p.Provider.Refund(ctx, req)
}

// A buyer buys a creator's paid agent on the local checkout: the order
// and the ownership say "agent", the split is exact, the agent is the
// buyer's (Owns, owned on its page) but not among their prompts, the
// creator's ledger and dashboard count it. The success page's second
// fulfilment changes nothing. A refund takes the agent back, reverses the
// split at the provider and in the ledger; its second delivery changes
// nothing.
func TestBuyAPaidAgentOnTheLocalCheckout(t *testing.T) {
	t.Parallel()
	s := newFeeStack(t, 20)
	creator := s.sellerOf("maker", true)
	creatorToken := apitest.Session(t, s.St, s.Tokens, creator)
	a := s.putAgent("paid", creator, 9.99, nil)
	buyer, token := s.User("buyer")
	ctx := context.Background()

	co := s.buyAgent(token, a.ID)
	if again := s.buyAgent(token, a.ID); again != co {
		t.Errorf("a second click opened %+v; want the open checkout %+v", again, co)
	}
	order, err := s.St.GetOrder(ctx, co.SessionID)
	storetest.Must(t, err, "order")
	if order.Kind != domain.KindAgent || order.PromptID != a.ID || order.PromptTitle != a.Name || order.Amount != 9.99 || order.Status != domain.OrderPending {
		t.Errorf("order %+v; want a pending agent order of %s for 9.99", order, a.ID)
	}
	split, err := s.St.GetOrderSplit(ctx, co.SessionID)
	storetest.Must(t, err, "split")
	if split != (store.OrderSplit{CreatorID: creator, FeeCents: 200, NetCents: 799}) {
		t.Errorf("split %+v; want 200 fee and 799 net to %s", split, creator)
	}
	sess, err := payments.NewLocal(s.St).GetSession(ctx, co.SessionID)
	storetest.Must(t, err, "session")
	if sess.Kind != domain.KindAgent || sess.PromptID != a.ID {
		t.Errorf("session %+v; want the agent and its kind in its metadata", sess)
	}

	s.pay(co)
	own, err := s.St.OwnershipOf(ctx, buyer, a.ID)
	storetest.Must(t, err, "ownership")
	if own.Kind != domain.KindAgent || own.OrderID != co.SessionID || own.Source != domain.SourcePurchase {
		t.Errorf("ownership %+v; want the agent's, from %s", own, co.SessionID)
	}
	if ok, err := s.St.Owns(ctx, buyer, a.ID); err != nil || !ok {
		t.Errorf("Owns = %v, %v; want true", ok, err)
	}
	if ids := s.owned(token); slices.Contains(ids, a.ID) {
		t.Errorf("owned_prompt_ids %v lists the agent", ids)
	}
	if ids, err := s.St.OwnedAgentIDs(ctx, buyer); err != nil || !slices.Equal(ids, []string{a.ID}) {
		t.Errorf("OwnedAgentIDs = %v, %v; want [%s]", ids, err, a.ID)
	}
	page := decode[struct {
		Owned        bool    `json:"owned"`
		Instructions *string `json:"instructions"`
	}](t, s.Do("GET", "/api/v1/agents/"+a.ID, token, ""), http.StatusOK)
	if !page.Owned || page.Instructions != nil {
		t.Errorf("the buyer's agent page: owned %v, instructions %v; want owned and no instructions", page.Owned, page.Instructions)
	}
	wantError(t, s.Do("POST", agentCheckoutPath(a.ID), token, ""), http.StatusConflict, "You already own this agent.")
	bought := s.activities(token, domain.ActivityPurchase)
	if len(bought) != 1 || bought[0].Title != "Purchased an agent" || bought[0].PromptTitle != a.Name {
		t.Errorf("purchase activities %+v; want one \"Purchased an agent\" of %q", bought, a.Name)
	}

	sold := s.agentSales(creator, a.ID, token)
	if want := (store.CreatorLedger{Sales: 1, GrossCents: 999, FeeCents: 200, NetCents: 799}); sold.total != want {
		t.Errorf("creator's totals %+v; want %+v", sold.total, want)
	}
	if want := []store.CreatorLedger{{AgentID: a.ID, Sales: 1, GrossCents: 999, FeeCents: 200, NetCents: 799}}; !slices.Equal(sold.agents, want) {
		t.Errorf("agent counters %+v; want %+v", sold.agents, want)
	}
	if sold.purchases != 1 {
		t.Errorf("agent purchases = %d; want 1", sold.purchases)
	}
	dash := decode[struct {
		Sales  int64 `json:"sales"`
		Agents []struct {
			ID    string  `json:"id"`
			Name  string  `json:"name"`
			Sales int64   `json:"sales"`
			Net   float64 `json:"net"`
		} `json:"agents"`
	}](t, s.Do("GET", "/api/v1/creators/me/dashboard", creatorToken, ""), http.StatusOK)
	if dash.Sales != 1 || len(dash.Agents) != 1 || dash.Agents[0].ID != a.ID || dash.Agents[0].Name != a.Name ||
		dash.Agents[0].Sales != 1 || dash.Agents[0].Net != 7.99 {
		t.Errorf("creator dashboard %+v; want the agent with 1 sale and 7.99 net", dash)
	}

	// The success page fulfils again (the webhook came first): the same
	// answer, nothing counted twice.
	verified := decode[struct {
		verifyJSON
		Kind    string `json:"kind"`
		AgentID string `json:"agent_id"`
	}](t, s.Do("GET", verifyPath+co.SessionID, token, ""), http.StatusOK)
	if verified.Status != "paid" || verified.Kind != domain.KindAgent || verified.AgentID != a.ID || verified.PromptTitle != a.Name {
		t.Errorf("verify-session %+v; want paid, kind agent, the agent's id and name", verified)
	}
	if again := s.agentSales(creator, a.ID, token); !again.equal(sold) {
		t.Errorf("after a second fulfilment %+v; want %+v", again, sold)
	}

	// An admin's refund: the provider is asked to reverse the transfer and
	// the fee, the agent is taken back, the ledger gives the sale back.
	order, err = s.St.GetOrder(ctx, co.SessionID)
	storetest.Must(t, err, "order")
	provider := &recordingProvider{Provider: payments.NewLocal(s.St)}
	f := payments.NewFulfiller(s.St, provider)
	storetest.Must(t, f.RefundAtProvider(ctx, order), "refund at the provider")
	if len(provider.refunds) != 1 || !provider.refunds[0].Split || provider.refunds[0].AmountCents != 999 {
		t.Errorf("refunds asked %+v; want one of 999 ¢ reversing the split", provider.refunds)
	}
	if _, err := f.RefundOrder(ctx, co.SessionID, "asked"); err != nil {
		t.Fatalf("record the refund: %v", err)
	}
	if ok, err := s.St.Owns(ctx, buyer, a.ID); err != nil || ok {
		t.Errorf("after the refund Owns = %v, %v; want false", ok, err)
	}
	refunded := s.agentSales(creator, a.ID, token)
	if want := (store.CreatorLedger{Sales: 1, GrossCents: 999, RefundCents: 999, Refunded: 1}); refunded.total != want {
		t.Errorf("creator's totals after the refund %+v; want %+v", refunded.total, want)
	}
	if refunded.purchases != 0 {
		t.Errorf("agent purchases after the refund = %d; want 0", refunded.purchases)
	}
	back := s.activities(token, domain.ActivityOther)
	if len(back) != 1 || back[0].Title != "Purchase refunded" {
		t.Errorf("refund activities %+v; want one", back)
	}
	// Stripe's charge.refunded, delivered twice: nothing more.
	for range 2 {
		storetest.Must(t, f.Refund(ctx, order.PaymentIntent), "refund event")
	}
	if again := s.agentSales(creator, a.ID, token); !again.equal(refunded) {
		t.Errorf("after the refund's events %+v; want %+v", again, refunded)
	}
	// Bought again after the refund: the buyer may.
	s.buyAgent(token, a.ID)
}

// Each refusal of an agent's checkout, and no order made by any.
func TestAgentCheckoutRefusals(t *testing.T) {
	t.Parallel()
	s := newFeeStack(t, 20)
	creator := s.sellerOf("maker", true)
	creatorToken := apitest.Session(t, s.St, s.Tokens, creator)
	waiting := s.sellerOf("waiting", false)
	paid := s.putAgent("paid", creator, 4.99, nil)
	free := s.putAgent("free", creator, 0, nil)
	suspended := s.putAgent("suspended", creator, 4.99, func(a *domain.Agent) { a.Suspended = true })
	withdrawn := s.putAgent("withdrawn", creator, 4.99, func(a *domain.Agent) { a.Withdrawn = true })
	draft := s.putAgent("draft", creator, 4.99, func(a *domain.Agent) { a.State, a.Published = domain.PromptDraft, 0 })
	noPayouts := s.putAgent("nopayouts", waiting, 4.99, nil)
	owner, ownerToken := s.User("owner")
	_, err := s.St.GrantOwnership(context.Background(), owner, domain.Ownership{PromptID: paid.ID, Source: domain.SourcePurchase,
		OrderID: "cs_earlier", Amount: 4.99, CreatedAt: time.Now(), Kind: domain.KindAgent})
	storetest.Must(t, err, "grant")
	_, token := s.User("buyer")
	for _, c := range []struct {
		name, token, id string
		status          int
		detail          string
	}{
		{"visitor", "", paid.ID, http.StatusUnauthorized, ""},
		{"unknown", token, "a-000000000000", http.StatusNotFound, "Agent not found."},
		{"never published", token, draft.ID, http.StatusNotFound, "Agent not found."},
		{"free", token, free.ID, http.StatusBadRequest, "This agent is free: start a chat."},
		{"own", creatorToken, paid.ID, http.StatusForbidden, "You cannot buy your own agent."},
		{"owned", ownerToken, paid.ID, http.StatusConflict, "You already own this agent."},
		{"suspended", token, suspended.ID, http.StatusConflict, "This agent is not for sale right now."},
		{"withdrawn", token, withdrawn.ID, http.StatusConflict, "This agent is not for sale right now."},
		{"creator without payouts", token, noPayouts.ID, http.StatusConflict, "This agent is not for sale right now."},
	} {
		t.Run(c.name, func(t *testing.T) {
			wantError(t, s.Do("POST", agentCheckoutPath(c.id), c.token, ""), c.status, c.detail)
		})
	}
	orders, _, _, err := s.St.AdminOrders(context.Background(), store.OrderQuery{Limit: 10})
	storetest.Must(t, err, "orders")
	if len(orders) != 0 {
		t.Errorf("refused checkouts made orders: %+v", orders)
	}
}

// 10 buyers open checkouts of one agent at once, then pay at once: 10
// orders each split exactly, 10 sales in the ledger and on the agent.
func TestConcurrentAgentCheckoutsSplitEach(t *testing.T) {
	t.Parallel()
	s := newFeeStack(t, 20)
	creator := s.sellerOf("busy", true)
	a := s.putAgent("busy", creator, 9.99, nil)
	const n = 10
	tokens := make([]string, n)
	for i := range tokens {
		_, tokens[i] = s.User("buyer" + string(rune('a'+i)))
	}
	cos := make([]checkoutJSON, n)
	var wg sync.WaitGroup
	for i := range cos {
		wg.Add(1)
		go func() { defer wg.Done(); cos[i] = s.buyAgent(tokens[i], a.ID) }()
	}
	wg.Wait()
	seen := map[string]bool{}
	for _, co := range cos {
		split, err := s.St.GetOrderSplit(context.Background(), co.SessionID)
		storetest.Must(t, err, "split")
		if seen[co.SessionID] || split != (store.OrderSplit{CreatorID: creator, FeeCents: 200, NetCents: 799}) {
			t.Errorf("order %s: %+v (seen %v); want 200 + 799", co.SessionID, split, seen[co.SessionID])
		}
		seen[co.SessionID] = true
	}
	codes := make([]int, n)
	for i := range cos {
		wg.Add(1)
		go func() { defer wg.Done(); codes[i] = s.Do("POST", cos[i].CheckoutURL+"/pay", "", "").Code }()
	}
	wg.Wait()
	for i, c := range codes {
		if c != http.StatusSeeOther {
			t.Fatalf("pay %d: %d", i, c)
		}
	}
	total, err := s.St.CreatorTotal(context.Background(), creator)
	storetest.Must(t, err, "ledger")
	if want := (store.CreatorLedger{Sales: n, GrossCents: n * 999, FeeCents: n * 200, NetCents: n * 799}); total != want {
		t.Errorf("after %d sales: %+v; want %+v", n, total, want)
	}
	if got, err := s.St.AgentPurchases(context.Background(), a.ID); err != nil || got != n {
		t.Errorf("agent purchases = %d, %v; want %d", got, err, n)
	}
}
