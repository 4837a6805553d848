package creatorsapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/payments"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

type dashboardJSON struct {
	Sales   int64   `json:"sales"`
	Gross   float64 `json:"gross"`
	Fees    float64 `json:"fees"`
	Net     float64 `json:"net"`
	Refunds float64 `json:"refunds"`
	Prompts []struct {
		ID        string  `json:"id"`
		Title     string  `json:"title"`
		Sales     int64   `json:"sales"`
		Net       float64 `json:"net"`
		FreeUses  int64   `json:"free_uses"`
		RatingAvg float64 `json:"rating_avg"`
	} `json:"prompts"`
	Balance *struct {
		Currency string `json:"currency"`
	} `json:"balance"`
}

// The dashboard shows the creator's sales, fees, net and refunds in USD
// after three sales and one refund, per prompt too, and never a buyer.
func TestDashboardAfterSalesAndARefund(t *testing.T) {
	t.Setenv("STRIPE_SECRET_KEY", "")
	s := newStack(t)
	uid, token := s.creator("dana", false)
	decode[urlJSON](t, s.Do("POST", me+"/onboarding", token, ""), http.StatusOK)
	p := s.published(token, s.Admin("boss"), "Launch plan", 9.99)
	buyer, _ := s.User("buyer-secret-name")
	ctx := context.Background()
	split, _ := payments.SplitSale(999, 20)
	os := store.OrderSplit{CreatorID: uid, FeeCents: split.FeeCents, NetCents: split.NetCents}
	for _, sid := range []string{"cs_d1", "cs_d2", "cs_d3"} {
		storetest.Must(t, s.St.PutOrder(ctx, domain.Order{SessionID: sid, UserID: buyer, PromptID: p.ID, Amount: 9.99, Status: domain.OrderPaid,
			CreatedAt: time.Now().UTC().Format(time.RFC3339Nano)}), "order")
		_, err := s.St.CountCreatorSale(ctx, sid, domain.KindPrompt, p.ID, os, 999)
		storetest.Must(t, err, "sale")
	}
	_, err := s.St.CountCreatorRefund(ctx, "cs_d2", domain.KindPrompt, p.ID, os, 999)
	storetest.Must(t, err, "refund")

	_, freeToken := s.User("freeloader")
	for range 2 { // the second is the same free use
		if w := s.Do("POST", "/api/v1/prompts/use-free-prompt/"+p.ID, freeToken, ""); w.Code != http.StatusOK {
			t.Fatalf("free use: %d %s", w.Code, w.Body.String())
		}
	}

	w := s.Do("GET", me+"/dashboard", token, "")
	d := decode[dashboardJSON](t, w, http.StatusOK)
	if d.Sales != 3 || d.Gross != 29.97 || d.Fees != 4.00 || d.Net != 15.98 || d.Refunds != 9.99 {
		t.Errorf("totals = %+v; want 3 sales, $29.97 gross, $4.00 fees, $15.98 net, $9.99 refunded", d)
	}
	if len(d.Prompts) != 1 || d.Prompts[0].ID != p.ID || d.Prompts[0].Title != "Launch plan" || d.Prompts[0].Sales != 3 || d.Prompts[0].Net != 15.98 || d.Prompts[0].FreeUses != 1 {
		t.Errorf("prompts = %+v", d.Prompts)
	}
	if d.Balance == nil || d.Balance.Currency != "usd" {
		t.Errorf("balance = %+v; want the local stand-in's (usd)", d.Balance)
	}
	if body := w.Body.String(); strings.Contains(body, buyer) || strings.Contains(body, "buyer-secret-name") {
		t.Errorf("the dashboard names a buyer: %s", body)
	}
	// A user who is no creator has no dashboard.
	_, plain := s.User("plain")
	if w := s.Do("GET", me+"/dashboard", plain, ""); w.Code != http.StatusNotFound {
		t.Errorf("a non-creator's dashboard: %d", w.Code)
	}
}
