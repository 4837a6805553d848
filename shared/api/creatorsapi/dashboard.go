package creatorsapi

import (
	"context"
	"errors"
	"log/slog"
	"net/http"

	"aiwork/shared/auth"
	"aiwork/shared/httpx"
	"aiwork/shared/store"
)

// dashboardPrompt is one of the creator's prompts with its sales.
type dashboardPrompt struct {
	ID        string  `json:"id"`
	Title     string  `json:"title"`
	Sales     int64   `json:"sales"`
	Net       float64 `json:"net"`
	FreeUses  int64   `json:"free_uses"`
	RatingAvg float64 `json:"rating_avg"`
}

// dashboardAgent is one of the creator's agents with its sales.
type dashboardAgent struct {
	ID    string  `json:"id"`
	Name  string  `json:"name"`
	Sales int64   `json:"sales"`
	Net   float64 `json:"net"`
}

type balanceView struct {
	Currency  string  `json:"currency"`
	Available float64 `json:"available"`
	Pending   float64 `json:"pending"`
}

// dashboardView is what the creator earned, in USD: counts and amounts
// only, never a buyer.
type dashboardView struct {
	Sales   int64             `json:"sales"`
	Gross   float64           `json:"gross"`
	Fees    float64           `json:"fees"`
	Net     float64           `json:"net"`
	Refunds float64           `json:"refunds"`
	Prompts []dashboardPrompt `json:"prompts"`
	Agents  []dashboardAgent  `json:"agents"`
	// Balance is Stripe's, when the creator has an account and Stripe
	// answered; BalanceUnavailable says it could not be read.
	Balance            *balanceView `json:"balance,omitempty"`
	BalanceUnavailable bool         `json:"balance_unavailable,omitempty"`
	LoginURL           string       `json:"login_url,omitempty"`
}

func usd(cents int64) float64 { return float64(cents) / 100 }

// getDashboard answers the caller's sales ledger: totals (prompts and
// agents together), each of their prompts and agents (sold or not), and their Stripe balance and Express dashboard
// link when they have a payout account.
func (s *Service) getDashboard(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	uid, _ := auth.UserID(ctx)
	if _, err := s.st.GetCreator(ctx, uid); errors.Is(err, store.ErrNotFound) {
		return httpx.NotFound(msgNotCreator)
	} else if err != nil {
		return err
	}
	total, counted, err := s.st.CreatorLedgerOf(ctx, uid)
	if err != nil {
		return err
	}
	ps, err := s.st.CreatorPrompts(ctx, uid)
	if err != nil {
		return err
	}
	byPrompt := make(map[string]store.CreatorLedger, len(counted))
	for _, l := range counted {
		byPrompt[l.PromptID] = l
	}
	out := dashboardView{Sales: total.Sales, Gross: usd(total.GrossCents), Fees: usd(total.FeeCents), Net: usd(total.NetCents),
		Refunds: usd(total.RefundCents), Prompts: make([]dashboardPrompt, 0, len(ps))}
	for _, p := range ps {
		l := byPrompt[p.ID]
		out.Prompts = append(out.Prompts, dashboardPrompt{ID: p.ID, Title: p.Title, Sales: l.Sales, Net: usd(l.NetCents),
			FreeUses: l.FreeUses, RatingAvg: p.RatingAvg()})
	}
	if out.Agents, err = s.agentSales(ctx, uid); err != nil {
		return err
	}
	acct, err := s.st.CreatorStripeAccount(ctx, uid)
	if err != nil {
		return err
	}
	if conn := s.opts.Connect; acct != "" && conn != nil {
		if b, err := conn.Balance(ctx, acct); err != nil {
			// The ledger stands on its own; Stripe's part is left out.
			slog.WarnContext(ctx, "creator balance", "err", err)
			out.BalanceUnavailable = true
		} else {
			out.Balance = &balanceView{Currency: b.Currency, Available: usd(b.AvailableCents), Pending: usd(b.PendingCents)}
		}
		if link, err := conn.LoginLink(ctx, acct); err != nil {
			slog.WarnContext(ctx, "creator login link", "err", err)
		} else {
			out.LoginURL = link
		}
	}
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}

// agentSales is each of the creator's agents with its sales and net (an
// agent deleted after a refund took its last sale back is left out).
func (s *Service) agentSales(ctx context.Context, uid string) ([]dashboardAgent, error) {
	counted, err := s.st.CreatorAgentLedger(ctx, uid)
	if err != nil {
		return nil, err
	}
	as, err := s.st.CreatorAgents(ctx, uid)
	if err != nil {
		return nil, err
	}
	byAgent := make(map[string]store.CreatorLedger, len(counted))
	for _, l := range counted {
		byAgent[l.AgentID] = l
	}
	out := make([]dashboardAgent, 0, len(as))
	for _, a := range as {
		l := byAgent[a.ID]
		out = append(out, dashboardAgent{ID: a.ID, Name: a.Name, Sales: l.Sales, Net: usd(l.NetCents)})
	}
	return out, nil
}
