package webhookapi_test

import (
	"context"
	"testing"

	"aiwork/shared/store/storetest"
)

// Each handled event about an order is recorded on it once (the admins'
// order page): the checkout's completion, the charge's refund (found by
// its payment intent); a replay adds nothing, and an event about a session
// we never saw records nothing.
func TestOrderEventsRecorded(t *testing.T) {
	t.Parallel()
	s := newStack(t, fixture("a", 11))
	uid, token := s.User("buyer")
	sess := s.paidSession(uid, token, "a", 1100, "pi_events")
	completed := event("evt_events_paid", "checkout.session.completed", sess.object())
	s.deliver(completed)
	s.deliver(completed)
	s.deliver(event("evt_events_refund", "charge.refunded", charge("ch_events", "pi_events", 1100, 1100, true)))
	s.deliver(event("evt_elsewhere", "checkout.session.expired", map[string]any{
		"id": "cs_never_seen", "object": "checkout.session", "mode": "payment", "status": "expired", "payment_status": "unpaid",
		"amount_total": 100, "currency": "usd", "payment_intent": nil,
	}))

	events, err := s.St.OrderEvents(context.Background(), sess.ID)
	storetest.Must(t, err, "order events")
	if len(events) != 2 || events[0].ID != "evt_events_paid" || events[0].Type != "checkout.session.completed" ||
		events[1].ID != "evt_events_refund" || events[1].Type != "charge.refunded" || events[1].ReceivedAt.Before(events[0].ReceivedAt) {
		t.Errorf("order events = %+v, want the completion then the refund", events)
	}
	if none, err := s.St.OrderEvents(context.Background(), "cs_never_seen"); err != nil || len(none) != 0 {
		t.Errorf("events of an unknown session = %+v, %v; want none", none, err)
	}
}
