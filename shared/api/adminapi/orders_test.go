package adminapi_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"aiwork/shared/api/apitest"
	"aiwork/shared/domain"
	"aiwork/shared/payments"
	"aiwork/shared/store/storetest"
)

// readsContent reports whether token's GET of the prompt shows its content.
func (s *stack) readsContent(token, pid string) bool {
	s.T.Helper()
	w := s.Do("GET", "/api/v1/prompts/"+pid, token, "")
	if w.Code == http.StatusNotFound {
		return false
	}
	p := decode[map[string]any](s.T, w, http.StatusOK)
	_, ok := p["content"]
	return ok
}

// An admin refunds a paid order: one refund at the provider, keyed by the
// order's id; the order refunded with the reason; the buyer's ownership
// gone (the prompt's content no longer theirs); the order's page shows the
// provider's events; one audit line, paid → refunded. Clicked again, the
// refunded order is answered and nothing more happens.
func TestAdminRefundsAnOrder(t *testing.T) {
	t.Parallel()
	s, _ := newMailStack(t, seeded)
	adminID, boss := s.admin("boss")
	buyerID, buyer := s.User("buyer")
	sid := s.buy(buyer, "seeded")
	if !s.readsContent(buyer, "seeded") {
		t.Fatal("the buyer does not read what they bought")
	}

	detail := decode[orderJSON](t, s.Do("GET", admin+"orders/"+sid, boss, ""), http.StatusOK)
	if detail.Status != "paid" || detail.UserID != buyerID || !strings.HasSuffix(detail.UserEmail, "@example.com") || detail.Amount != 9.99 ||
		detail.PromptTitle != "Seeded prompt" || detail.PaidAt == "" || detail.PaymentIntent == "" || detail.RefundedAt != "" {
		t.Fatalf("paid order %+v", detail)
	}
	if len(detail.Events) != 1 || detail.Events[0].Type != "checkout.session.completed" || detail.Events[0].ReceivedAt == "" {
		t.Fatalf("events %+v, want the payment's checkout.session.completed", detail.Events)
	}

	first := decode[orderJSON](t, s.Do("POST", admin+"orders/"+sid+"/refund", boss, `{"reason":"  Bought  by mistake "}`), http.StatusOK)
	if first.Status != "refunded" || first.RefundReason != "Bought by mistake" || first.RefundedAt == "" || first.ID != sid {
		t.Fatalf("refunded %+v", first)
	}
	again := decode[orderJSON](t, s.Do("POST", admin+"orders/"+sid+"/refund", boss, ""), http.StatusOK)
	if again.Status != "refunded" || again.RefundedAt != first.RefundedAt || again.RefundReason != first.RefundReason {
		t.Errorf("a second click answered %+v, want the refunded order as it was", again)
	}

	refunds, err := s.St.LocalRefunds(context.Background(), sid)
	if err != nil || len(refunds) != 1 || refunds[0].IdemKey != sid || refunds[0].AmountCents != 999 || refunds[0].Reason != payments.RefundRequested {
		t.Fatalf("provider refunds %+v, %v; want one of 999 cents keyed by the order's id", refunds, err)
	}
	if s.readsContent(buyer, "seeded") {
		t.Error("the buyer still reads the refunded prompt")
	}
	if owned := decode[struct {
		IDs []string `json:"owned_prompt_ids"`
	}](t, s.Do("GET", "/api/v1/payments/owned-prompts", buyer, ""), http.StatusOK); len(owned.IDs) != 0 {
		t.Errorf("owned after the refund: %v", owned.IDs)
	}
	lines := s.auditOf(boss, sid)
	if len(lines) != 1 || lines[0].Action != "order.refund" || lines[0].TargetType != "order" || lines[0].ActorID != adminID {
		t.Fatalf("audit %+v, want one order.refund by the admin", lines)
	}
	if field(t, lines[0].Before, "status") != "paid" || field(t, lines[0].After, "status") != "refunded" ||
		field(t, lines[0].After, "refund_reason") != "Bought by mistake" {
		t.Errorf("audit before %s after %s", lines[0].Before, lines[0].After)
	}
	list := decode[pageJSON[orderJSON]](t, s.Do("GET", admin+"orders?state=refunded", boss, ""), http.StatusOK)
	if list.Total != 1 || list.Items[0].ID != sid {
		t.Errorf("refunded orders %+v", list)
	}
}

