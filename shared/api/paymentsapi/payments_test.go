package paymentsapi_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"aiwork/shared/api/apitest"
	"aiwork/shared/domain"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

const (
	createPath = "/api/v1/payments/create-checkout-session"
	verifyPath = "/api/v1/payments/verify-session/"
)

func TestCreateCheckoutRefusals(t *testing.T) {
	t.Parallel()
	withFree := newStack(t, 5, fixture("a", 9.99), fixture("b", 4.5))
	noFree := newStack(t, 0, fixture("a", 9.99), fixture("b", 4.5))
	tests := []struct {
		name   string
		s      *stack
		noAuth bool
		setup  func(s *stack, uid, token string)
		body   string
		status int
		detail string
		owns   []string // what the user owns afterwards
	}{
		{name: "no token", s: noFree, noAuth: true, body: `{"prompt_id":"a"}`, status: http.StatusUnauthorized},
		{name: "malformed JSON", s: noFree, body: `{"prompt_id":`, status: http.StatusBadRequest, detail: "Malformed JSON"},
		{name: "not an object", s: noFree, body: `["a"]`, status: http.StatusBadRequest},
		{name: "empty body", s: noFree, body: ``, status: http.StatusBadRequest},
		{name: "missing prompt_id", s: noFree, body: `{}`, status: http.StatusBadRequest, detail: "prompt_id is required"},
		{name: "blank prompt_id", s: noFree, body: `{"prompt_id":"   "}`, status: http.StatusBadRequest, detail: "prompt_id is required"},
		{name: "unknown prompt", s: noFree, body: `{"prompt_id":"nope"}`, status: http.StatusNotFound, detail: "Prompt not found"},
		{name: "free uses left", s: withFree, body: `{"prompt_id":"a"}`, status: http.StatusBadRequest, detail: "use this prompt for free"},
		{
			name: "claimed free", s: withFree, body: `{"prompt_id":"a"}`, status: http.StatusConflict,
			setup: func(s *stack, _, token string) {
				if w := s.Do("POST", "/api/v1/prompts/use-free-prompt/a", token, ""); w.Code != http.StatusOK {
					s.T.Fatalf("free claim: %d %s", w.Code, w.Body.String())
				}
			},
		},
		{
			name: "already owned", s: noFree, body: `{"prompt_id":"b"}`, status: http.StatusConflict, detail: "already own", owns: []string{"b"},
			setup: func(s *stack, uid, _ string) {
				_, err := s.St.GrantOwnership(context.Background(), uid, domain.Ownership{
					PromptID: "b", Source: domain.SourcePurchase, OrderID: "cs_earlier", Amount: 4.5, CreatedAt: time.Now(),
				})
				storetest.Must(s.T, err, "grant")
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := *tc.s
			s.T = t
			uid, token := s.User("buyer")
			if tc.setup != nil {
				tc.setup(&s, uid, token)
			}
			if tc.noAuth {
				token = ""
			}
			w := s.Do("POST", createPath, token, tc.body)
			wantError(t, w, tc.status, tc.detail)
			if tc.name == "free uses left" && !strings.Contains(w.Body.String(), `"code":"free_use_available"`) {
				t.Errorf("free uses left: %s, want code free_use_available (the client branches on it)", w.Body)
			}
			if tc.noAuth {
				return
			}
			// A refused checkout grants nothing.
			if got := s.owned(token); !slices.Equal(got, tc.owns) && !(len(got) == 0 && len(tc.owns) == 0) {
				t.Errorf("owned = %v, want %v", got, tc.owns)
			}
		})
	}
}

