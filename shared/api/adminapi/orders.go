package adminapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/payments"
	"aiwork/shared/random"
	"aiwork/shared/store"
)

// Orders: the listing (state, buyer, prompt, dates), one order with the
// provider's events about it, and the refund (through the payments
// provider, once however often it is clicked).

// MaxRefundReason bounds a refund's reason.
const MaxRefundReason = 500

// How long a refund's claim on an order holds against another click (a
// request runs 30 s at most, so a claim this old is a dead request's), and
// how long a second click waits for the first click's refund.
const (
	refundClaimStale = 2 * time.Minute
	refundWait       = 10 * time.Second
)

// orderStates maps the listing's state= to the stored states.
var orderStates = map[string]string{
	"pending": domain.OrderPending, "paid": domain.OrderPaid, "refunded": domain.OrderRefunded,
	"expired": domain.OrderExpired, "failed": domain.OrderFailed,
}

type orderView struct {
	ID        string `json:"id"`
	UserID    string `json:"user_id"`
	UserEmail string `json:"user_email"`
	// Kind is what was bought, "prompt" or "agent"; PromptID and
	// PromptTitle name it (an agent's id and name).
	Kind          string  `json:"kind"`
	PromptID      string  `json:"prompt_id"`
	PromptTitle   string  `json:"prompt_title"`
	Amount        float64 `json:"amount"`
	Status        string  `json:"status"`
	CreatedAt     string  `json:"created_at"`
	PaidAt        string  `json:"paid_at,omitempty"`
	RefundedAt    string  `json:"refunded_at,omitempty"`
	PaymentIntent string  `json:"payment_intent,omitempty"`
	RefundReason  string  `json:"refund_reason,omitempty"`
}

type orderEventView struct {
	ID         string `json:"id"`
	Type       string `json:"type"`
	ReceivedAt string `json:"received_at"`
}

// orderCreatorView names the creator of a creator's sale.
type orderCreatorView struct {
	Username    string `json:"username"`
	DisplayName string `json:"display_name"`
}

type orderDetailView struct {
	orderView
	// Creator, Fee and Net: a creator's sale and how it split (USD); the
	// platform's own sales have no creator and no split.
	Creator *orderCreatorView `json:"creator"`
	Fee     *float64          `json:"fee,omitempty"`
	Net     *float64          `json:"net,omitempty"`
	Events  []orderEventView  `json:"events"`
}

func presentOrder(o domain.Order, email string) orderView {
	return orderView{ID: o.SessionID, UserID: o.UserID, UserEmail: email, Kind: domain.KindOf(o.Kind), PromptID: o.PromptID, PromptTitle: o.PromptTitle,
		Amount: o.Amount, Status: strings.ToLower(o.Status), CreatedAt: storedTime(o.CreatedAt), PaidAt: storedTime(o.PaidAt),
		RefundedAt: storedTime(o.RefundedAt), PaymentIntent: o.PaymentIntent, RefundReason: o.RefundReason}
}

// storedTime renders a stored RFC 3339 time as the API's ("" stays "").
func storedTime(s string) string {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return s
	}
	return utcSeconds(t)
}

func (s *Service) orderRoutes(mux *http.ServeMux) {
	mux.Handle("GET "+Prefix+"orders", s.admin(s.listOrders))
	mux.Handle("GET "+Prefix+"orders/{id}", s.admin(s.getOrder))
	mux.Handle("POST "+Prefix+"orders/{id}/refund", s.admin(s.refundOrder))
}

// emails answers the buyers' emails (a buyer whose account is gone: "").
func (s *Service) emails(ctx context.Context, orders []domain.Order) (map[string]string, error) {
	out := map[string]string{}
	for _, o := range orders {
		if _, seen := out[o.UserID]; seen {
			continue
		}
		u, err := s.st.GetUser(ctx, o.UserID)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, err
		}
		out[o.UserID] = u.Email
	}
	return out, nil
}

