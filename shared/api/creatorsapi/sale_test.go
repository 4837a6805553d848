package creatorsapi_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/store/storetest"
)

type checkoutJSON struct {
	SessionID string `json:"session_id"`
}

type orderJSON struct {
	Amount  float64 `json:"amount"`
	Status  string  `json:"status"`
	Creator *struct {
		Username    string `json:"username"`
		DisplayName string `json:"display_name"`
	} `json:"creator"`
	Fee *float64 `json:"fee"`
	Net *float64 `json:"net"`
}

// checkout opens a checkout of pid as token on the local test checkout.
func (s *stack) checkout(token, pid string) string {
	s.T.Helper()
	return decode[checkoutJSON](s.T, s.Do("POST", "/api/v1/payments/create-checkout-session", token, `{"prompt_id":"`+pid+`"}`), http.StatusOK).SessionID
}

// pay pays the open checkout sid on the local test checkout page.
func (s *stack) pay(sid string) {
	s.T.Helper()
	if w := s.Do("POST", "/dev/checkout/"+sid+"/pay", "", ""); w.Code != http.StatusSeeOther {
		s.T.Fatalf("pay %s: %d %s", sid, w.Code, w.Body)
	}
}

// A sale of a creator's prompt shows in the admin area as the creator's,
// with its fee and net; the creators list counts it. A checkout opened
// before a new price was approved is paid at the price it was opened with,
// and split on that price; a new checkout pays the new one.
func TestSaleSplitInAdminAndOpenCheckoutKeepsItsPrice(t *testing.T) {
	t.Setenv("STRIPE_SECRET_KEY", "") // the local stand-in onboards
	s := newStackFree(t, 0)
	_, token := s.creator("rae", false)
	decode[urlJSON](t, s.Do("POST", me+"/onboarding", token, ""), http.StatusOK)
	boss := s.Admin("boss")
	rae := decode[profileJSON](t, s.Do("GET", me, token, ""), http.StatusOK).Username
	p := s.published(token, boss, "Pricing plan", 9.99)
	_, buyer := s.User("first-buyer")
	_, late := s.User("late-buyer")

	open := s.checkout(buyer, p.ID)
	cur := decode[promptJSON](s.T, s.Do("GET", mine+"/"+p.ID, token, ""), http.StatusOK)
	decode[promptJSON](t, s.Do("PATCH", mine+"/"+p.ID, token, mustJSON(map[string]any{"version": cur.Version, "price": 14.99, "change_note": "Dearer"})), http.StatusOK)
	decode[promptJSON](t, s.Do("POST", mine+"/"+p.ID+"/submit", token, ""), http.StatusOK)
	decode[map[string]any](t, s.Do("POST", adminAPI+"reviews/"+p.ID, boss, `{"decision":"approve"}`), http.StatusOK)
	s.pay(open)

	o := decode[orderJSON](t, s.Do("GET", adminAPI+"orders/"+open, boss, ""), http.StatusOK)
	if o.Amount != 9.99 || o.Status != "paid" {
		t.Errorf("the open checkout: %+v; want paid at $9.99, its price when opened", o)
	}
	if o.Creator == nil || o.Creator.Username != rae || o.Creator.DisplayName != "rae Studio" || o.Fee == nil || *o.Fee != 2.00 || o.Net == nil || *o.Net != 7.99 {
		t.Errorf("the split in the admin order: %s; want rae's, $2.00 fee, $7.99 net", mustJSON(o))
	}

	later := s.checkout(late, p.ID)
	s.pay(later)
	o2 := decode[orderJSON](t, s.Do("GET", adminAPI+"orders/"+later, boss, ""), http.StatusOK)
	if o2.Amount != 14.99 || o2.Fee == nil || *o2.Fee != 3.00 || o2.Net == nil || *o2.Net != 11.99 {
		t.Errorf("a checkout after the new price: %s; want $14.99 split $3.00 / $11.99", mustJSON(o2))
	}

	list := decode[struct {
		Items []struct {
			Username string  `json:"username"`
			Sales    int64   `json:"sales"`
			Net      float64 `json:"net"`
		} `json:"items"`
	}](t, s.Do("GET", adminAPI+"creators", boss, ""), http.StatusOK)
	if len(list.Items) != 1 || list.Items[0].Username != rae || list.Items[0].Sales != 2 || list.Items[0].Net != 19.98 {
		t.Errorf("admin creators: %+v; want rae with 2 sales, $19.98 net", list.Items)
	}
}

// The platform's own sales carry no creator and no split.
func TestPlatformSaleHasNoSplit(t *testing.T) {
	t.Parallel()
	s := newStackFree(t, 0)
	boss := s.Admin("boss")
	_, buyer := s.User("buyer")
	own := domain.Prompt{ID: "platform-own", Title: "The platform's own", Description: "Stock", Content: "Write about [topic].", Price: 5,
		CategoryID: "business", CreatedAt: time.Now()}
	storetest.Must(t, s.St.PutPrompt(context.Background(), own), "put prompt")
	sid := s.checkout(buyer, own.ID)
	s.pay(sid)
	w := s.Do("GET", adminAPI+"orders/"+sid, boss, "")
	o := decode[orderJSON](t, w, http.StatusOK)
	if o.Creator != nil || o.Fee != nil || o.Net != nil {
		t.Errorf("a platform sale: %s; want creator null and no fee or net", w.Body)
	}
}
