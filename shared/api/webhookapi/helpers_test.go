package webhookapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v84"
	"github.com/stripe/stripe-go/v84/webhook"

	"aiwork/shared/api/apitest"
	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/local/devstack"
	"aiwork/shared/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

var jwtSecret = []byte(strings.Repeat("w", 32))

const (
	webhookSecret = "whsec_test_webhookapi"
	webhookPath   = "/api/v1/payments/webhook"
	verifyPath    = "/api/v1/payments/verify-session/"
)

// stack is the whole API (devstack.Handler, local provider) on a fresh table.
type stack struct{ *apitest.Stack }

func newStack(t *testing.T, prompts ...domain.Prompt) *stack {
	t.Helper()
	st, storeCfg := storetest.NewWithConfig(t)
	apitest.PutCatalogue(t, st, prompts...)
	cfg := devstack.ConfigFor(storeCfg, jwtSecret, 0, webhookSecret)
	h, err := devstack.Handler(st, cfg, "")
	if err != nil {
		t.Fatal(err)
	}
	return &stack{&apitest.Stack{T: t, H: h, St: st, Tokens: auth.NewTokens(jwtSecret, time.Hour)}}
}

// post delivers an event body with a Stripe-Signature header ("" for none).
func (s *stack) post(payload []byte, signature string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, webhookPath, strings.NewReader(string(payload)))
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	if signature != "" {
		req.Header.Set("Stripe-Signature", signature)
	}
	w := httptest.NewRecorder()
	s.H.ServeHTTP(w, req)
	return w
}

// deliver signs the event as Stripe does now and wants it accepted.
func (s *stack) deliver(payload []byte) {
	s.T.Helper()
	if w := s.post(payload, sign(payload, webhookSecret, time.Now())); w.Code != http.StatusOK {
		s.T.Fatalf("webhook: %d %s", w.Code, w.Body.String())
	}
}

// checkout opens a checkout through the API (a PENDING order and a local session).
func (s *stack) checkout(token, pid string) string {
	s.T.Helper()
	w := s.Do("POST", "/api/v1/payments/create-checkout-session", token, `{"prompt_id":"`+pid+`"}`)
	if w.Code != http.StatusOK {
		s.T.Fatalf("checkout: %d %s", w.Code, w.Body.String())
	}
	var got struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil || got.SessionID == "" {
		s.T.Fatalf("checkout answer %s: %v", w.Body.String(), err)
	}
	return got.SessionID
}

func (s *stack) owned(uid string) []string {
	s.T.Helper()
	ids, err := s.St.OwnedPromptIDs(context.Background(), uid)
	storetest.Must(s.T, err, "owned")
	return ids
}

func (s *stack) order(sid string) domain.Order {
	s.T.Helper()
	o, err := s.St.GetOrder(context.Background(), sid)
	storetest.Must(s.T, err, "get order "+sid)
	return o
}

func (s *stack) activities(uid, typ string) []domain.Activity {
	s.T.Helper()
	acts, err := s.St.Activities(context.Background(), uid)
	storetest.Must(s.T, err, "activities")
	var out []domain.Activity
	for _, a := range acts {
		if a.Type == typ {
			out = append(out, a)
		}
	}
	return out
}

// verify calls verify-session and answers status and detail (or status).
func (s *stack) verify(token, sid string) (int, string) {
	s.T.Helper()
	w := s.Do("GET", verifyPath+sid, token, "")
	var body struct {
		Detail string `json:"detail"`
		Status string `json:"status"`
	}
	_ = json.Unmarshal(w.Body.Bytes(), &body)
	if w.Code == http.StatusOK {
		return w.Code, body.Status
	}
	return w.Code, body.Detail
}

func sign(payload []byte, secret string, at time.Time) string {
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: at}).Header
}

// event is a Stripe-format event of our API version around one object.
func event(id, typ string, object map[string]any) []byte {
	b, err := json.Marshal(map[string]any{
		"id": id, "object": "event", "api_version": stripe.APIVersion, "created": time.Now().Unix(),
		"livemode": false, "pending_webhooks": 1, "type": typ,
		"request": map[string]any{"id": nil, "idempotency_key": nil},
		"data":    map[string]any{"object": object},
	})
	if err != nil {
		panic(err)
	}
	return b
}

// checkoutSession is a checkout.session object as Stripe sends it.
type checkoutSession struct {
	ID, Status, PaymentStatus, PaymentIntent, UserID, PromptID string
	AmountCents                                                int64
}

func (c checkoutSession) object() map[string]any {
	obj := map[string]any{
		"id": c.ID, "object": "checkout.session", "mode": "payment", "status": c.Status,
		"payment_status": c.PaymentStatus, "amount_total": c.AmountCents, "currency": "usd",
		"client_reference_id": c.UserID, "metadata": map[string]string{"user_id": c.UserID, "prompt_id": c.PromptID},
		"success_url": "http://localhost/payment/success?session_id={CHECKOUT_SESSION_ID}",
		"cancel_url":  "http://localhost/payment/cancel", "created": time.Now().Unix(),
	}
	if c.PaymentIntent != "" {
		obj["payment_intent"] = c.PaymentIntent
	} else {
		obj["payment_intent"] = nil
	}
	return obj
}

// charge is a charge object for charge.refunded.
func charge(id, paymentIntent string, amount, refundedAmount int64, refunded bool) map[string]any {
	return map[string]any{
		"id": id, "object": "charge", "amount": amount, "amount_refunded": refundedAmount, "currency": "usd",
		"paid": true, "captured": true, "refunded": refunded, "status": "succeeded", "payment_intent": paymentIntent,
	}
}

// fixture is a prompt whose content ends in a marker.
func fixture(id string, price float64) domain.Prompt {
	return domain.Prompt{
		ID: id, Title: "Title " + id, Description: "About " + id, CategoryID: "business", Price: price,
		CreatedAt: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC),
		Content:   "Body of " + id + " " + strings.Repeat("z", 220) + " SECRET-" + id,
	}
}