// listOrders answers the orders, newest first: state=, user= (an id or an
// email), prompt= (an id), from= and to= (dates, UTC, both days included).
func (s *Service) listOrders(w http.ResponseWriter, r *http.Request) error {
	limit, _, err := pageParams(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	query := store.OrderQuery{PromptID: strings.TrimSpace(q.Get("prompt")), Limit: limit, Cursor: q.Get("cursor")}
	if st := q.Get("state"); st != "" {
		stored, ok := orderStates[st]
		if !ok {
			return httpx.Invalid("state must be pending, paid, refunded, expired or failed")
		}
		query.Status = stored
	}
	if query.From, err = dateParam(q.Get("from"), "from"); err != nil {
		return err
	}
	if query.To, err = dateParam(q.Get("to"), "to"); err != nil {
		return err
	}
	if !query.To.IsZero() {
		query.To = query.To.AddDate(0, 0, 1) // to= is the last day listed
	}
	if !query.From.IsZero() && !query.To.IsZero() && !query.From.Before(query.To) {
		return httpx.Invalid("from must not be after to")
	}
	if user := strings.TrimSpace(q.Get("user")); strings.Contains(user, "@") {
		u, err := s.st.UserByEmail(r.Context(), user)
		if errors.Is(err, store.ErrNotFound) {
			writePage(w, []orderView{}, "", 0) // nobody has that email: nobody's orders
			return nil
		}
		if err != nil {
			return err
		}
		query.UserID = u.ID
	} else {
		query.UserID = user
	}
	orders, next, total, err := s.st.AdminOrders(r.Context(), query)
	if errors.Is(err, store.ErrBadCursor) {
		return httpx.Invalid("cursor is not one this API gave (for these filters)")
	}
	if err != nil {
		return err
	}
	emails, err := s.emails(r.Context(), orders)
	if err != nil {
		return err
	}
	items := make([]orderView, len(orders))
	for i, o := range orders {
		items[i] = presentOrder(o, emails[o.UserID])
	}
	writePage(w, items, next, total)
	return nil
}

// dateParam reads a date (2006-01-02, UTC) named name; "" is none.
func dateParam(v, name string) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.DateOnly, v)
	if err != nil {
		return t, httpx.Invalid(fmt.Sprintf("%s must be a date like 2026-01-31 (UTC)", name))
	}
	return t, nil
}

func (s *Service) orderOr404(r *http.Request) (domain.Order, error) {
	o, err := s.st.GetOrder(r.Context(), r.PathValue("id"))
	if errors.Is(err, store.ErrNotFound) {
		return o, httpx.NotFound("Order not found.")
	}
	return o, err
}

// viewOf is the order as the API shows it, its buyer's email read.
func (s *Service) viewOf(ctx context.Context, o domain.Order) (orderView, error) {
	emails, err := s.emails(ctx, []domain.Order{o})
	if err != nil {
		return orderView{}, err
	}
	return presentOrder(o, emails[o.UserID]), nil
}

// getOrder answers one order with the provider's events about it, oldest
// first.
func (s *Service) getOrder(w http.ResponseWriter, r *http.Request) error {
	o, err := s.orderOr404(r)
	if err != nil {
		return err
	}
	view, err := s.viewOf(r.Context(), o)
	if err != nil {
		return err
	}
	events, err := s.st.OrderEvents(r.Context(), o.SessionID)
	if err != nil {
		return err
	}
	out := orderDetailView{orderView: view, Events: make([]orderEventView, len(events))}
	if err := s.addSplit(r.Context(), o.SessionID, &out); err != nil {
		return err
	}
	for i, e := range events {
		out.Events[i] = orderEventView{ID: e.ID, Type: e.Type, ReceivedAt: utcSeconds(e.ReceivedAt)}
	}
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}

// addSplit fills in the creator and the split of a creator's sale.
func (s *Service) addSplit(ctx context.Context, sid string, out *orderDetailView) error {
	split, err := s.st.GetOrderSplit(ctx, sid)
	if err != nil || split.CreatorID == "" {
		return err
	}
	c, err := s.st.GetCreator(ctx, split.CreatorID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	fee, net := float64(split.FeeCents)/100, float64(split.NetCents)/100
	out.Creator = &orderCreatorView{Username: c.Username, DisplayName: c.DisplayName}
	out.Fee, out.Net = &fee, &net
	return nil
}

type refundInput struct {
	Reason *string `json:"reason"`
}

// decodeOptional reads a JSON object body into dst when there is one (an
// empty body is no fields).
func decodeOptional(w http.ResponseWriter, r *http.Request, dst any) error {
	if r.Body == nil || r.Body == http.NoBody {
		return nil
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, httpx.MaxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return &httpx.Error{Code: httpx.CodeTooLarge, Detail: fmt.Sprintf("Request body is larger than %d KiB.", httpx.MaxBodyBytes>>10)}
		}
		return httpx.Invalid("Could not read the request body.")
	}
	if strings.TrimSpace(string(body)) == "" {
		return nil
	}
	r.Body = io.NopCloser(strings.NewReader(string(body)))
	return httpx.DecodeJSON(w, r, dst)
}

// errProvider is a refund the payments provider did not make.
type errProvider struct{ err error }

func (e errProvider) Error() string { return e.err.Error() }
func (e errProvider) Unwrap() error { return e.err }

