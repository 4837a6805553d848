package paymentsapi_test

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"testing"

	"aiwork/shared/domain"
	"aiwork/shared/payments"
	"aiwork/shared/store/storetest"
)

// sessionsOf lists the checkout sessions (orders) the user has for pid.
func (s *stack) sessionsOf(uid, pid string) []domain.Order {
	s.T.Helper()
	orders, err := s.St.PendingOrders(context.Background(), uid, pid)
	storetest.Must(s.T, err, "pending orders")
	return orders
}

// 30 concurrent "Purchase" calls for one prompt (double clicks, several
// tabs) open one checkout session: every answer is the same URL.
func TestConcurrentCheckoutsShareOneSession(t *testing.T) {
	t.Parallel()
	s := newStack(t, 0, fixture("a", 5.99))
	uid, token := s.User("buyer")
	const n = 30
	answers := make([]checkoutJSON, n)
	codes := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			w := s.Do("POST", createPath, token, `{"prompt_id":"a"}`)
			codes[i] = w.Code
			if w.Code == http.StatusOK {
				answers[i] = decode[checkoutJSON](t, w, http.StatusOK)
			}
		})
	}
	wg.Wait()
	for i := range n {
		if codes[i] != http.StatusOK {
			t.Fatalf("call %d: %d", i, codes[i])
		}
		if answers[i] != answers[0] {
			t.Errorf("call %d answered %+v, call 0 %+v: want one session", i, answers[i], answers[0])
		}
	}
	if got := s.sessionsOf(uid, "a"); len(got) != 1 {
		t.Errorf("%d open sessions (orders), want 1", len(got))
	}
	// Paying it once is the only charge; buying again is refused.
	if w := s.Do("POST", answers[0].CheckoutURL+"/pay", "", ""); w.Code != http.StatusSeeOther {
		t.Fatalf("pay: %d %s", w.Code, w.Body.String())
	}
	wantError(t, s.Do("POST", createPath, token, `{"prompt_id":"a"}`), http.StatusConflict, "already own")
}

// A later call answers the same session while it is open; once it expired
// (Stripe's checkout.session.expired) a new one is opened. Another prompt or
// another user never gets it.
func TestCheckoutReusedUntilItCloses(t *testing.T) {
	t.Parallel()
	s := newStack(t, 0, fixture("a", 5.99), fixture("b", 3))
	uid, token := s.User("buyer")
	_, otherToken := s.User("other")
	first := s.checkout(token, "a")
	if again := s.checkout(token, "a"); again != first {
		t.Errorf("second call = %+v, want the open %+v", again, first)
	}
	if b := s.checkout(token, "b"); b.SessionID == first.SessionID {
		t.Error("another prompt got the same session")
	}
	if o := s.checkout(otherToken, "a"); o.SessionID == first.SessionID {
		t.Error("another user got the same session")
	}
	if err := payments.NewFulfiller(s.St, payments.NewLocal(s.St)).Expire(context.Background(), first.SessionID); err != nil {
		t.Fatal(err)
	}
	next := s.checkout(token, "a")
	if next.SessionID == first.SessionID {
		t.Errorf("after expiry the expired session %s was answered again", first.SessionID)
	}
	if got := s.sessionsOf(uid, "a"); len(got) != 1 || got[0].SessionID != next.SessionID {
		t.Errorf("pending sessions = %+v, want only %s", got, next.SessionID)
	}
}

// A second paid session for a prompt already owned (here: made straight at
// the provider, as a session from before this fix or another tab's race
// would be) is refunded when paid; the success page says so, the buyer
// keeps the prompt and the dashboard shows "Duplicate payment refunded".
func TestPaidDuplicateIsRefundedEndToEnd(t *testing.T) {
	t.Parallel()
	s := newStack(t, 0, fixture("a", 5.99))
	uid, token := s.User("buyer")
	ctx := context.Background()
	// The second session: opened at the provider beside ours.
	local := payments.NewLocal(s.St)
	dup, err := local.CreateCheckout(ctx, payments.CheckoutRequest{
		UserID: uid, PromptID: "a", ProductName: "Title a", AmountCents: 599, IdempotencyKey: "other-tab",
		SuccessURL: "http://app.test:3000/payment/success?session_id={CHECKOUT_SESSION_ID}", CancelURL: "http://app.test:3000/payment/cancel",
	})
	storetest.Must(t, err, "second session")
	first := s.checkout(token, "a")
	for _, url := range []string{first.CheckoutURL, dup.URL} {
		if w := s.Do("POST", url+"/pay", "", ""); w.Code != http.StatusSeeOther {
			t.Fatalf("pay %s: %d %s", url, w.Code, w.Body.String())
		}
	}
	got := decode[verifyJSON](t, s.Do("GET", verifyPath+dup.ID, token, ""), http.StatusOK)
	if got.Status != "duplicate_refunded" || got.SessionID != dup.ID {
		t.Errorf("verify of the duplicate = %+v, want status duplicate_refunded", got)
	}
	if got := decode[verifyJSON](t, s.Do("GET", verifyPath+first.SessionID, token, ""), http.StatusOK); got.Status != "paid" {
		t.Errorf("verify of the first = %+v, want paid", got)
	}
	if got := s.owned(token); !slices.Equal(got, []string{"a"}) {
		t.Errorf("owned = %v, want [a]", got)
	}
	refunds, err := s.St.LocalRefunds(ctx, dup.ID)
	storetest.Must(t, err, "refunds")
	if len(refunds) != 1 || refunds[0].AmountCents != 599 {
		t.Errorf("refunds of the duplicate = %+v, want one of 599 cents", refunds)
	}
	var titles []string
	for _, a := range s.activities(token, domain.ActivityOther) {
		titles = append(titles, a.Title)
	}
	if !slices.Contains(titles, "Duplicate payment refunded") {
		t.Errorf("activities %v lack 'Duplicate payment refunded'", titles)
	}
	if got := len(s.activities(token, domain.ActivityPurchase)); got != 1 {
		t.Errorf("%d purchase activities, want 1", got)
	}
}
