package store_test

import (
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"aiwork/shared/domain"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

var meterNoon = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// admitAll admits n messages of uid at once under lim and counts each
// outcome (an error fails the test).
func admitAll(t *testing.T, st *store.Store, uid string, n int, lim store.ChatLimits, now time.Time) map[store.ChatRefusal]int {
	t.Helper()
	got := make([]store.ChatAdmission, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { got[i], errs[i] = st.AdmitChat(ctx, uid, lim, now) })
	}
	wg.Wait()
	count := map[store.ChatRefusal]int{}
	for i, a := range got {
		if errs[i] != nil {
			t.Fatalf("admission %d: %v", i, errs[i])
		}
		if a.Slot != (a.Refusal == store.ChatAdmitted && lim.Streams > 0) {
			t.Errorf("admission %d: refusal %v with slot %v", i, a.Refusal, a.Slot)
		}
		count[a.Refusal]++
	}
	return count
}

// 30 messages at once at 3 streams and 20 a minute: exactly 3 admitted,
// 17 refused for want of a slot (counted in the minute), 10 past the rate;
// a slot given back makes room for exactly one more; another user counts
// apart.
func TestChatMeterExactUnderConcurrency(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	lim := store.ChatLimits{DailyTokens: 200_000, PerMinute: 20, Streams: 3, Window: time.Minute, Lease: 6 * time.Minute}
	got := admitAll(t, st, "ada", 30, lim, meterNoon)
	want := map[store.ChatRefusal]int{store.ChatAdmitted: 3, store.ChatNoStreamSlot: 17, store.ChatOverRate: 10}
	if len(got) != len(want) || got[store.ChatAdmitted] != 3 || got[store.ChatNoStreamSlot] != 17 || got[store.ChatOverRate] != 10 {
		t.Fatalf("outcomes = %v, want %v", got, want)
	}
	if n, err := st.OpenStreams(ctx, "ada", meterNoon); err != nil || n != 3 {
		t.Fatalf("open streams = %d, %v; want 3", n, err)
	}
	if got := admitAll(t, st, "bob", 1, lim, meterNoon); got[store.ChatAdmitted] != 1 {
		t.Errorf("another user: %v, want admitted", got)
	}

	// The next window: one slot given back, so of 5 at once exactly one
	// streams and 4 find no slot.
	next := meterNoon.Add(time.Minute)
	storetest.Must(t, st.EndChat(ctx, "ada", meterNoon, nil, true), "give back a slot")
	if got := admitAll(t, st, "ada", 5, lim, next); got[store.ChatAdmitted] != 1 || got[store.ChatNoStreamSlot] != 4 {
		t.Errorf("after one slot was given back: %v, want 1 admitted and 4 without a slot", got)
	}
}

// The window is fixed from its first message: the 21st within it is
// refused, with the window that says when it ends; the next one admits.
func TestChatMeterPerMinuteWindow(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	lim := store.ChatLimits{PerMinute: 20, Window: time.Minute}
	for i := range 20 {
		a, err := st.AdmitChat(ctx, "ada", lim, meterNoon.Add(time.Duration(i)*time.Second))
		if err != nil || a.Refusal != store.ChatAdmitted || a.Window.Count != i+1 {
			t.Fatalf("message %d: %+v, %v", i+1, a, err)
		}
	}
	a, err := st.AdmitChat(ctx, "ada", lim, meterNoon.Add(45*time.Second))
	if err != nil || a.Refusal != store.ChatOverRate || !a.Window.Ends(time.Minute).Equal(meterNoon.Add(time.Minute)) {
		t.Fatalf("the 21st: %+v, %v; want refused by the rate, window ending at %v", a, err, meterNoon.Add(time.Minute))
	}
	a, err = st.AdmitChat(ctx, "ada", lim, meterNoon.Add(time.Minute))
	if err != nil || a.Refusal != store.ChatAdmitted || a.Window.Count != 1 {
		t.Fatalf("the next window: %+v, %v", a, err)
	}
}

