package webhookapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v84"

	"aiwork/shared/domain"
	"aiwork/shared/store/storetest"
)

// paidSession opens a checkout through the API and marks its local session
// paid with paymentIntent, as the provider would; no event is sent.
func (s *stack) paidSession(uid, token, pid string, cents int64, paymentIntent string) checkoutSession {
	s.T.Helper()
	sid := s.checkout(token, pid)
	_, err := s.St.CompleteLocalSession(context.Background(), sid, paymentIntent)
	storetest.Must(s.T, err, "complete local session")
	return checkoutSession{ID: sid, Status: "complete", PaymentStatus: "paid", PaymentIntent: paymentIntent, UserID: uid, PromptID: pid, AmountCents: cents}
}

func TestSignature(t *testing.T) {
	t.Parallel()
	s := newStack(t, fixture("a", 9.99))
	uid, token := s.User("buyer")
	sid := s.checkout(token, "a")
	sess := checkoutSession{ID: sid, Status: "complete", PaymentStatus: "paid", PaymentIntent: "pi_sig", UserID: uid, PromptID: "a", AmountCents: 999}
	payload := event("evt_sig", "checkout.session.completed", sess.object())
	// Another release train than the one our stripe-go speaks.
	otherVersion := bytes.Replace(payload, []byte(`"api_version":"`+stripe.APIVersion+`"`), []byte(`"api_version":"2025-03-31.basil"`), 1)
	if bytes.Equal(otherVersion, payload) {
		t.Fatal("api version not replaced")
	}
	tampered := bytes.Replace(payload, []byte(`"amount_total":999`), []byte(`"amount_total":1`), 1)
	if bytes.Equal(tampered, payload) {
		t.Fatal("tampering changed nothing")
	}

	refused := []struct {
		name      string
		body      []byte
		signature string
	}{
		{"no signature header", payload, ""},
		{"signed with another secret", payload, sign(payload, "whsec_someone_else", time.Now())},
		{"signature 400 s old", payload, sign(payload, webhookSecret, time.Now().Add(-400*time.Second))},
		{"body changed after signing", tampered, sign(payload, webhookSecret, time.Now())},
		{"garbage signature", payload, "t=123,v1=deadbeef"},
		{"signed, but another API version", otherVersion, sign(otherVersion, webhookSecret, time.Now())},
		{"signed, but not JSON", []byte("not json"), sign([]byte("not json"), webhookSecret, time.Now())},
	}
	for _, tc := range refused {
		w := s.post(tc.body, tc.signature)
		if w.Code != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400; body %s", tc.name, w.Code, w.Body.String())
		}
	}
	if got := s.owned(uid); len(got) != 0 {
		t.Fatalf("owned after refused events = %v, want nothing", got)
	}
	if got := s.order(sid).Status; got != domain.OrderPending {
		t.Fatalf("order after refused events = %s, want PENDING", got)
	}

	// A signature a little old, but within the 300 s tolerance, is fine.
	w := s.post(payload, sign(payload, webhookSecret, time.Now().Add(-200*time.Second)))
	if w.Code != http.StatusOK {
		t.Fatalf("valid event: %d %s", w.Code, w.Body.String())
	}
	var ack map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &ack); err != nil || ack["received"] != true {
		t.Errorf("answer = %s, want {\"received\":true}", w.Body.String())
	}
	if got := s.owned(uid); !slices.Equal(got, []string{"a"}) {
		t.Errorf("owned = %v, want [a]", got)
	}
	o := s.order(sid)
	if o.Status != domain.OrderPaid || o.PaymentIntent != "pi_sig" {
		t.Errorf("order = %+v, want PAID with payment intent pi_sig", o)
	}
	acts := s.activities(uid, domain.ActivityPurchase)
	if len(acts) != 1 || acts[0].PromptTitle != "Title a" || acts[0].Amount == nil || *acts[0].Amount != 9.99 {
		t.Errorf("purchase activities = %+v, want one for Title a, 9.99", acts)
	}
}

func TestUnknownEventTypeIsIgnored(t *testing.T) {
	t.Parallel()
	s := newStack(t, fixture("a", 3))
	uid, token := s.User("buyer")
	sid := s.checkout(token, "a")
	payload := event("evt_customer", "customer.created", map[string]any{
		"id": "cus_1", "object": "customer", "email": "x@example.com", "metadata": map[string]string{"user_id": uid, "prompt_id": "a"},
	})
	s.deliver(payload)
	if got := s.owned(uid); len(got) != 0 {
		t.Errorf("owned = %v, want nothing", got)
	}
	if got := s.order(sid).Status; got != domain.OrderPending {
		t.Errorf("order = %s, want PENDING", got)
	}
	if got := s.activities(uid, domain.ActivityPurchase); len(got) != 0 {
		t.Errorf("activities = %+v, want none", got)
	}
}