func TestCreateCheckout(t *testing.T) {
	t.Parallel()
	s := newStack(t, 0, fixture("a", 12.34))
	uid, token := s.User("buyer")

	w := s.doHost("shop.test:8443", "POST", createPath, token, `{"prompt_id":"a"}`)
	got := decode[checkoutJSON](t, w, http.StatusOK)
	if !strings.HasPrefix(got.CheckoutURL, "/dev/checkout/cs_local_") {
		t.Errorf("checkout_url = %q, want /dev/checkout/cs_local_…", got.CheckoutURL)
	}
	if got.CheckoutURL != "/dev/checkout/"+got.SessionID {
		t.Errorf("checkout_url = %q, session_id = %q: the URL is not the session's page", got.CheckoutURL, got.SessionID)
	}

	ls, err := s.St.GetLocalSession(context.Background(), got.SessionID)
	storetest.Must(t, err, "local session")
	want := store.LocalSession{
		ID: got.SessionID, Status: "open", PaymentStatus: "unpaid", AmountCents: 1234, Currency: "usd",
		ProductName: "Title a", ClientRef: uid,
		Metadata:   map[string]string{"user_id": uid, "prompt_id": "a"},
		SuccessURL: "http://shop.test:8443/payment/success?session_id={CHECKOUT_SESSION_ID}",
		CancelURL:  "http://shop.test:8443/payment/cancel",
	}
	if ls.ID != want.ID || ls.Status != want.Status || ls.PaymentStatus != want.PaymentStatus ||
		ls.AmountCents != want.AmountCents || ls.Currency != want.Currency || ls.ProductName != want.ProductName ||
		ls.ClientRef != want.ClientRef || ls.SuccessURL != want.SuccessURL || ls.CancelURL != want.CancelURL ||
		ls.Metadata["user_id"] != uid || ls.Metadata["prompt_id"] != "a" || ls.IdemKey == "" {
		t.Errorf("local session = %+v\nwant %+v", ls, want)
	}

	o, err := s.St.GetOrder(context.Background(), got.SessionID)
	storetest.Must(t, err, "order")
	if o.UserID != uid || o.PromptID != "a" || o.PromptTitle != "Title a" || o.Amount != 12.34 ||
		o.Status != domain.OrderPending || o.Provider != "local" {
		t.Errorf("order = %+v, want PENDING local order of a for 12.34 by %s", o, uid)
	}
	if owned := s.owned(token); len(owned) != 0 {
		t.Errorf("owned before paying = %v", owned)
	}
}

// A client's X-Forwarded-Host and X-Forwarded-Proto never choose where
// Stripe sends the buyer back: on the devserver stack the success and cancel
// pages are on the request's own host (PUBLIC_URL on the devserver itself,
// shared/local/devstack TestForwardedHostChangesNoLink).
func TestCreateCheckoutIgnoresForwardedHost(t *testing.T) {
	t.Parallel()
	s := newStack(t, 0, fixture("a", 1))
	_, token := s.User("buyer")
	w := s.doHostHeaders("10.0.0.5:8080", "POST", createPath, token, `{"prompt_id":"a"}`,
		map[string]string{"X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example"})
	got := decode[checkoutJSON](t, w, http.StatusOK)
	ls, err := s.St.GetLocalSession(context.Background(), got.SessionID)
	storetest.Must(t, err, "local session")
	if want := "http://10.0.0.5:8080/payment/success?session_id={CHECKOUT_SESSION_ID}"; ls.SuccessURL != want {
		t.Errorf("success url = %q, want %q", ls.SuccessURL, want)
	}
	if want := "http://10.0.0.5:8080/payment/cancel"; ls.CancelURL != want {
		t.Errorf("cancel url = %q, want %q", ls.CancelURL, want)
	}
}

func TestVerifySessionRefusals(t *testing.T) {
	t.Parallel()
	s := newStack(t, 0, fixture("a", 3))
	_, token := s.User("buyer")
	_, other := s.User("other")
	sid := s.checkout(token, "a").SessionID

	tests := []struct {
		name, token, sid string
		status           int
		detail           string
	}{
		{"not paid yet", token, sid, http.StatusBadRequest, "This payment has not been completed yet."},
		{"another user's session", other, sid, http.StatusNotFound, "Payment session not found"},
		{"unknown session", token, "cs_local_doesnotexist", http.StatusNotFound, "Payment session not found"},
		{"no token", "", sid, http.StatusUnauthorized, ""},
	}
	for _, tc := range tests {
		w := s.Do("GET", verifyPath+tc.sid, tc.token, "")
		e := decode[apitest.Error](t, w, tc.status)
		if tc.detail != "" && e.Detail != tc.detail {
			t.Errorf("%s: detail = %q, want %q", tc.name, e.Detail, tc.detail)
		}
	}
	if got := s.orderStatus(sid); got != domain.OrderPending {
		t.Errorf("order after failed verifications = %s, want PENDING", got)
	}
	if got := s.owned(token); len(got) != 0 {
		t.Errorf("owned = %v, want nothing", got)
	}
}

