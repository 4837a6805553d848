package payments

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/stripe/stripe-go/v84"
)

// StripeProvider talks to Stripe's API (or stripe-mock in tests).
type StripeProvider struct {
	client *stripe.Client
}

var _ Provider = (*StripeProvider)(nil)

// StripeTimeout bounds one request to Stripe, and StripeRetries its
// retries (each under the same idempotency key): a Stripe that answers
// nothing costs a checkout at most 2 × 10 s, inside API Gateway's 29 s,
// instead of stripe-go's default 80 s a try.
const (
	StripeTimeout = 10 * time.Second
	StripeRetries = 1
)

// NewStripe makes the provider; apiURL overrides Stripe's API address (tests).
func NewStripe(secretKey, apiURL string) *StripeProvider {
	return NewStripeWithTimeout(secretKey, apiURL, StripeTimeout)
}

// NewStripeWithTimeout is NewStripe with each request bounded by timeout.
func NewStripeWithTimeout(secretKey, apiURL string, timeout time.Duration) *StripeProvider {
	cfg := &stripe.BackendConfig{HTTPClient: &http.Client{Timeout: timeout}, MaxNetworkRetries: stripe.Int64(StripeRetries)}
	if apiURL != "" {
		cfg.URL = stripe.String(apiURL)
	}
	return &StripeProvider{client: stripe.NewClient(secretKey, stripe.WithBackends(stripe.NewBackendsWithConfig(cfg)))}
}

func (p *StripeProvider) Name() string { return "stripe" }

// CreateCheckout opens a Checkout Session in payment mode priced from the prompt.
func (p *StripeProvider) CreateCheckout(ctx context.Context, req CheckoutRequest) (Session, error) {
	params := &stripe.CheckoutSessionCreateParams{
		Mode:              stripe.String(string(stripe.CheckoutSessionModePayment)),
		ClientReferenceID: stripe.String(req.UserID),
		SuccessURL:        stripe.String(req.SuccessURL),
		CancelURL:         stripe.String(req.CancelURL),
		Metadata:          req.metadata(),
		LineItems: []*stripe.CheckoutSessionCreateLineItemParams{{
			Quantity: stripe.Int64(1),
			PriceData: &stripe.CheckoutSessionCreateLineItemPriceDataParams{
				Currency:    stripe.String("usd"),
				UnitAmount:  stripe.Int64(req.AmountCents),
				ProductData: &stripe.CheckoutSessionCreateLineItemPriceDataProductDataParams{Name: stripe.String(req.ProductName)},
			},
		}},
		PaymentIntentData: &stripe.CheckoutSessionCreatePaymentIntentDataParams{
			Metadata: req.metadata(),
		},
	}
	if req.Destination != "" {
		// A creator's prompt: a destination charge; the creator's account
		// receives the price less the platform's fee.
		params.PaymentIntentData.ApplicationFeeAmount = stripe.Int64(req.ApplicationFeeCents)
		params.PaymentIntentData.TransferData = &stripe.CheckoutSessionCreatePaymentIntentDataTransferDataParams{
			Destination: stripe.String(req.Destination),
		}
	}
	params.SetIdempotencyKey(req.IdempotencyKey)
	s, err := p.client.V1CheckoutSessions.Create(ctx, params)
	if err != nil {
		return Session{}, fmt.Errorf("stripe create checkout: %w", err)
	}
	return fromStripe(s), nil
}

// GetSession retrieves a session from Stripe.
func (p *StripeProvider) GetSession(ctx context.Context, id string) (Session, error) {
	s, err := p.client.V1CheckoutSessions.Retrieve(ctx, id, nil)
	var serr *stripe.Error
	if errors.As(err, &serr) && serr.HTTPStatusCode == http.StatusNotFound {
		return Session{}, ErrUnknownSession
	}
	if err != nil {
		return Session{}, fmt.Errorf("stripe retrieve checkout: %w", err)
	}
	return fromStripe(s), nil
}

// Refund refunds the whole payment intent, for the request's reason.
func (p *StripeProvider) Refund(ctx context.Context, req RefundRequest) (string, error) {
	params := &stripe.RefundCreateParams{
		PaymentIntent: stripe.String(req.PaymentIntent),
		Reason:        stripe.String(req.reason()),
		Metadata:      map[string]string{"session_id": req.SessionID},
	}
	if req.Split {
		params.ReverseTransfer = stripe.Bool(true)
		params.RefundApplicationFee = stripe.Bool(true)
	}
	params.SetIdempotencyKey(req.IdempotencyKey)
	r, err := p.client.V1Refunds.Create(ctx, params)
	if err != nil {
		return "", fmt.Errorf("stripe refund: %w", err)
	}
	return r.ID, nil
}

// ExpireSession expires an open session; Stripe refuses one that is not
// open, which is what we wanted anyway.
func (p *StripeProvider) ExpireSession(ctx context.Context, id string) error {
	_, err := p.client.V1CheckoutSessions.Expire(ctx, id, nil)
	if err == nil {
		return nil
	}
	if s, gerr := p.GetSession(ctx, id); gerr == nil && s.Status != "open" {
		return nil
	}
	return fmt.Errorf("stripe expire checkout: %w", err)
}

// fromStripe reads the fields we use from a Stripe checkout session.
func fromStripe(s *stripe.CheckoutSession) Session {
	out := Session{
		ID: s.ID, URL: s.URL, Status: string(s.Status), PaymentStatus: string(s.PaymentStatus),
		AmountCents: s.AmountTotal, Currency: string(s.Currency),
		UserID: s.Metadata["user_id"], PromptID: s.Metadata["prompt_id"], Kind: s.Metadata["kind"],
	}
	if out.UserID == "" {
		out.UserID = s.ClientReferenceID
	}
	if s.PaymentIntent != nil {
		out.PaymentIntent = s.PaymentIntent.ID
	}
	return out
}
