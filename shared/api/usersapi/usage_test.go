package usersapi_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"testing"
	"time"

	"aiwork/shared/api/usersapi"
	"aiwork/shared/config"
	"aiwork/shared/domain"
	"aiwork/shared/store/storetest"
)

var chatLimits = config.ChatLimits{MaxConcurrentStreams: 3, RequestsPerMinute: 20, DailyTokenBudget: 200_000}

// usageHandler is the users group with its clock stopped at now.
func usageHandler(t *testing.T, now time.Time) (http.Handler, func(uid string, at time.Time, u domain.ModelUsage)) {
	t.Helper()
	st := storetest.New(t)
	h := usersapi.New(st, tokens, usersapi.Options{ChatLimits: chatLimits, Now: func() time.Time { return now }}).Handler()
	record := func(uid string, at time.Time, u domain.ModelUsage) {
		t.Helper()
		u.Requests = 1
		storetest.Must(t, st.RecordChatUsage(t.Context(), uid, at, u), "record usage")
	}
	return h, record
}

// wantJSON compares a JSON body with the expected document, as values.
func wantJSON(t *testing.T, body []byte, want string) {
	t.Helper()
	var got, exp any
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatalf("body %s: %v", body, err)
	}
	if err := json.Unmarshal([]byte(want), &exp); err != nil {
		t.Fatalf("want: %v", err)
	}
	if !reflect.DeepEqual(got, exp) {
		g, _ := json.MarshalIndent(got, "", "  ")
		e, _ := json.MarshalIndent(exp, "", "  ")
		t.Errorf("usage =\n%s\nwant\n%s", g, e)
	}
}

// Today and this month, per model, priced from the catalogue (the demo
// model free), ordered by cost; the caller's own usage only, this UTC month
// only (days before and after it, and other users, left out).
func TestUsageTodayAndMonth(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 15, 30, 0, 0, time.UTC)
	h, record := usageHandler(t, now)
	mini := domain.ModelUsage{Provider: "openai", Model: "gpt-4o-mini"}
	sonnet := domain.ModelUsage{Provider: "anthropic", Model: "claude-3-5-sonnet"}
	with := func(u domain.ModelUsage, in, out int) domain.ModelUsage {
		u.InputTokens, u.OutputTokens = in, out
		return u
	}
	record("ada", now.Add(-time.Hour), with(mini, 1200, 300))
	record("ada", now.Add(-15*time.Hour), with(mini, 800, 200)) // 00:30 today
	record("ada", now, with(sonnet, 1000, 100))
	record("ada", now, domain.ModelUsage{Provider: "google", Model: "gemini-1.5-flash", Demo: true, InputTokens: 40, OutputTokens: 60})
	record("ada", time.Date(2026, 11, 3, 23, 59, 0, 0, time.UTC), with(mini, 1000, 1000))
	record("ada", time.Date(2026, 11, 21, 23, 59, 59, 0, time.UTC), with(sonnet, 10, 0)) // yesterday
	record("ada", time.Date(2026, 10, 31, 23, 59, 59, 0, time.UTC), with(mini, 5000, 5000))
	record("ada", time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), with(mini, 7000, 7000))
	record("bob", now, with(mini, 99999, 99999))

	w := get(t, h, usersapi.UsagePath, "ada")
	if w.Code != http.StatusOK {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	// gpt-4o-mini $0.15/$0.60, claude-3-5-sonnet $3/$15 per million tokens.
	wantJSON(t, w.Body.Bytes(), `{
	  "today": {"date": "2026-11-22", "input_tokens": 3040, "output_tokens": 660, "cost_usd": 0.0051, "requests": 4,
	    "by_model": [
	      {"provider": "anthropic", "model": "claude-3-5-sonnet", "demo": false, "input_tokens": 1000, "output_tokens": 100, "cost_usd": 0.0045, "requests": 1},
	      {"provider": "openai", "model": "gpt-4o-mini", "demo": false, "input_tokens": 2000, "output_tokens": 500, "cost_usd": 0.0006, "requests": 2},
	      {"provider": "google", "model": "gemini-1.5-flash", "demo": true, "input_tokens": 40, "output_tokens": 60, "cost_usd": 0, "requests": 1}
	    ]},
	  "month": {"month": "2026-11", "input_tokens": 4050, "output_tokens": 1660, "cost_usd": 0.00588, "requests": 6,
	    "by_model": [
	      {"provider": "anthropic", "model": "claude-3-5-sonnet", "demo": false, "input_tokens": 1010, "output_tokens": 100, "cost_usd": 0.00453, "requests": 2},
	      {"provider": "openai", "model": "gpt-4o-mini", "demo": false, "input_tokens": 3000, "output_tokens": 1500, "cost_usd": 0.00135, "requests": 3},
	      {"provider": "google", "model": "gemini-1.5-flash", "demo": true, "input_tokens": 40, "output_tokens": 60, "cost_usd": 0, "requests": 1}
	    ]},
	  "limits": {"daily_token_budget": 200000, "tokens_used_today": 3700, "resets_at": "2026-11-23T00:00:00Z",
	    "max_concurrent_streams": 3, "requests_per_minute": 20}
	}`)
}

// A user who never chatted gets zeros and empty lists (never null); on the
// first second of a month, the month is that day alone.
func TestUsageEmptyAndNewMonth(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 1, 0, 0, 30, 0, time.UTC)
	h, record := usageHandler(t, now)
	record("ada", now.Add(-time.Minute), domain.ModelUsage{Provider: "openai", Model: "gpt-4o", InputTokens: 100, OutputTokens: 10})
	empty := func(date, month string) string {
		return `{
		  "today": {"date": "` + date + `", "input_tokens": 0, "output_tokens": 0, "cost_usd": 0, "requests": 0, "by_model": []},
		  "month": {"month": "` + month + `", "input_tokens": 0, "output_tokens": 0, "cost_usd": 0, "requests": 0, "by_model": []},
		  "limits": {"daily_token_budget": 200000, "tokens_used_today": 0, "resets_at": "2026-12-02T00:00:00Z",
		    "max_concurrent_streams": 3, "requests_per_minute": 20}
		}`
	}
	for _, uid := range []string{"ada", "carol"} {
		w := get(t, h, usersapi.UsagePath, uid)
		if w.Code != http.StatusOK {
			t.Fatalf("%s: status %d: %s", uid, w.Code, w.Body)
		}
		wantJSON(t, w.Body.Bytes(), empty("2026-12-01", "2026-12"))
	}
}

// Signed in only.
func TestUsageRefusedWithoutToken(t *testing.T) {
	t.Parallel()
	h, _ := usageHandler(t, time.Now())
	for _, auth := range []string{"", "Bearer nope"} {
		r := httptestRequest(http.MethodGet, usersapi.UsagePath, auth)
		w := serve(h, r)
		var body struct{ Detail, Code string }
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || w.Code != http.StatusUnauthorized || body.Code != "unauthorized" {
			t.Errorf("Authorization %q: %d %s, want 401 unauthorized", auth, w.Code, w.Body)
		}
	}
}