// The local test checkout end to end: page, Pay (signed event to the real
// webhook), success redirect, ownership, activity, verification, repeat Pay.
func TestLocalCheckoutPayFlow(t *testing.T) {
	t.Parallel()
	s := newStack(t, 0, fixture("a", 7.5), fixture("b", 2))
	_, token := s.User("buyer")
	co := s.checkout(token, "a")

	page := s.Do("GET", co.CheckoutURL, "", "")
	if page.Code != http.StatusOK || !strings.HasPrefix(page.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("checkout page: %d %q", page.Code, page.Header().Get("Content-Type"))
	}
	body := page.Body.String()
	for _, want := range []string{"Title a", "$7.50", "no money moves", "Local test checkout", co.CheckoutURL + "/pay", co.CheckoutURL + "/cancel"} {
		if !strings.Contains(body, want) {
			t.Errorf("checkout page does not show %q", want)
		}
	}
	if strings.Contains(body, "SECRET-a") {
		t.Error("checkout page shows the paid content")
	}

	pay := func() {
		t.Helper()
		w := s.Do("POST", co.CheckoutURL+"/pay", "", "")
		if w.Code != http.StatusSeeOther {
			t.Fatalf("pay: %d %s", w.Code, w.Body.String())
		}
		loc, err := url.Parse(w.Header().Get("Location"))
		if err != nil || loc.Host != "app.test:3000" || loc.Path != "/payment/success" || loc.Query().Get("session_id") != co.SessionID {
			t.Errorf("pay redirects to %q, want http://app.test:3000/payment/success?session_id=%s", w.Header().Get("Location"), co.SessionID)
		}
	}
	pay()

	if got := s.owned(token); !slices.Equal(got, []string{"a"}) {
		t.Errorf("owned after paying = %v, want [a]", got)
	}
	p := decode[promptJSON](t, s.Do("GET", "/api/v1/prompts/a", token, ""), http.StatusOK)
	if !p.IsPurchased || p.Content == nil || !strings.Contains(*p.Content, "SECRET-a") {
		t.Errorf("prompt a after paying: is_purchased=%v content=%v", p.IsPurchased, p.Content != nil)
	}
	if p := decode[promptJSON](t, s.Do("GET", "/api/v1/prompts/b", token, ""), http.StatusOK); p.IsPurchased || p.Content != nil {
		t.Errorf("prompt b (not bought): is_purchased=%v content=%v", p.IsPurchased, p.Content != nil)
	}
	checkPurchase := func() {
		t.Helper()
		acts := s.activities(token, domain.ActivityPurchase)
		if len(acts) != 1 {
			t.Fatalf("%d purchase activities, want 1: %+v", len(acts), acts)
		}
		if a := acts[0]; a.Amount == nil || *a.Amount != 7.5 || a.PromptTitle != "Title a" {
			t.Errorf("purchase activity = %+v, want amount 7.5 and prompt_title Title a", a)
		}
	}
	checkPurchase()
	if got := s.orderStatus(co.SessionID); got != domain.OrderPaid {
		t.Errorf("order = %s, want PAID", got)
	}

	want := verifyJSON{PromptTitle: "Title a", Amount: 7.5, SessionID: co.SessionID, Status: "paid"}
	if got := decode[verifyJSON](t, s.Do("GET", verifyPath+co.SessionID, token, ""), http.StatusOK); got != want {
		t.Errorf("verify = %+v, want %+v", got, want)
	}

	// Pay again (a double submit, a back button): nothing more.
	pay()
	if got := s.owned(token); !slices.Equal(got, []string{"a"}) {
		t.Errorf("owned after paying twice = %v, want [a]", got)
	}
	checkPurchase()
	if got := decode[verifyJSON](t, s.Do("GET", verifyPath+co.SessionID, token, ""), http.StatusOK); got != want {
		t.Errorf("verify again = %+v, want %+v", got, want)
	}

	// The page of a paid session offers no Pay button.
	if body := s.Do("GET", co.CheckoutURL, "", "").Body.String(); strings.Contains(body, "/pay\"") {
		t.Error("a paid session's page still offers Pay")
	}
	// Buying it again is refused.
	wantError(t, s.Do("POST", createPath, token, `{"prompt_id":"a"}`), http.StatusConflict, "already own")
}