// refundOrder refunds a paid order through the payments provider (the
// order's id is the idempotency key) and takes the buyer's ownership back.
// Refunded already (a second click, or the provider's own refund): the
// order is answered again, nothing more is done. Of two clicks at once one
// refunds (its claim on the order), the other waits for it and answers the
// refunded order.
func (s *Service) refundOrder(w http.ResponseWriter, r *http.Request) error {
	var in refundInput
	if err := decodeOptional(w, r, &in); err != nil {
		return err
	}
	reason := ""
	if in.Reason != nil {
		reason = strings.Join(strings.Fields(*in.Reason), " ")
		switch {
		case utf8.RuneCountInString(reason) > MaxRefundReason:
			return httpx.Invalid(fmt.Sprintf("reason must be at most %d characters", MaxRefundReason))
		case strings.IndexFunc(reason, unicode.IsControl) >= 0:
			return httpx.Invalid("reason must not contain control characters")
		}
	}
	ctx := r.Context()
	o, err := s.orderOr404(r)
	if err != nil {
		return err
	}
	switch o.Status {
	case domain.OrderRefunded:
		return s.answerOrder(ctx, w, o)
	case domain.OrderPaid:
	default:
		return s.notRefundable(ctx, w, o)
	}
	if s.opts.Payments == nil {
		return httpx.Errorf(httpx.CodeUnavailable, "Refunds are not available: this site has no payments provider.")
	}
	now := s.opts.Now().UTC()
	before, err := s.viewOf(ctx, o)
	if err != nil {
		return err
	}
	after := before
	after.Status, after.RefundedAt, after.RefundReason = strings.ToLower(domain.OrderRefunded), utcSeconds(now), reason
	f := payments.NewFulfiller(s.st, s.opts.Payments)
	claim := newClaimID()
	var (
		refunded  domain.Order
		recordErr error
	)
	err = s.st.WithAudit(ctx, s.audit(ctx, "order.refund", "order", o.SessionID, before, after), func() error {
		cur, err := s.st.ClaimOrderRefund(ctx, o.SessionID, claim, now, refundClaimStale)
		if err != nil {
			return err
		}
		if err := f.RefundAtProvider(ctx, cur); err != nil {
			s.releaseClaim(ctx, o.SessionID, claim)
			return errProvider{err}
		}
		// The money went back: the change happened, whatever follows (a
		// failure here is finished by a retry or the provider's event).
		if refunded, recordErr = f.RefundOrder(ctx, o.SessionID, reason); recordErr != nil {
			s.releaseClaim(ctx, o.SessionID, claim)
		}
		return nil
	})
	var provider errProvider
	switch {
	case errors.Is(err, store.ErrRefundUnderWay):
		return s.awaitRefund(ctx, w, o.SessionID)
	case errors.Is(err, store.ErrOrderState):
		// Refunded (or otherwise moved on) since it was read.
		cur, gerr := s.st.GetOrder(ctx, o.SessionID)
		if gerr != nil {
			return gerr
		}
		if cur.Status == domain.OrderRefunded {
			return s.answerOrder(ctx, w, cur)
		}
		return s.notRefundable(ctx, w, cur)
	case errors.Is(err, store.ErrNotFound):
		return httpx.NotFound("Order not found.")
	case errors.As(err, &provider):
		slog.ErrorContext(ctx, "refund refused by the payments provider", "order", o.SessionID, "err", provider.err)
		return httpx.Errorf(httpx.CodeUpstream, "The payments provider did not make the refund, so nothing changed. Please try again in a few minutes.")
	case err != nil:
		return err
	case recordErr != nil:
		slog.ErrorContext(ctx, "refunded at the provider, not recorded", "order", o.SessionID, "err", recordErr)
		return httpx.Errorf(httpx.CodeInternal, "The payment was refunded, but the order could not be updated: click Refund again to finish (no second refund is made).")
	}
	return s.answerOrder(ctx, w, refunded)
}

func (s *Service) releaseClaim(ctx context.Context, sid, claim string) {
	if err := s.st.ReleaseOrderRefund(context.WithoutCancel(ctx), sid, claim); err != nil {
		slog.WarnContext(ctx, "refund claim not released (it lapses)", "order", sid, "err", err)
	}
}

func newClaimID() string { return random.Hex(8) }

// answerOrder answers 200 with the order.
func (s *Service) answerOrder(ctx context.Context, w http.ResponseWriter, o domain.Order) error {
	view, err := s.viewOf(ctx, o)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, view)
	return nil
}

// notRefundable answers 409: only a paid order is refunded.
func (s *Service) notRefundable(ctx context.Context, w http.ResponseWriter, o domain.Order) error {
	view, err := s.viewOf(ctx, o)
	if err != nil {
		return err
	}
	writeConflict(w, fmt.Sprintf("Only a paid order can be refunded; this one is %s.", view.Status), view)
	return nil
}

// awaitRefund waits for another click's refund of order sid and answers
// the refunded order; 409 when it has not finished in refundWait.
func (s *Service) awaitRefund(ctx context.Context, w http.ResponseWriter, sid string) error {
	deadline := time.Now().Add(refundWait)
	for delay := 20 * time.Millisecond; ; delay = min(2*delay, 250*time.Millisecond) {
		cur, err := s.st.GetOrder(ctx, sid)
		if err != nil {
			return err
		}
		if cur.Status == domain.OrderRefunded {
			return s.answerOrder(ctx, w, cur)
		}
		if cur.Status != domain.OrderPaid || time.Now().After(deadline) {
			view, err := s.viewOf(ctx, cur)
			if err != nil {
				return err
			}
			writeConflict(w, "A refund of this order is under way; reload it in a moment.", view)
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
	}
}