// The budget counts the day's tokens EndChat records; the message that
// finds them at the budget is refused (and still counted in the minute);
// the next UTC day starts afresh.
func TestChatMeterDailyBudget(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	lim := store.ChatLimits{DailyTokens: 1000, PerMinute: 10, Window: time.Minute}
	late := time.Date(2026, 11, 22, 23, 59, 0, 0, time.UTC)
	a, err := st.AdmitChat(ctx, "ada", lim, late)
	if err != nil || a.Refusal != store.ChatAdmitted || a.Tokens != 0 {
		t.Fatalf("first: %+v, %v", a, err)
	}
	storetest.Must(t, st.EndChat(ctx, "ada", late, &domain.ModelUsage{Provider: "openai", Model: "gpt-4o-mini", InputTokens: 600, OutputTokens: 400, Requests: 1}, false), "usage")
	a, err = st.AdmitChat(ctx, "ada", lim, late.Add(time.Second))
	if err != nil || a.Refusal != store.ChatOverBudget || a.Tokens != 1000 || a.Window.Count != 2 {
		t.Fatalf("at the budget: %+v, %v; want refused with 1000 tokens, counted as the window's 2nd", a, err)
	}
	if n, err := st.ChatTokensOn(ctx, "ada", late); err != nil || n != 1000 {
		t.Fatalf("tokens today = %d, %v; want 1000", n, err)
	}
	a, err = st.AdmitChat(ctx, "ada", lim, late.Add(time.Minute))
	if err != nil || a.Refusal != store.ChatAdmitted || a.Tokens != 0 {
		t.Fatalf("the next day: %+v, %v", a, err)
	}
}

// Past the budget with the window full as well: the budget refuses (it is
// checked first) and the message is not counted beyond the window's limit.
func TestChatMeterBudgetRefusalInAFullWindow(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	lim := store.ChatLimits{DailyTokens: 1000, PerMinute: 2, Window: time.Minute}
	for range 2 {
		if a, err := st.AdmitChat(ctx, "ada", lim, meterNoon); err != nil || a.Refusal != store.ChatAdmitted {
			t.Fatalf("admission: %+v, %v", a, err)
		}
	}
	storetest.Must(t, st.EndChat(ctx, "ada", meterNoon, &domain.ModelUsage{Provider: "openai", Model: "gpt-4o-mini", InputTokens: 1000, Requests: 1}, false), "usage")
	for range 3 {
		a, err := st.AdmitChat(ctx, "ada", lim, meterNoon.Add(time.Second))
		if err != nil || a.Refusal != store.ChatOverBudget || a.Window.Count != 2 {
			t.Fatalf("past both: %+v, %v; want refused by the budget, the window at 2", a, err)
		}
	}
}

// A day item written before the meter (totals, no tokens counter) still
// counts toward the budget: the admission fills the counter in from them.
func TestChatMeterCountsAnItemFromBeforeTheMeter(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	item, err := attributevalue.MarshalMap(map[string]any{
		store.AttrPK: "USER#ada", store.AttrSK: "USAGE#2026-11-22", "input_tokens": 700, "output_tokens": 300, "requests": 4,
	})
	storetest.Must(t, err, "item")
	_, err = st.DB().PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(st.Table()), Item: item})
	storetest.Must(t, err, "an item from before the meter")
	lim := store.ChatLimits{DailyTokens: 1000, Window: time.Minute}
	a, err := st.AdmitChat(ctx, "ada", lim, meterNoon)
	if err != nil || a.Refusal != store.ChatOverBudget || a.Tokens != 1000 {
		t.Fatalf("at the budget before the meter: %+v, %v", a, err)
	}
	lim.DailyTokens = 2000
	a, err = st.AdmitChat(ctx, "ada", lim, meterNoon)
	if err != nil || a.Refusal != store.ChatAdmitted || a.Tokens != 1000 {
		t.Fatalf("below a higher budget: %+v, %v", a, err)
	}
}