// Stripe retrying one event ten times at once while the buyer's success page
// verifies: one ownership, one activity.
func TestConcurrentReplaysAndVerify(t *testing.T) {
	t.Parallel()
	s := newStack(t, fixture("a", 4.2))
	uid, token := s.User("buyer")
	sess := s.paidSession(uid, token, "a", 420, "pi_race")
	payload := event("evt_race", "checkout.session.completed", sess.object())

	var wg sync.WaitGroup
	codes := make([]int, 11)
	for i := range 10 {
		wg.Go(func() { codes[i] = s.post(payload, sign(payload, webhookSecret, time.Now())).Code })
	}
	wg.Go(func() { codes[10] = s.Do("GET", verifyPath+sess.ID, token, "").Code })
	wg.Wait()
	for i, c := range codes {
		if c != http.StatusOK {
			t.Errorf("request %d: status %d, want 200", i, c)
		}
	}
	if got := s.owned(uid); !slices.Equal(got, []string{"a"}) {
		t.Errorf("owned = %v, want [a]", got)
	}
	if acts := s.activities(uid, domain.ActivityPurchase); len(acts) != 1 {
		t.Errorf("%d purchase activities, want 1: %+v", len(acts), acts)
	}
	if got := s.order(sess.ID).Status; got != domain.OrderPaid {
		t.Errorf("order = %s, want PAID", got)
	}
}

// A delayed payment method: completed arrives unpaid, the money later.
func TestAsyncPaymentSucceeded(t *testing.T) {
	t.Parallel()
	s := newStack(t, fixture("a", 6))
	uid, token := s.User("buyer")
	sid := s.checkout(token, "a")
	sess := checkoutSession{ID: sid, Status: "complete", PaymentStatus: "unpaid", UserID: uid, PromptID: "a", AmountCents: 600}

	s.deliver(event("evt_completed_unpaid", "checkout.session.completed", sess.object()))
	if got := s.owned(uid); len(got) != 0 {
		t.Errorf("owned after an unpaid completion = %v, want nothing", got)
	}
	if got := s.order(sid).Status; got != domain.OrderPending {
		t.Errorf("order after an unpaid completion = %s, want PENDING", got)
	}

	sess.PaymentStatus, sess.PaymentIntent = "paid", "pi_async"
	s.deliver(event("evt_async_ok", "checkout.session.async_payment_succeeded", sess.object()))
	if got := s.owned(uid); !slices.Equal(got, []string{"a"}) {
		t.Errorf("owned after async success = %v, want [a]", got)
	}
	if got := s.order(sid).Status; got != domain.OrderPaid {
		t.Errorf("order = %s, want PAID", got)
	}
	if n := len(s.activities(uid, domain.ActivityPurchase)); n != 1 {
		t.Errorf("%d purchase activities, want 1", n)
	}
}

func TestAsyncPaymentFailed(t *testing.T) {
	t.Parallel()
	s := newStack(t, fixture("a", 6))
	uid, token := s.User("buyer")
	sid := s.checkout(token, "a")
	sess := checkoutSession{ID: sid, Status: "complete", PaymentStatus: "unpaid", UserID: uid, PromptID: "a", AmountCents: 600}
	s.deliver(event("evt_async_fail", "checkout.session.async_payment_failed", sess.object()))
	if got := s.order(sid).Status; got != domain.OrderFailed {
		t.Errorf("order = %s, want FAILED", got)
	}
	if got := s.owned(uid); len(got) != 0 {
		t.Errorf("owned = %v, want nothing", got)
	}
	if code, detail := s.verify(token, sid); code != http.StatusBadRequest || !strings.Contains(detail, "failed") {
		t.Errorf("verify = %d %q, want 400 saying the payment failed", code, detail)
	}
}

func TestExpired(t *testing.T) {
	t.Parallel()
	s := newStack(t, fixture("a", 6))
	uid, token := s.User("buyer")
	sid := s.checkout(token, "a")
	sess := checkoutSession{ID: sid, Status: "expired", PaymentStatus: "unpaid", UserID: uid, PromptID: "a", AmountCents: 600}
	s.deliver(event("evt_expired", "checkout.session.expired", sess.object()))
	if got := s.order(sid).Status; got != domain.OrderExpired {
		t.Errorf("order = %s, want EXPIRED", got)
	}
	if code, detail := s.verify(token, sid); code != http.StatusBadRequest || !strings.Contains(detail, "expired") {
		t.Errorf("verify = %d %q, want 400 saying the session expired", code, detail)
	}
	if got := s.owned(uid); len(got) != 0 {
		t.Errorf("owned = %v, want nothing", got)
	}
}