// Refunds clicked at once (two admins, or a double click): one refund at
// the provider, one audit line, and every answer the refunded order.
func TestConcurrentRefundsRefundOnce(t *testing.T) {
	t.Parallel()
	s, _ := newMailStack(t, seeded)
	_, ann := s.admin("ann")
	_, bob := s.admin("bob")
	_, buyer := s.User("buyer")
	sid := s.buy(buyer, "seeded")

	answers := make([]orderJSON, 6)
	codes := make([]int, 6)
	var wg sync.WaitGroup
	for i := range answers {
		token := []string{ann, bob}[i%2]
		wg.Go(func() {
			w := s.Do("POST", admin+"orders/"+sid+"/refund", token, `{}`)
			codes[i] = w.Code
			if w.Code == http.StatusOK {
				answers[i] = apitest.Decode[orderJSON](t, w, http.StatusOK)
			}
		})
	}
	wg.Wait()
	for i, c := range codes {
		if c != http.StatusOK || answers[i].Status != "refunded" {
			t.Errorf("refund %d answered %d %+v, want 200 and the refunded order", i, c, answers[i])
		}
	}
	if refunds, err := s.St.LocalRefunds(context.Background(), sid); err != nil || len(refunds) != 1 {
		t.Errorf("provider refunds %+v, %v; want one", refunds, err)
	}
	if lines := s.auditOf(ann, sid); len(lines) != 1 {
		t.Errorf("%d audit lines %v, want 1", len(lines), actions(lines))
	}
}

// What cannot be refunded: an order not paid (409 with the order, nothing
// at the provider, no audit line), an unknown one (404); and bad bodies.
func TestRefundRefusals(t *testing.T) {
	t.Parallel()
	s, _ := newMailStack(t, seeded)
	_, boss := s.admin("boss")
	_, buyer := s.User("buyer")
	pending := decode[struct {
		SessionID string `json:"session_id"`
	}](t, s.Do("POST", "/api/v1/payments/create-checkout-session", buyer, `{"prompt_id":"seeded"}`), http.StatusOK).SessionID

	c := decode[conflictJSON[orderJSON]](t, s.Do("POST", admin+"orders/"+pending+"/refund", boss, ""), http.StatusConflict)
	if c.Code != "conflict" || !strings.Contains(c.Detail, "Only a paid order can be refunded") || c.Current.Status != "pending" || c.Current.ID != pending {
		t.Errorf("unpaid order's refund: %+v", c)
	}
	if refunds, _ := s.St.LocalRefunds(context.Background(), pending); len(refunds) != 0 {
		t.Errorf("refunds at the provider for an unpaid order: %+v", refunds)
	}
	if lines := s.auditOf(boss, pending); len(lines) != 0 {
		t.Errorf("audit lines for a refused refund: %v", actions(lines))
	}
	apitest.WantError(t, s.Do("POST", admin+"orders/cs_nope/refund", boss, ""), http.StatusNotFound, "Order not found.")
	apitest.WantError(t, s.Do("GET", admin+"orders/cs_nope", boss, ""), http.StatusNotFound, "Order not found.")
	apitest.WantError(t, s.Do("GET", admin+"orders/"+strings.Repeat("x", 3000), boss, ""), http.StatusNotFound, "Order not found.")
	for _, tc := range []struct{ body, detail string }{
		{`{"reason":`, "Malformed JSON"},
		{`{"reason":5}`, "'reason' must be a string"},
		{`[1]`, "must be a JSON object"},
		{`{"reason":"` + strings.Repeat("r", 501) + `"}`, "at most 500"},
		{`{"reason":"a\u0000b"}`, "control characters"},
	} {
		apitest.WantErrorContaining(t, s.Do("POST", admin+"orders/"+pending+"/refund", boss, tc.body), http.StatusBadRequest, tc.detail)
	}
}