func TestLocalCheckoutCancel(t *testing.T) {
	t.Parallel()
	s := newStack(t, 0, fixture("a", 7.5))
	_, token := s.User("buyer")
	co := s.checkout(token, "a")

	w := s.Do("POST", co.CheckoutURL+"/cancel", "", "")
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "http://app.test:3000/payment/cancel" {
		t.Errorf("cancel: %d to %q, want 303 to http://app.test:3000/payment/cancel", w.Code, w.Header().Get("Location"))
	}
	if got := s.owned(token); len(got) != 0 {
		t.Errorf("owned after cancel = %v", got)
	}
	if got := s.orderStatus(co.SessionID); got != domain.OrderPending {
		t.Errorf("order after cancel = %s, want PENDING", got)
	}
	wantError(t, s.Do("GET", verifyPath+co.SessionID, token, ""), http.StatusBadRequest, "not been completed")

	for _, path := range []string{"/dev/checkout/cs_local_unknown", "/dev/checkout/cs_local_unknown/pay", "/dev/checkout/cs_local_unknown/cancel"} {
		method := "POST"
		if !strings.HasSuffix(path, "/pay") && !strings.HasSuffix(path, "/cancel") {
			method = "GET"
		}
		if w := s.Do(method, path, "", ""); w.Code != http.StatusNotFound {
			t.Errorf("%s %s = %d, want 404", method, path, w.Code)
		}
	}
}

// The success page fulfils by itself when the webhook never came.
func TestVerifyFulfilsWithoutWebhook(t *testing.T) {
	t.Parallel()
	s := newStack(t, 0, fixture("a", 5.25))
	uid, token := s.User("buyer")
	co := s.checkout(token, "a")
	_, err := s.St.CompleteLocalSession(context.Background(), co.SessionID, "pi_direct_1")
	storetest.Must(t, err, "complete local session")
	if got := s.orderStatus(co.SessionID); got != domain.OrderPending {
		t.Fatalf("order before verify = %s, want PENDING (no event was sent)", got)
	}

	want := verifyJSON{PromptTitle: "Title a", Amount: 5.25, SessionID: co.SessionID, Status: "paid"}
	if got := decode[verifyJSON](t, s.Do("GET", verifyPath+co.SessionID, token, ""), http.StatusOK); got != want {
		t.Errorf("verify = %+v, want %+v", got, want)
	}
	if got := s.owned(token); !slices.Equal(got, []string{"a"}) {
		t.Errorf("owned = %v, want [a]", got)
	}
	o, err := s.St.GetOrder(context.Background(), co.SessionID)
	storetest.Must(t, err, "order")
	if o.Status != domain.OrderPaid || o.PaymentIntent != "pi_direct_1" || o.UserID != uid {
		t.Errorf("order = %+v, want PAID with payment intent pi_direct_1", o)
	}
	if n := len(s.activities(token, domain.ActivityPurchase)); n != 1 {
		t.Errorf("%d purchase activities, want 1", n)
	}
	// Verifying again changes nothing.
	decode[verifyJSON](t, s.Do("GET", verifyPath+co.SessionID, token, ""), http.StatusOK)
	if n := len(s.activities(token, domain.ActivityPurchase)); n != 1 {
		t.Errorf("%d purchase activities after a second verify, want 1", n)
	}
}

func TestOwnedPromptsNeedsToken(t *testing.T) {
	t.Parallel()
	s := newStack(t, 0)
	wantError(t, s.Do("GET", "/api/v1/payments/owned-prompts", "", ""), http.StatusUnauthorized, "")
	wantError(t, s.Do("GET", "/api/v1/payments/owned-prompts", "not-a-jwt", ""), http.StatusUnauthorized, "")
	_, token := s.User("nobody")
	if got := s.owned(token); len(got) != 0 {
		t.Errorf("owned = %v, want []", got)
	}
}