// Stripe does not promise order: an expiry that arrives after the payment
// takes nothing away.
func TestExpiredAfterCompleted(t *testing.T) {
	t.Parallel()
	s := newStack(t, fixture("a", 6))
	uid, token := s.User("buyer")
	sess := s.paidSession(uid, token, "a", 600, "pi_then_expired")
	s.deliver(event("evt_paid", "checkout.session.completed", sess.object()))
	expired := sess
	expired.Status, expired.PaymentStatus = "expired", "unpaid"
	s.deliver(event("evt_late_expiry", "checkout.session.expired", expired.object()))
	if got := s.order(sess.ID).Status; got != domain.OrderPaid {
		t.Errorf("order = %s, want PAID", got)
	}
	if got := s.owned(uid); !slices.Equal(got, []string{"a"}) {
		t.Errorf("owned = %v, want [a]", got)
	}
	if code, status := s.verify(token, sess.ID); code != http.StatusOK || status != "paid" {
		t.Errorf("verify = %d %q, want 200 paid", code, status)
	}
}

// The event may come before our own order record (or for a checkout made
// elsewhere): the order is built from the session's metadata.
func TestCompletedBeforeOrder(t *testing.T) {
	t.Parallel()
	s := newStack(t, fixture("a", 8.25))
	uid, _ := s.User("buyer")
	sess := checkoutSession{ID: "cs_test_early", Status: "complete", PaymentStatus: "paid", PaymentIntent: "pi_early", UserID: uid, PromptID: "a", AmountCents: 825}
	if _, err := s.St.GetOrder(context.Background(), sess.ID); err == nil {
		t.Fatal("order exists before the event")
	}
	s.deliver(event("evt_early", "checkout.session.completed", sess.object()))
	o := s.order(sess.ID)
	if o.UserID != uid || o.PromptID != "a" || o.PromptTitle != "Title a" || o.Amount != 8.25 ||
		o.Status != domain.OrderPaid || o.PaymentIntent != "pi_early" {
		t.Errorf("order = %+v, want PAID order of a by %s for 8.25", o, uid)
	}
	if got := s.owned(uid); !slices.Equal(got, []string{"a"}) {
		t.Errorf("owned = %v, want [a]", got)
	}
	if n := len(s.activities(uid, domain.ActivityPurchase)); n != 1 {
		t.Errorf("%d purchase activities, want 1", n)
	}
}

// An event whose work fails is answered 500 and not recorded, so Stripe's
// retry of the same event id does the work once it can succeed.
func TestFailedEventIsRetried(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	uid, _ := s.User("buyer")
	sess := checkoutSession{ID: "cs_test_retry", Status: "complete", PaymentStatus: "paid", PaymentIntent: "pi_retry", UserID: uid, PromptID: "late", AmountCents: 300}
	payload := event("evt_retry", "checkout.session.completed", sess.object())
	if w := s.post(payload, sign(payload, webhookSecret, time.Now())); w.Code != http.StatusInternalServerError {
		t.Fatalf("event for a prompt not in the catalogue: %d %s, want 500", w.Code, w.Body.String())
	}
	if got := s.owned(uid); len(got) != 0 {
		t.Fatalf("owned = %v, want nothing", got)
	}
	storetest.Must(t, s.St.PutPrompt(context.Background(), fixture("late", 3)), "prompt")
	s.deliver(payload)
	if got := s.owned(uid); !slices.Equal(got, []string{"late"}) {
		t.Errorf("owned after the retry = %v, want [late]", got)
	}
}

