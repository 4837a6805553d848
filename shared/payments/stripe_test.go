package payments_test

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/stripe/stripe-go/v84"

	"aiwork/shared/payments"
)

// recorded is one request that went through the recording proxy.
type recorded struct {
	method, path string
	header       http.Header
	form         url.Values
}

// recordingProxy forwards to stripe-mock and keeps every request, so a test
// sees both stripe-mock's verdict on the parameters (it validates them
// against Stripe's OpenAPI spec) and the values we sent.
type recordingProxy struct {
	mu   sync.Mutex
	reqs []recorded
	srv  *httptest.Server
}

func newRecordingProxy(t *testing.T) *recordingProxy {
	t.Helper()
	target, err := url.Parse(stripeMockURL(t))
	if err != nil {
		t.Fatal(err)
	}
	p := &recordingProxy{}
	rp := httputil.NewSingleHostReverseProxy(target)
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		form, _ := url.ParseQuery(string(body))
		p.mu.Lock()
		p.reqs = append(p.reqs, recorded{method: r.Method, path: r.URL.Path, header: r.Header.Clone(), form: form})
		p.mu.Unlock()
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(p.srv.Close)
	return p
}

func (p *recordingProxy) last(t *testing.T) recorded {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.reqs) == 0 {
		t.Fatal("no request reached stripe-mock")
	}
	return p.reqs[len(p.reqs)-1]
}

func checkoutRequest() payments.CheckoutRequest {
	return payments.CheckoutRequest{
		UserID: "user-1", PromptID: "prompt-1", ProductName: "Cold email opener", AmountCents: 1299,
		SuccessURL:     "http://localhost:8080/payment/success?session_id={CHECKOUT_SESSION_ID}",
		CancelURL:      "http://localhost:8080/payment/cancel",
		IdempotencyKey: "idem-key-1",
	}
}

func TestStripeCreateCheckout(t *testing.T) {
	t.Parallel()
	proxy := newRecordingProxy(t)
	p := payments.NewStripe("sk_test_123", proxy.srv.URL)
	if got, want := p.Name(), "stripe"; got != want {
		t.Errorf("Name() = %q, want %q", got, want)
	}

	sess, err := p.CreateCheckout(t.Context(), checkoutRequest())
	if err != nil {
		t.Fatalf("CreateCheckout: %v (stripe-mock refused our parameters?)", err)
	}
	if !strings.HasPrefix(sess.ID, "cs_") {
		t.Errorf("session id = %q, want a cs_ id", sess.ID)
	}
	if u, err := url.Parse(sess.URL); err != nil || u.Scheme != "https" || u.Host == "" {
		t.Errorf("session url = %q, want an https checkout page", sess.URL)
	}
	if sess.Paid() {
		t.Errorf("a new session is paid: %+v", sess)
	}

	req := proxy.last(t)
	if req.method != http.MethodPost || req.path != "/v1/checkout/sessions" {
		t.Errorf("request = %s %s, want POST /v1/checkout/sessions", req.method, req.path)
	}
	if got, want := req.header.Get("Idempotency-Key"), "idem-key-1"; got != want {
		t.Errorf("Idempotency-Key = %q, want %q", got, want)
	}
	if got := req.header.Get("Stripe-Version"); got != stripe.APIVersion {
		t.Errorf("Stripe-Version = %q, want %q", got, stripe.APIVersion)
	}
	want := map[string]string{
		"mode":                                   "payment",
		"client_reference_id":                    "user-1",
		"success_url":                            "http://localhost:8080/payment/success?session_id={CHECKOUT_SESSION_ID}",
		"cancel_url":                             "http://localhost:8080/payment/cancel",
		"metadata[user_id]":                      "user-1",
		"metadata[prompt_id]":                    "prompt-1",
		"line_items[0][quantity]":                "1",
		"line_items[0][price_data][currency]":    "usd",
		"line_items[0][price_data][unit_amount]": "1299",
		"line_items[0][price_data][product_data][name]": "Cold email opener",
		"payment_intent_data[metadata][user_id]":        "user-1",
		"payment_intent_data[metadata][prompt_id]":      "prompt-1",
	}
	for k, v := range want {
		if got := req.form.Get(k); got != v {
			t.Errorf("param %s = %q, want %q", k, got, v)
		}
	}
}

func TestStripeGetSession(t *testing.T) {
	t.Parallel()
	p := payments.NewStripe("sk_test_123", stripeMockURL(t))
	sess, err := p.GetSession(t.Context(), "cs_test_lookup")
	if err != nil {
		t.Fatalf("GetSession: %v", err)
	}
	// stripe-mock answers its fixture with the id asked for.
	if sess.ID != "cs_test_lookup" {
		t.Errorf("id = %q, want cs_test_lookup", sess.ID)
	}
	if sess.Status != "open" || sess.PaymentStatus != "unpaid" || sess.Paid() {
		t.Errorf("session = %+v, want the open, unpaid fixture", sess)
	}
	if sess.PaymentIntent == "" {
		t.Errorf("payment intent not read from the session: %+v", sess)
	}

	// Stripe's 404 is the provider's unknown session.
	if _, err := p.GetSession(t.Context(), ""); !errors.Is(err, payments.ErrUnknownSession) {
		t.Errorf("GetSession(\"\") error = %v, want ErrUnknownSession", err)
	}
}