// The listing: newest first with the buyer's email; each filter (state,
// buyer by id or email, prompt, dates: both days included); pages that
// cover every order once; refused parameters.
func TestAdminOrderListing(t *testing.T) {
	t.Parallel()
	s, _ := newMailStack(t, seeded)
	_, boss := s.admin("boss")
	annID, _ := s.User("ann")
	bobID, _ := s.User("bob")
	ctx := context.Background()
	day := func(d, h int) string { return time.Date(2026, 2, d, h, 0, 0, 0, time.UTC).Format(time.RFC3339Nano) }
	for _, o := range []domain.Order{
		{SessionID: "o1", UserID: annID, PromptID: "seeded", Status: domain.OrderPaid, CreatedAt: day(1, 0)},
		{SessionID: "o2", UserID: bobID, PromptID: "seeded", Status: domain.OrderPending, CreatedAt: day(2, 10)},
		{SessionID: "o3", UserID: annID, PromptID: "other", Status: domain.OrderExpired, CreatedAt: day(2, 23)},
		{SessionID: "o4", UserID: bobID, PromptID: "other", Status: domain.OrderFailed, CreatedAt: day(3, 0)},
		{SessionID: "o5", UserID: annID, PromptID: "seeded", Status: domain.OrderPaid, CreatedAt: day(4, 12)},
	} {
		o.PromptTitle, o.Amount, o.Provider = "T", 1, "local"
		storetest.Must(t, s.St.PutOrder(ctx, o), "order")
	}
	ids := func(query string) (string, int) {
		t.Helper()
		l := decode[pageJSON[orderJSON]](t, s.Do("GET", admin+"orders?limit=100"+query, boss, ""), http.StatusOK)
		out := []string{}
		for _, o := range l.Items {
			out = append(out, o.ID)
		}
		return strings.Join(out, " "), l.Total
	}
	annEmail := decode[userJSON](t, s.Do("GET", admin+"users/"+annID, boss, ""), http.StatusOK).Email
	for query, want := range map[string]string{
		"":                                   "o5 o4 o3 o2 o1",
		"&state=paid":                        "o5 o1",
		"&state=failed":                      "o4",
		"&user=" + annID:                     "o5 o3 o1",
		"&user=" + strings.ToUpper(annEmail): "o5 o3 o1",
		"&user=nobody@example.com":           "",
		"&prompt=other":                      "o4 o3",
		"&from=2026-02-02&to=2026-02-02":     "o3 o2",
		"&from=2026-02-03":                   "o5 o4",
		"&to=2026-02-01":                     "o1",
		"&user=" + bobID + "&from=2026-02-03&to=2026-02-03": "o4",
		"&state=paid&prompt=seeded&user=" + annID:           "o5 o1",
	} {
		if got, total := ids(query); got != want || total != len(strings.Fields(want)) {
			t.Errorf("orders%s = [%s] (total %d), want [%s]", query, got, total, want)
		}
	}
	list := decode[pageJSON[orderJSON]](t, s.Do("GET", admin+"orders?user="+annID, boss, ""), http.StatusOK)
	if o := list.Items[0]; o.UserEmail != annEmail || o.CreatedAt != "2026-02-04T12:00:00Z" || o.PaidAt != "" {
		t.Errorf("listed order %+v", o)
	}

	var seen []string
	cursor := ""
	for range 4 {
		l := decode[pageJSON[orderJSON]](t, s.Do("GET", admin+"orders?limit=2&cursor="+cursor, boss, ""), http.StatusOK)
		for _, o := range l.Items {
			seen = append(seen, o.ID)
		}
		if l.Total != 5 {
			t.Fatalf("total %d", l.Total)
		}
		if cursor = l.NextCursor; cursor == "" {
			break
		}
	}
	if strings.Join(seen, " ") != "o5 o4 o3 o2 o1" {
		t.Errorf("pages of 2 saw %v", seen)
	}

	for query, detail := range map[string]string{
		"state=done":                    "state must be",
		"from=02/01/2026":               "from must be a date",
		"to=2026-13-01":                 "to must be a date",
		"from=2026-02-03&to=2026-02-02": "from must not be after to",
		"limit=0":                       "limit must be",
		"cursor=%25%25":                 "cursor",
		"cursor=eyJhIjoiYiJ9":           "cursor is not one this API gave",
	} {
		apitest.WantErrorContaining(t, s.Do("GET", admin+"orders?"+query, boss, ""), http.StatusBadRequest, detail)
	}
}