// Slots a crashed stream never gave back are freed once the lease of the
// last slot taken has run out, and concurrent admissions then reset the
// counter once between them, still getting exactly the limit. Giving back
// more than was taken never makes room beyond the limit.
func TestChatMeterLeakedSlotsExpireWithTheLease(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	lim := store.ChatLimits{Streams: 3, Window: time.Minute, Lease: time.Minute}
	if got := admitAll(t, st, "ada", 3, lim, meterNoon); got[store.ChatAdmitted] != 3 {
		t.Fatalf("the first three: %v", got)
	}
	if got := admitAll(t, st, "ada", 1, lim, meterNoon.Add(lim.Lease-time.Second)); got[store.ChatNoStreamSlot] != 1 {
		t.Fatalf("within the lease: %v, want no slot", got)
	}
	later := meterNoon.Add(lim.Lease + time.Second)
	if n, err := st.OpenStreams(ctx, "ada", later); err != nil || n != 0 {
		t.Fatalf("open streams after the lease = %d, %v; want 0", n, err)
	}
	if got := admitAll(t, st, "ada", 20, lim, later); got[store.ChatAdmitted] != 3 || got[store.ChatNoStreamSlot] != 17 {
		t.Fatalf("20 at once after the lease: %v, want exactly 3 admitted", got)
	}
	for range 5 {
		storetest.Must(t, st.EndChat(ctx, "ada", later, nil, true), "give back")
	}
	if n, err := st.OpenStreams(ctx, "ada", later); err != nil || n != 0 {
		t.Fatalf("open streams after giving back more than taken = %d, %v; want 0", n, err)
	}
	if got := admitAll(t, st, "ada", 5, lim, later); got[store.ChatAdmitted] != 3 || got[store.ChatNoStreamSlot] != 2 {
		t.Fatalf("5 at once after over-giving: %v, want exactly 3 admitted", got)
	}
}

// With every limit off the meter is not touched at all.
func TestChatMeterWithoutLimitsWritesNothing(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	a, err := st.AdmitChat(ctx, "ada", store.ChatLimits{Window: time.Minute}, meterNoon)
	if err != nil || a.Refusal != store.ChatAdmitted || a.Slot {
		t.Fatalf("no limits: %+v, %v", a, err)
	}
	if days, err := st.ChatUsageMonth(ctx, "ada", meterNoon); err != nil || len(days) != 0 {
		t.Fatalf("usage days = %v, %v; want none", days, err)
	}
}

// A day whose messages were all refused before reaching a model holds the
// meter's counters but no usage: the month's usage does not list it.
func TestChatMeterDayWithoutUsageIsNoUsageDay(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	lim := store.ChatLimits{DailyTokens: 1000, PerMinute: 5, Streams: 2, Window: time.Minute, Lease: time.Minute}
	a, err := st.AdmitChat(ctx, "ada", lim, meterNoon)
	if err != nil || a.Refusal != store.ChatAdmitted {
		t.Fatalf("admission: %+v, %v", a, err)
	}
	storetest.Must(t, st.EndChat(ctx, "ada", meterNoon, nil, true), "slot back, no usage")
	if days, err := st.ChatUsageMonth(ctx, "ada", meterNoon); err != nil || len(days) != 0 {
		t.Fatalf("usage days = %+v, %v; want none", days, err)
	}
	storetest.Must(t, st.RecordChatUsage(ctx, "ada", meterNoon, domain.ModelUsage{Provider: "openai", Model: "gpt-4o-mini", InputTokens: 3, Requests: 1}), "usage")
	if days, err := st.ChatUsageMonth(ctx, "ada", meterNoon); err != nil || len(days) != 1 {
		t.Fatalf("usage days = %+v, %v; want the day", days, err)
	}
}
