package store_test

import (
	"slices"
	"sync"
	"testing"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/store/storetest"
)

// Concurrent records of one day are all counted (one ADD each), per model
// and in the day's total; days, months and users are kept apart.
func TestChatUsageRecordsExactlyPerDayAndModel(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	day := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			u := domain.ModelUsage{Provider: "openai", Model: "gpt-4o-mini", InputTokens: 10, OutputTokens: 3, Requests: 1}
			if i%4 == 0 {
				u = domain.ModelUsage{Provider: "google", Model: "gemini-1.5-flash", Demo: true, InputTokens: 7, OutputTokens: 1, Requests: 1}
			}
			storetest.Must(t, st.RecordChatUsage(ctx, "ada", day.Add(time.Duration(i)*time.Minute), u), "record")
		})
	}
	wg.Wait()
	storetest.Must(t, st.RecordChatUsage(ctx, "ada", day.AddDate(0, 0, -21), domain.ModelUsage{Provider: "openai", Model: "gpt-4o", InputTokens: 100, OutputTokens: 50, Requests: 1}), "record")
	storetest.Must(t, st.RecordChatUsage(ctx, "ada", day.AddDate(0, -1, 0), domain.ModelUsage{Provider: "openai", Model: "gpt-4o", InputTokens: 9999, Requests: 1}), "record")
	storetest.Must(t, st.RecordChatUsage(ctx, "bob", day, domain.ModelUsage{Provider: "openai", Model: "gpt-4o-mini", InputTokens: 9999, Requests: 1}), "record")

	if n, err := st.ChatTokensOn(ctx, "ada", day); err != nil || n != 30*13+10*8 {
		t.Errorf("tokens on the day = %d, %v; want %d", n, err, 30*13+10*8)
	}
	if n, err := st.ChatTokensOn(ctx, "carol", day); err != nil || n != 0 {
		t.Errorf("a user without usage: %d, %v", n, err)
	}
	days, err := st.ChatUsageMonth(ctx, "ada", day)
	if err != nil {
		t.Fatal(err)
	}
	want := []domain.DayUsage{
		{Date: "2026-11-01", Models: []domain.ModelUsage{{Provider: "openai", Model: "gpt-4o", InputTokens: 100, OutputTokens: 50, Requests: 1}}},
		{Date: "2026-11-22", Models: []domain.ModelUsage{
			{Provider: "google", Model: "gemini-1.5-flash", Demo: true, InputTokens: 70, OutputTokens: 10, Requests: 10},
			{Provider: "openai", Model: "gpt-4o-mini", InputTokens: 300, OutputTokens: 90, Requests: 30},
		}},
	}
	if !slices.EqualFunc(days, want, func(a, b domain.DayUsage) bool { return a.Date == b.Date && slices.Equal(a.Models, b.Models) }) {
		t.Errorf("month = %+v\nwant    %+v", days, want)
	}
}
