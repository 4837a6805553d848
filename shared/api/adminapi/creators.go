package adminapi

import (
	"errors"
	"net/http"

	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/store"
)

// The creators: every user who sells prompts, with their payout status
// and prompts, suspended (their prompts leave the marketplace at once;
// buyers keep them) and unsuspended, with their sales (count and net, USD)
// from the creator's ledger.

type creatorView struct {
	UserID         string         `json:"id"`
	Username       string         `json:"username"`
	DisplayName    string         `json:"display_name"`
	Country        string         `json:"country"`
	Suspended      bool           `json:"suspended"`
	PayoutsStatus  string         `json:"payouts_status"`
	ChargesEnabled bool           `json:"charges_enabled"`
	PayoutsEnabled bool           `json:"payouts_enabled"`
	Prompts        map[string]int `json:"prompts"`
	Sales          int64          `json:"sales"`
	Net            float64        `json:"net"`
	CreatedAt      string         `json:"created_at"`
}

func (s *Service) creatorRoutes(mux *http.ServeMux) {
	mux.Handle("GET "+Prefix+"creators", s.admin(s.listCreators))
	mux.Handle("POST "+Prefix+"creators/{id}/suspend", s.admin(s.suspendCreator(true)))
	mux.Handle("POST "+Prefix+"creators/{id}/unsuspend", s.admin(s.suspendCreator(false)))
}

func (s *Service) presentCreator(r *http.Request, c domain.Creator) (creatorView, error) {
	ps, err := s.st.CreatorPrompts(r.Context(), c.UserID)
	if err != nil {
		return creatorView{}, err
	}
	counts := map[string]int{domain.PromptDraft: 0, domain.PromptInReview: 0, domain.PromptPublished: 0, domain.PromptRejected: 0}
	for _, p := range ps {
		counts[p.State]++
	}
	total, err := s.st.CreatorTotal(r.Context(), c.UserID)
	if err != nil {
		return creatorView{}, err
	}
	return creatorView{Sales: total.Sales, Net: float64(total.NetCents) / 100, UserID: c.UserID, Username: c.Username, DisplayName: c.DisplayName, Country: c.Country, Suspended: c.Suspended,
		PayoutsStatus: c.PayoutsStatus, ChargesEnabled: c.ChargesEnabled, PayoutsEnabled: c.PayoutsEnabled, Prompts: counts,
		CreatedAt: utcSeconds(c.CreatedAt)}, nil
}

// listCreators answers a page of the creators, newest first, each with
// its prompts counted by state (a query of the creator's own prompts).
func (s *Service) listCreators(w http.ResponseWriter, r *http.Request) error {
	limit, _, err := pageParams(r)
	if err != nil {
		return err
	}
	cs, next, total, err := s.st.AdminCreators(r.Context(), store.CreatorQuery{Limit: limit, Cursor: r.URL.Query().Get("cursor")})
	if errors.Is(err, store.ErrBadCursor) {
		return httpx.Invalid("cursor is not one this API gave")
	}
	if err != nil {
		return err
	}
	views := make([]creatorView, len(cs))
	for i, c := range cs {
		if views[i], err = s.presentCreator(r, c); err != nil {
			return err
		}
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"items": views, "next_cursor": next, "total": total})
	return nil
}

func (s *Service) suspendCreator(on bool) httpx.HandlerFunc {
	action := "creator.unsuspend"
	if on {
		action = "creator.suspend"
	}
	return func(w http.ResponseWriter, r *http.Request) error {
		uid := r.PathValue("id")
		cur, err := s.st.GetCreator(r.Context(), uid)
		if errors.Is(err, store.ErrNotFound) {
			return httpx.NotFound("Creator not found.")
		}
		if err != nil {
			return err
		}
		var after domain.Creator
		audit := s.audit(r.Context(), action, "creator", uid, map[string]any{"suspended": cur.Suspended}, map[string]any{"suspended": on})
		err = s.st.WithAudit(r.Context(), audit, func() error {
			var err error
			after, err = s.st.SetCreatorSuspended(r.Context(), uid, on)
			return err
		})
		if errors.Is(err, store.ErrNotFound) {
			return httpx.NotFound("Creator not found.")
		}
		if err != nil {
			return err
		}
		v, err := s.presentCreator(r, after)
		if err != nil {
			return err
		}
		httpx.WriteJSON(w, http.StatusOK, v)
		return nil
	}
}
