package usersapi

import (
	"cmp"
	"math"
	"net/http"
	"slices"
	"time"

	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/llm"
)

// usageView is GET /api/v1/users/usage: the caller's chat tokens and cost
// today and this month (UTC), per provider and model, and the chat limits.
type usageView struct {
	Today  dayView    `json:"today"`
	Month  monthView  `json:"month"`
	Limits limitsView `json:"limits"`
}

type dayView struct {
	Date string `json:"date"` // 2006-01-02
	totalsView
}

type monthView struct {
	Month string `json:"month"` // 2006-01
	totalsView
}

type totalsView struct {
	InputTokens  int         `json:"input_tokens"`
	OutputTokens int         `json:"output_tokens"`
	CostUSD      float64     `json:"cost_usd"`
	Requests     int         `json:"requests"`
	ByModel      []modelView `json:"by_model"`
}

type modelView struct {
	Provider     string  `json:"provider"`
	Model        string  `json:"model"`
	Demo         bool    `json:"demo"` // the local demo model: estimated tokens, no cost
	InputTokens  int     `json:"input_tokens"`
	OutputTokens int     `json:"output_tokens"`
	CostUSD      float64 `json:"cost_usd"`
	Requests     int     `json:"requests"`
}

// limitsView reports the limits; 0 means no limit.
type limitsView struct {
	DailyTokenBudget     int    `json:"daily_token_budget"`
	TokensUsedToday      int    `json:"tokens_used_today"`
	ResetsAt             string `json:"resets_at"` // next 00:00 UTC, RFC 3339
	MaxConcurrentStreams int    `json:"max_concurrent_streams"`
	RequestsPerMinute    int    `json:"requests_per_minute"`
}

// usage reads the month's day items (one Query) and sums them.
func (s *Service) usage(w http.ResponseWriter, r *http.Request) error {
	uid, _ := auth.UserID(r.Context())
	now := s.opts.Now().UTC()
	days, err := s.st.ChatUsageMonth(r.Context(), uid, now)
	if err != nil {
		return err
	}
	today := now.Format("2006-01-02")
	var todays, all []domain.ModelUsage
	for _, d := range days {
		all = append(all, d.Models...)
		if d.Date == today {
			todays = append(todays, d.Models...)
		}
	}
	v := usageView{
		Today: dayView{Date: today, totalsView: totals(todays)},
		Month: monthView{Month: now.Format("2006-01"), totalsView: totals(all)},
	}
	lim := s.opts.ChatLimits
	v.Limits = limitsView{
		DailyTokenBudget:     lim.DailyTokenBudget,
		TokensUsedToday:      v.Today.InputTokens + v.Today.OutputTokens,
		ResetsAt:             domain.NextUTCDay(now).Format(time.RFC3339),
		MaxConcurrentStreams: lim.MaxConcurrentStreams,
		RequestsPerMinute:    lim.RequestsPerMinute,
	}
	httpx.WriteJSON(w, http.StatusOK, v)
	return nil
}

// totals merges usage per provider, model and demo, prices each model from
// the catalogue (llm.Providers, LLM_MODEL_MAP applied; the demo model costs
// nothing) and orders the models by cost, then tokens.
func totals(usage []domain.ModelUsage) totalsView {
	type k struct {
		provider, model string
		demo            bool
	}
	merged := map[k]*modelView{}
	for _, u := range usage {
		key := k{u.Provider, u.Model, u.Demo}
		m := merged[key]
		if m == nil {
			m = &modelView{Provider: u.Provider, Model: u.Model, Demo: u.Demo}
			merged[key] = m
		}
		m.InputTokens += u.InputTokens
		m.OutputTokens += u.OutputTokens
		m.Requests += u.Requests
	}
	t := totalsView{ByModel: []modelView{}}
	for _, m := range merged {
		m.CostUSD = cost(*m)
		t.InputTokens += m.InputTokens
		t.OutputTokens += m.OutputTokens
		t.Requests += m.Requests
		t.CostUSD += m.CostUSD
		t.ByModel = append(t.ByModel, *m)
	}
	t.CostUSD = roundUSD(t.CostUSD)
	slices.SortFunc(t.ByModel, func(a, b modelView) int {
		return cmp.Or(cmp.Compare(b.CostUSD, a.CostUSD), cmp.Compare(b.InputTokens+b.OutputTokens, a.InputTokens+a.OutputTokens),
			cmp.Compare(a.Provider, b.Provider), cmp.Compare(a.Model, b.Model), cmp.Compare(boolInt(a.Demo), boolInt(b.Demo)))
	})
	return t
}

// cost prices a model's tokens; a model no longer in the catalogue, like the
// demo model, costs nothing.
func cost(m modelView) float64 {
	if m.Demo {
		return 0
	}
	p, _ := llm.FindProvider(m.Provider)
	model, ok := p.FindModel(m.Model)
	if !ok {
		return 0
	}
	return roundUSD(model.Cost(llm.Usage{InputTokens: m.InputTokens, OutputTokens: m.OutputTokens}))
}

// roundUSD drops float noise below a billionth of a dollar.
func roundUSD(x float64) float64 { return math.Round(x*1e9) / 1e9 }

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