func TestFullRefund(t *testing.T) {
	t.Parallel()
	s := newStack(t, fixture("a", 11))
	uid, token := s.User("buyer")
	sess := s.paidSession(uid, token, "a", 1100, "pi_refunded")
	completed := event("evt_paid_then_refunded", "checkout.session.completed", sess.object())
	s.deliver(completed)
	if got := s.owned(uid); !slices.Equal(got, []string{"a"}) {
		t.Fatalf("owned before the refund = %v, want [a]", got)
	}

	s.deliver(event("evt_refund", "charge.refunded", charge("ch_1", "pi_refunded", 1100, 1100, true)))
	if got := s.owned(uid); len(got) != 0 {
		t.Errorf("owned after a full refund = %v, want nothing", got)
	}
	if got := s.order(sess.ID).Status; got != domain.OrderRefunded {
		t.Errorf("order = %s, want REFUNDED", got)
	}
	refunds := s.activities(uid, domain.ActivityOther)
	if len(refunds) != 1 || refunds[0].PromptTitle != "Title a" || !strings.Contains(strings.ToLower(refunds[0].Title), "refund") {
		t.Errorf("refund activities = %+v, want one about Title a", refunds)
	}
	if code, detail := s.verify(token, sess.ID); code != http.StatusBadRequest || !strings.Contains(detail, "refunded") {
		t.Errorf("verify = %d %q, want 400 mentioning the refund", code, detail)
	}

	// Nothing gives it back: the same completed event again, the completion
	// under a new event id, a late async success, another refund event.
	s.deliver(completed)
	s.deliver(event("evt_completed_again", "checkout.session.completed", sess.object()))
	s.deliver(event("evt_async_late", "checkout.session.async_payment_succeeded", sess.object()))
	s.deliver(event("evt_refund_again", "charge.refunded", charge("ch_1", "pi_refunded", 1100, 1100, true)))
	if got := s.owned(uid); len(got) != 0 {
		t.Errorf("owned after replays = %v, want nothing", got)
	}
	if got := s.order(sess.ID).Status; got != domain.OrderRefunded {
		t.Errorf("order after replays = %s, want REFUNDED", got)
	}
	if n := len(s.activities(uid, domain.ActivityOther)); n != 1 {
		t.Errorf("%d refund activities after replays, want 1", n)
	}
	if n := len(s.activities(uid, domain.ActivityPurchase)); n != 1 {
		t.Errorf("%d purchase activities, want 1", n)
	}
	w := s.Do("GET", "/api/v1/prompts/a", token, "")
	if w.Code != http.StatusOK || strings.Contains(w.Body.String(), "SECRET-a") {
		t.Errorf("prompt after refund: %d, content visible = %v", w.Code, strings.Contains(w.Body.String(), "SECRET-a"))
	}
}

func TestPartialRefundKeepsAccess(t *testing.T) {
	t.Parallel()
	s := newStack(t, fixture("a", 11))
	uid, token := s.User("buyer")
	sess := s.paidSession(uid, token, "a", 1100, "pi_partial")
	s.deliver(event("evt_paid_partial", "checkout.session.completed", sess.object()))
	s.deliver(event("evt_partial", "charge.refunded", charge("ch_2", "pi_partial", 1100, 500, false)))
	if got := s.owned(uid); !slices.Equal(got, []string{"a"}) {
		t.Errorf("owned after a partial refund = %v, want [a]", got)
	}
	if got := s.order(sess.ID).Status; got != domain.OrderPaid {
		t.Errorf("order = %s, want PAID", got)
	}
	if n := len(s.activities(uid, domain.ActivityOther)); n != 0 {
		t.Errorf("%d refund activities, want none", n)
	}
	// A full refund of a payment we do not know is acknowledged and ignored.
	s.deliver(event("evt_refund_unknown", "charge.refunded", charge("ch_3", "pi_unknown", 100, 100, true)))
	if got := s.owned(uid); !slices.Equal(got, []string{"a"}) {
		t.Errorf("owned after an unrelated refund = %v, want [a]", got)
	}
}

func TestBodyTooLarge(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	obj := map[string]any{"id": "cus_big", "object": "customer", "description": strings.Repeat("x", 520<<10)}
	payload := event("evt_big", "customer.updated", obj)
	if len(payload) <= 512<<10 {
		t.Fatalf("payload is only %d bytes", len(payload))
	}
	if w := s.post(payload, sign(payload, webhookSecret, time.Now())); w.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("status %d, want 413; body %s", w.Code, w.Body.String())
	}
	// Just under the cap is read (and here ignored as an unknown type).
	obj["description"] = strings.Repeat("x", 500<<10)
	payload = event("evt_big_ok", "customer.updated", obj)
	if w := s.post(payload, sign(payload, webhookSecret, time.Now())); w.Code != http.StatusOK {
		t.Errorf("a %d-byte event: status %d, want 200", len(payload), w.Code)
	}
}

func TestWebhookOnlyTakesPost(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	if w := s.Do("GET", webhookPath, "", ""); w.Code != http.StatusMethodNotAllowed && w.Code != http.StatusNotFound {
		t.Errorf("GET webhook: %d, want 405 or 404", w.Code)
	}
}