// stripe-mock must really check parameters against the spec, or the success
// of CreateCheckout above would prove nothing.
func TestStripeMockRefusesInvalidParameters(t *testing.T) {
	t.Parallel()
	sc := stripe.NewClient("sk_test_123", stripe.WithBackends(stripe.NewBackendsWithConfig(
		&stripe.BackendConfig{URL: stripe.String(stripeMockURL(t)), HTTPClient: &http.Client{}})))
	valid := func() *stripe.CheckoutSessionCreateParams {
		return &stripe.CheckoutSessionCreateParams{
			Mode: stripe.String("payment"), SuccessURL: stripe.String("http://x/s"),
			LineItems: []*stripe.CheckoutSessionCreateLineItemParams{{
				Quantity: stripe.Int64(1),
				PriceData: &stripe.CheckoutSessionCreateLineItemPriceDataParams{
					Currency: stripe.String("usd"), UnitAmount: stripe.Int64(100),
					ProductData: &stripe.CheckoutSessionCreateLineItemPriceDataProductDataParams{Name: stripe.String("x")},
				},
			}},
		}
	}
	tests := []struct {
		name   string
		mutate func(p *stripe.CheckoutSessionCreateParams)
	}{
		{"unknown parameter", func(p *stripe.CheckoutSessionCreateParams) { p.AddExtra("prompt_id", "p1") }},
		{"mode not in the enumeration", func(p *stripe.CheckoutSessionCreateParams) { p.Mode = stripe.String("purchase") }},
		{"price without currency", func(p *stripe.CheckoutSessionCreateParams) { p.LineItems[0].PriceData.Currency = nil }},
	}
	if _, err := sc.V1CheckoutSessions.Create(t.Context(), valid()); err != nil {
		t.Fatalf("valid parameters refused: %v", err)
	}
	for _, tc := range tests {
		params := valid()
		tc.mutate(params)
		_, err := sc.V1CheckoutSessions.Create(t.Context(), params)
		var serr *stripe.Error
		if !errors.As(err, &serr) || serr.HTTPStatusCode != http.StatusBadRequest {
			t.Errorf("%s: error = %v, want a 400 from stripe-mock", tc.name, err)
		}
	}
}

// Stripe refusing a request (here: a live key, which stripe-mock rejects)
// is an error from the provider, never a session or an unknown-session answer.
func TestStripeRefusalIsAnError(t *testing.T) {
	t.Parallel()
	p := payments.NewStripe("sk_live_not_a_test_key", stripeMockURL(t))
	sess, err := p.CreateCheckout(t.Context(), checkoutRequest())
	var serr *stripe.Error
	if !errors.As(err, &serr) || serr.HTTPStatusCode != http.StatusUnauthorized {
		t.Errorf("CreateCheckout = %+v, %v; want the 401 from stripe-mock", sess, err)
	}
	_, err = p.GetSession(t.Context(), "cs_test_x")
	if err == nil || errors.Is(err, payments.ErrUnknownSession) {
		t.Errorf("GetSession error = %v, want a provider error other than ErrUnknownSession", err)
	}
}

func TestSessionPaid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		status, paymentStatus string
		want                  bool
	}{
		{"complete", "paid", true},
		{"complete", "no_payment_required", true},
		{"complete", "unpaid", false},
		{"open", "unpaid", false},
		{"open", "paid", false},
		{"expired", "unpaid", false},
		{"expired", "paid", false},
		{"", "", false},
	}
	for _, tc := range tests {
		s := payments.Session{Status: tc.status, PaymentStatus: tc.paymentStatus}
		if got := s.Paid(); got != tc.want {
			t.Errorf("Session{Status: %q, PaymentStatus: %q}.Paid() = %v, want %v", tc.status, tc.paymentStatus, got, tc.want)
		}
	}
}

// A duplicate payment's refund: POST /v1/refunds for the payment intent,
// reason duplicate, with our idempotency key (so retries refund once).
func TestStripeRefund(t *testing.T) {
	t.Parallel()
	proxy := newRecordingProxy(t)
	p := payments.NewStripe("sk_test_123", proxy.srv.URL)
	id, err := p.Refund(t.Context(), payments.RefundRequest{
		SessionID: "cs_test_dup", PaymentIntent: "pi_test_dup", AmountCents: 599, IdempotencyKey: "duplicate-refund-cs_test_dup",
	})
	if err != nil {
		t.Fatalf("Refund: %v (stripe-mock refused our parameters?)", err)
	}
	if !strings.HasPrefix(id, "re_") {
		t.Errorf("refund id = %q, want a re_ id", id)
	}
	req := proxy.last(t)
	if req.method != http.MethodPost || req.path != "/v1/refunds" {
		t.Errorf("request = %s %s, want POST /v1/refunds", req.method, req.path)
	}
	if got, want := req.header.Get("Idempotency-Key"), "duplicate-refund-cs_test_dup"; got != want {
		t.Errorf("Idempotency-Key = %q, want %q", got, want)
	}
	for k, v := range map[string]string{"payment_intent": "pi_test_dup", "reason": "duplicate", "metadata[session_id]": "cs_test_dup"} {
		if got := req.form.Get(k); got != v {
			t.Errorf("param %s = %q, want %q", k, got, v)
		}
	}
}

// Expiring a superseded session: POST /v1/checkout/sessions/{id}/expire.
func TestStripeExpireSession(t *testing.T) {
	t.Parallel()
	proxy := newRecordingProxy(t)
	p := payments.NewStripe("sk_test_123", proxy.srv.URL)
	if err := p.ExpireSession(t.Context(), "cs_test_other"); err != nil {
		t.Fatalf("ExpireSession: %v", err)
	}
	req := proxy.last(t)
	if req.method != http.MethodPost || req.path != "/v1/checkout/sessions/cs_test_other/expire" {
		t.Errorf("request = %s %s, want POST /v1/checkout/sessions/cs_test_other/expire", req.method, req.path)
	}
}
