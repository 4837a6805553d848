package chatapi_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"aiwork/shared/api/chatapi"
	"aiwork/shared/chat/chattest"
	"aiwork/shared/config"
	"aiwork/shared/domain"
	"aiwork/shared/llm"
	"aiwork/shared/store/storetest"
)

// clock is a settable time for the handler's Now.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock(t time.Time) *clock { return &clock{t: t} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// gate is an upstream that reports each call on started, then holds it
// until release is closed (or its context ends), then finishes.
func gate(started chan<- struct{}, release <-chan struct{}) *chattest.Upstream {
	return chattest.NewUpstream(func(ctx context.Context, _ llm.Request, emit func(string) error) (llm.Usage, error) {
		started <- struct{}{}
		if err := emit("Bon"); err != nil {
			return llm.Usage{}, err
		}
		select {
		case <-release:
		case <-ctx.Done():
			return llm.Usage{}, ctx.Err()
		}
		if err := emit("jour"); err != nil {
			return llm.Usage{}, err
		}
		return llm.Usage{InputTokens: 10, OutputTokens: 3}, nil
	})
}

// want429 checks a refusal for a limit: 429, Retry-After, the exact detail.
func want429(t *testing.T, w *httptest.ResponseRecorder, detail, retryAfter string) {
	t.Helper()
	e := chattest.WantError(t, w, http.StatusTooManyRequests)
	if e.Code != "rate_limited" || e.Detail != detail {
		t.Errorf("refusal = %q (%s), want %q", e.Detail, e.Code, detail)
	}
	if got := w.Header().Get("Retry-After"); got != retryAfter {
		t.Errorf("Retry-After = %q, want %q", got, retryAfter)
	}
}

// 30 concurrent messages at the default limits (3 streams, 20 a minute,
// 200,000 tokens a day): exactly 3 reach the upstream and stream; of the 27
// refused (429 with Retry-After), exactly 10 are past the per-minute limit
// and 17 find no stream slot. When the 3 finish, their slots are free again.
func TestConcurrentStreamsLimit(t *testing.T) {
	t.Parallel()
	started := make(chan struct{}, 30)
	release := make(chan struct{})
	var closeOnce sync.Once
	t.Cleanup(func() { closeOnce.Do(func() { close(release) }) })
	up := gate(started, release)
	clk := newClock(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	s := newStackWith(t, chatapi.Options{StallTimeout: patience, Now: clk.Now,
		Limits: config.ChatLimits{MaxConcurrentStreams: 3, RequestsPerMinute: 20, DailyTokenBudget: 200_000}},
		map[string]llm.Provider{"openai": up})
	uid, token := s.user()
	conn := s.connect(token, "openai", "gpt-4o-mini")

	answers := make(chan *httptest.ResponseRecorder, 30)
	for range 30 {
		go func() { answers <- s.send(token, msg{ConnectionID: conn, Message: "hi"}) }()
	}
	var refused []*httptest.ResponseRecorder
	for len(refused) < 27 {
		select {
		case w := <-answers:
			refused = append(refused, w)
		case <-time.After(patience):
			t.Fatalf("%d refusals within %v, want 27", len(refused), patience)
		}
	}
	const (
		noSlot = "You already have 3 replies streaming; wait for one to finish."
		rate   = "You have sent 20 messages in the last minute; try again in 60 seconds."
	)
	count := map[string]int{}
	for _, w := range refused {
		e := chattest.WantError(t, w, http.StatusTooManyRequests)
		count[e.Detail]++
		if want := map[string]string{noSlot: "5", rate: "60"}[e.Detail]; want == "" || w.Header().Get("Retry-After") != want {
			t.Errorf("refusal %q with Retry-After %q", e.Detail, w.Header().Get("Retry-After"))
		}
	}
	if count[noSlot] != 17 || count[rate] != 10 {
		t.Errorf("refusals = %v, want 17 without a slot and 10 past the rate", count)
	}
	for i := range 3 {
		select {
		case <-started:
		case <-time.After(patience):
			t.Fatalf("%d streams started, want 3", i)
		}
	}
	// All 30 are through admission: 27 refused, 3 streaming. None more.
	if n := len(up.Requests()); n != 3 {
		t.Fatalf("upstream calls = %d, want exactly 3", n)
	}
	if n, err := s.st.OpenStreams(t.Context(), uid, clk.Now()); err != nil || n != 3 {
		t.Fatalf("open streams = %d, %v; want 3", n, err)
	}
	closeOnce.Do(func() { close(release) })
	for range 3 {
		select {
		case w := <-answers:
			if w.Code != http.StatusOK || !strings.HasSuffix(w.Body.String(), chattest.DoneFrame) {
				t.Errorf("admitted stream: %d %q", w.Code, w.Body)
			}
		case <-time.After(patience):
			t.Fatal("an admitted stream did not finish")
		}
	}
	if n, err := s.st.OpenStreams(t.Context(), uid, clk.Now()); err != nil || n != 0 {
		t.Fatalf("open streams after the three finished = %d, %v; want 0", n, err)
	}
	// Another user has limits of their own; the next minute, this one can
	// stream again.
	_, other := s.user()
	if w := s.send(other, msg{ConnectionID: s.connect(other, "openai", "gpt-4o-mini"), Message: "hi"}); w.Code != http.StatusOK {
		t.Errorf("another user: %d %s", w.Code, w.Body)
	}
	clk.Set(clk.Now().Add(time.Minute))
	if w := s.send(token, msg{ConnectionID: conn, Message: "again"}); w.Code != http.StatusOK {
		t.Errorf("after the streams finished: %d %s", w.Code, w.Body)
	}
}

// The 21st message within a minute is refused, saying when to try again;
// the next minute admits again.
func TestRequestsPerMinuteLimit(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	clk := newClock(start)
	up := chattest.Replies(llm.Usage{InputTokens: 1, OutputTokens: 1}, "ok")
	s := newStackWith(t, chatapi.Options{StallTimeout: patience, Now: clk.Now, Limits: config.ChatLimits{RequestsPerMinute: 20}}, map[string]llm.Provider{"openai": up})
	_, token := s.user()
	conn := s.connect(token, "openai", "gpt-4o-mini")
	for i := range 20 {
		clk.Set(start.Add(time.Duration(i) * time.Second))
		if w := s.send(token, msg{ConnectionID: conn, Message: "hi"}); w.Code != http.StatusOK {
			t.Fatalf("message %d: %d %s", i+1, w.Code, w.Body)
		}
	}
	clk.Set(start.Add(45 * time.Second))
	want429(t, s.send(token, msg{ConnectionID: conn, Message: "hi"}),
		"You have sent 20 messages in the last minute; try again in 15 seconds.", "15")
	if n := len(up.Requests()); n != 20 {
		t.Errorf("upstream calls = %d, want 20", n)
	}
	clk.Set(start.Add(time.Minute))
	if w := s.send(token, msg{ConnectionID: conn, Message: "hi"}); w.Code != http.StatusOK {
		t.Errorf("the next minute: %d %s", w.Code, w.Body)
	}
}

// The daily budget counts every stream's input+output tokens; a message
// starts while today's use is below the budget and is refused once it
// reaches it, with the exact detail and Retry-After until 00:00 UTC; the
// next UTC day starts afresh.
func TestDailyTokenBudget(t *testing.T) {
	t.Parallel()
	clk := newClock(time.Date(2026, 11, 22, 23, 58, 30, 0, time.UTC))
	up := chattest.Replies(llm.Usage{InputTokens: 120_000, OutputTokens: 79_999}, "ok")
	s := newStackWith(t, chatapi.Options{StallTimeout: patience, Now: clk.Now, Limits: config.ChatLimits{DailyTokenBudget: 200_000}}, map[string]llm.Provider{"openai": up})
	uid, token := s.user()
	conn := s.connect(token, "openai", "gpt-4o-mini")
	for i := range 2 { // 0, then 199,999 used: both below the budget
		if w := s.send(token, msg{ConnectionID: conn, Message: "hi"}); w.Code != http.StatusOK {
			t.Fatalf("message %d: %d %s", i+1, w.Code, w.Body)
		}
	}
	if n, err := s.st.ChatTokensOn(t.Context(), uid, clk.Now()); err != nil || n != 399_998 {
		t.Fatalf("tokens today = %d, %v; want 399998", n, err)
	}
	want429(t, s.send(token, msg{ConnectionID: conn, Message: "hi"}),
		"You have used today's chat allowance of 200,000 tokens; it resets at 00:00 UTC.", "90")
	if n := len(up.Requests()); n != 2 {
		t.Errorf("upstream calls = %d, want 2", n)
	}
	clk.Set(time.Date(2026, 11, 23, 0, 0, 1, 0, time.UTC))
	if w := s.send(token, msg{ConnectionID: conn, Message: "hi"}); w.Code != http.StatusOK {
		t.Errorf("the next day: %d %s", w.Code, w.Body)
	}
}

// The budget's detail formats any budget with thousands separators.
func TestDailyTokenBudgetDetail(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)
	s := newStackWith(t, chatapi.Options{StallTimeout: patience, Now: func() time.Time { return now }, Limits: config.ChatLimits{DailyTokenBudget: 1_234_567}},
		map[string]llm.Provider{"openai": chattest.Replies(llm.Usage{}, "ok")})
	uid, token := s.user()
	conn := s.connect(token, "openai", "gpt-4o-mini")
	storetest.Must(t, s.st.RecordChatUsage(t.Context(), uid, now, domain.ModelUsage{Provider: "openai", Model: "gpt-4o-mini", InputTokens: 1_234_567, Requests: 1}), "record")
	want429(t, s.send(token, msg{ConnectionID: conn, Message: "hi"}),
		"You have used today's chat allowance of 1,234,567 tokens; it resets at 00:00 UTC.", "64800")
}

// A client that goes away mid-stream: the upstream is cancelled, the slot
// is given back and the tokens so far are counted (estimated, as the
// provider reported none: ceil(chars/4) of the prompt and of the reply).
func TestCancelledStreamRecordsUsageAndFreesSlot(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	release := make(chan struct{})
	held := chattest.Holds(release, "Bonjour", "never")
	s := newStackWith(t, chatapi.Options{StallTimeout: patience, Now: func() time.Time { return now }, Limits: config.ChatLimits{MaxConcurrentStreams: 1}},
		map[string]llm.Provider{"openai": held})
	uid, token := s.user()
	conn := s.connect(token, "openai", "gpt-4o-mini")
	srv, ended := s.serveCounted()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	prompt := []llm.Message{{Role: "user", Content: "Tell me a long story"}, {Role: "assistant", Content: "Once"}}
	res := chattest.Post(t, ctx, srv.URL, token, msg{ConnectionID: conn, Message: "More, please", Context: prompt})
	defer res.Body.Close()
	if got := chattest.ReadFrame(t, bufio.NewReader(res.Body), patience); got != chattest.ContentFrame("Bonjour") {
		t.Fatalf("first frame = %q", got)
	}
	cancel()
	select {
	case <-ended:
	case <-time.After(patience):
		t.Fatal("the handler did not end after the client left")
	}
	if n, err := s.st.OpenStreams(t.Context(), uid, now); err != nil || n != 0 {
		t.Errorf("open streams = %d, %v; want 0", n, err)
	}
	// Prompt: 20 + 4 + 12 characters → 9 tokens; reply "Bonjour" → 2.
	wantUsage(t, s, uid, now, domain.ModelUsage{Provider: "openai", Model: "gpt-4o-mini", InputTokens: 9, OutputTokens: 2, Requests: 1})
	close(release)
	if w := s.send(token, msg{ConnectionID: conn, Message: "hi"}); w.Code != http.StatusOK {
		t.Errorf("next message: %d %s", w.Code, w.Body)
	}
}

// An upstream error and a stall each give the slot back (a limit of one
// stream admits the next message at once). A failure after the first chunk
// and a stall count estimated tokens; a failure before any chunk (the
// provider refused the call) counts none.
func TestSlotFreedAfterErrorAndStall(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	limits := config.ChatLimits{MaxConcurrentStreams: 1}
	tests := []struct {
		name  string
		up    func(release chan struct{}) *chattest.Upstream
		stall time.Duration
		last  string
		usage domain.ModelUsage // zero: nothing recorded
	}{
		{"error after a chunk", func(chan struct{}) *chattest.Upstream {
			return chattest.Fails(&llm.UpstreamError{Provider: "OpenAI", Detail: "Overloaded"}, "Partial")
		}, patience, chattest.ErrorFrame("OpenAI: Overloaded"),
			domain.ModelUsage{Provider: "openai", Model: "gpt-4o-mini", InputTokens: 2, OutputTokens: 2, Requests: 1}},
		{"refused before any chunk", func(chan struct{}) *chattest.Upstream {
			return chattest.Fails(&llm.UpstreamError{Provider: "OpenAI", Status: 401, Detail: "bad key"})
		}, patience, chattest.ErrorFrame("OpenAI refused the API key (HTTP 401). Check the provider key configured on the server."),
			domain.ModelUsage{}},
		{"stall", func(release chan struct{}) *chattest.Upstream { return chattest.Holds(release, "Bon", "never") },
			200 * time.Millisecond, chattest.ErrorFrame("Stream timeout"),
			domain.ModelUsage{Provider: "openai", Model: "gpt-4o-mini", InputTokens: 2, OutputTokens: 1, Requests: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			release := make(chan struct{})
			t.Cleanup(func() { close(release) })
			s := newStackWith(t, chatapi.Options{StallTimeout: tt.stall, Now: func() time.Time { return now }, Limits: limits},
				map[string]llm.Provider{"openai": tt.up(release)})
			uid, token := s.user()
			conn := s.connect(token, "openai", "gpt-4o-mini")
			w := s.sendWithin(token, msg{ConnectionID: conn, Message: "Hi there"}, patience)
			if got := chattest.Frames(w.Body.String()); w.Code != http.StatusOK || len(got) == 0 || got[len(got)-1] != tt.last {
				t.Fatalf("%d, frames %q; want the last %q", w.Code, got, tt.last)
			}
			if n, err := s.st.OpenStreams(t.Context(), uid, now); err != nil || n != 0 {
				t.Errorf("open streams = %d, %v; want 0", n, err)
			}
			wantUsage(t, s, uid, now, tt.usage)
			// The slot is free: the next message is admitted (and ends the same way).
			if w := s.sendWithin(token, msg{ConnectionID: conn, Message: "Hi there"}, patience); w.Code != http.StatusOK {
				t.Errorf("next message: %d %s", w.Code, w.Body)
			}
		})
	}
}

// The summariser's calls (the same endpoint, the first 12000 characters,
// an empty context) are metered like any other message, on the demo model
// too: they count toward the per-minute limit and the day's tokens. The
// demo's usage frame says demo and costs nothing.
func TestSummaryCallsAreMetered(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	s := newStackWith(t, chatapi.Options{StallTimeout: patience, Now: func() time.Time { return now },
		Limits: config.ChatLimits{MaxConcurrentStreams: 3, RequestsPerMinute: 2, DailyTokenBudget: 200_000}}, nil) // google: the demo model
	uid, token := s.user()
	conn := s.connect(token, "google", "gemini-1.5-flash")
	long := strings.Repeat("The quarterly report shows steady growth. ", 50)
	summary := "Summarize the following in at most 35 words:\n\n" + long[:1800]
	w := s.sendWithin(token, msg{ConnectionID: conn, Message: "hi"}, patience)
	if w.Code != http.StatusOK {
		t.Fatalf("message: %d %s", w.Code, w.Body)
	}
	w = s.sendWithin(token, msg{ConnectionID: conn, Message: summary, Context: []llm.Message{}}, patience)
	if w.Code != http.StatusOK {
		t.Fatalf("summary: %d %s", w.Code, w.Body)
	}
	got := chattest.Frames(w.Body.String())
	var text strings.Builder
	for _, f := range got[:len(got)-2] {
		var c struct{ Content string }
		_ = json.Unmarshal([]byte(strings.TrimPrefix(strings.TrimSpace(f), "data: ")), &c)
		text.WriteString(c.Content)
	}
	if want := llm.DemoSummary(long[:1800], 35); text.String() != want || !strings.HasPrefix(want, llm.DemoSummaryLabel+" The quarterly report") {
		t.Errorf("summary = %q, want %q", text.String(), want)
	}
	var uf struct {
		Usage struct {
			InputTokens  int     `json:"input_tokens"`
			OutputTokens int     `json:"output_tokens"`
			CostUSD      float64 `json:"cost_usd"`
			Demo         bool    `json:"demo"`
		} `json:"usage"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(strings.TrimPrefix(got[len(got)-2], "data: "))), &uf); err != nil {
		t.Fatalf("usage frame %q: %v", got[len(got)-2], err)
	}
	est := llm.EstimateUsage([]llm.Message{{Role: "user", Content: summary}}, text.String())
	if uf.Usage.InputTokens != est.InputTokens || uf.Usage.OutputTokens != est.OutputTokens || uf.Usage.CostUSD != 0 || !uf.Usage.Demo {
		t.Errorf("usage frame = %+v, want %+v, no cost, demo", uf.Usage, est)
	}
	// The third message within the minute is refused: the summary counted.
	want429(t, s.send(token, msg{ConnectionID: conn, Message: summary}),
		"You have sent 2 messages in the last minute; try again in 60 seconds.", "60")
	days, err := s.st.ChatUsageMonth(t.Context(), uid, now)
	if err != nil || len(days) != 1 || len(days[0].Models) != 1 {
		t.Fatalf("usage = %+v, %v", days, err)
	}
	if m := days[0].Models[0]; !m.Demo || m.Requests != 2 || m.InputTokens <= est.InputTokens || m.OutputTokens <= est.OutputTokens {
		t.Errorf("recorded = %+v, want both demo messages (the summary: %+v)", m, est)
	}
}

// From streams to GET /api/v1/users/usage: a few streams of two models over
// two days give exact tokens, requests and costs, today and this month.
func TestUsageEndpointAfterStreams(t *testing.T) {
	t.Parallel()
	clk := newClock(time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC))
	s := newStackWith(t, chatapi.Options{StallTimeout: patience, Now: clk.Now, Limits: config.ChatLimits{MaxConcurrentStreams: 3, RequestsPerMinute: 20, DailyTokenBudget: 200_000}},
		map[string]llm.Provider{
			"openai":    chattest.Replies(llm.Usage{InputTokens: 1200, OutputTokens: 300}, "ok"),
			"anthropic": chattest.Replies(llm.Usage{InputTokens: 1000, OutputTokens: 100}, "ok"),
		})
	_, token := s.user()
	_, otherToken := s.user()
	mini := s.connect(token, "openai", "gpt-4o-mini")
	sonnet := s.connect(token, "anthropic", "claude-3-5-sonnet")
	send := func(tok, conn string) {
		t.Helper()
		if w := s.send(tok, msg{ConnectionID: conn, Message: "hi"}); w.Code != http.StatusOK || !strings.HasSuffix(w.Body.String(), chattest.DoneFrame) {
			t.Fatalf("send: %d %s", w.Code, w.Body)
		}
	}
	send(token, mini) // yesterday
	clk.Set(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))
	send(token, mini)
	send(token, mini)
	send(token, sonnet)
	send(otherToken, s.connect(otherToken, "openai", "gpt-4o-mini"))

	w := s.do("GET", "/api/v1/users/usage", token, "")
	if w.Code != http.StatusOK {
		t.Fatalf("usage: %d %s", w.Code, w.Body)
	}
	var got struct {
		Today struct {
			Date         string  `json:"date"`
			InputTokens  int     `json:"input_tokens"`
			OutputTokens int     `json:"output_tokens"`
			CostUSD      float64 `json:"cost_usd"`
			ByModel      []struct {
				Provider     string  `json:"provider"`
				Model        string  `json:"model"`
				InputTokens  int     `json:"input_tokens"`
				OutputTokens int     `json:"output_tokens"`
				CostUSD      float64 `json:"cost_usd"`
				Requests     int     `json:"requests"`
			} `json:"by_model"`
		} `json:"today"`
		Month struct {
			Month        string  `json:"month"`
			InputTokens  int     `json:"input_tokens"`
			OutputTokens int     `json:"output_tokens"`
			CostUSD      float64 `json:"cost_usd"`
		} `json:"month"`
		Limits struct {
			TokensUsedToday int    `json:"tokens_used_today"`
			ResetsAt        string `json:"resets_at"`
		} `json:"limits"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	// Today: 2 × gpt-4o-mini (2400 in, 600 out: $0.00072) and 1 × sonnet
	// (1000 in, 100 out: $0.0045). The month adds yesterday's gpt-4o-mini.
	type row struct {
		Provider, Model           string
		InputTokens, OutputTokens int
		CostUSD                   float64
		Requests                  int
	}
	var rows []row
	for _, m := range got.Today.ByModel {
		rows = append(rows, row{m.Provider, m.Model, m.InputTokens, m.OutputTokens, m.CostUSD, m.Requests})
	}
	wantRows := []row{{"anthropic", "claude-3-5-sonnet", 1000, 100, 0.0045, 1}, {"openai", "gpt-4o-mini", 2400, 600, 0.00072, 2}}
	if got.Today.Date != "2026-11-22" || got.Today.InputTokens != 3400 || got.Today.OutputTokens != 700 || got.Today.CostUSD != 0.00522 || !slices.Equal(rows, wantRows) {
		t.Errorf("today = %+v, want 3400 in, 700 out, $0.00522, by model %+v", got.Today, wantRows)
	}
	if got.Month.Month != "2026-11" || got.Month.InputTokens != 4600 || got.Month.OutputTokens != 1000 || got.Month.CostUSD != 0.00558 {
		t.Errorf("month = %+v, want 4600 in, 1000 out, $0.00558", got.Month)
	}
	if got.Limits.TokensUsedToday != 4100 || got.Limits.ResetsAt != "2026-11-23T00:00:00Z" {
		t.Errorf("limits = %+v", got.Limits)
	}
	if w := s.do("GET", "/api/v1/users/usage", "", ""); w.Code != http.StatusUnauthorized {
		t.Errorf("without a token: %d", w.Code)
	}
}

// wantUsage checks the day's recorded usage of uid: exactly want, or
// nothing when want is zero.
func wantUsage(t *testing.T, s *stack, uid string, day time.Time, want domain.ModelUsage) {
	t.Helper()
	days, err := s.st.ChatUsageMonth(t.Context(), uid, day)
	if err != nil {
		t.Fatal(err)
	}
	var got []domain.ModelUsage
	for _, d := range days {
		got = append(got, d.Models...)
	}
	if want == (domain.ModelUsage{}) {
		if len(got) != 0 {
			t.Errorf("usage recorded %+v, want none", got)
		}
		return
	}
	if len(got) != 1 || got[0] != want {
		t.Errorf("usage recorded %+v, want %+v", got, want)
	}
}

// A reply never streams past MaxStreamDuration, even a steady one: it is
// cut off with an error frame, gives its slot back and counts its tokens,
// all well within the slot's lease.
func TestStreamCutOffAtMaxDuration(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	endless := chattest.NewUpstream(func(ctx context.Context, _ llm.Request, emit func(string) error) (llm.Usage, error) {
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return llm.Usage{}, ctx.Err()
			case <-tick.C:
				if err := emit("more "); err != nil {
					return llm.Usage{}, err
				}
			}
		}
	})
	s := newStackWith(t, chatapi.Options{StallTimeout: patience, MaxStreamDuration: 300 * time.Millisecond, Now: func() time.Time { return now },
		Limits: config.ChatLimits{MaxConcurrentStreams: 1}}, map[string]llm.Provider{"openai": endless})
	uid, token := s.user()
	conn := s.connect(token, "openai", "gpt-4o-mini")
	w := s.sendWithin(token, msg{ConnectionID: conn, Message: "Hi there"}, patience)
	got := chattest.Frames(w.Body.String())
	if len(got) < 2 || got[len(got)-1] != chattest.ErrorFrame("The reply was cut off after 300ms, the longest a reply may stream.") {
		t.Fatalf("frames = %q, want chunks then the cut-off error", got)
	}
	select {
	case <-endless.Ended:
	default:
		t.Error("the upstream call was not cancelled")
	}
	if n, err := s.st.OpenStreams(t.Context(), uid, now); err != nil || n != 0 {
		t.Errorf("open streams = %d, %v; want 0", n, err)
	}
	reply := strings.Repeat("more ", len(got)-1)
	wantUsage(t, s, uid, now, domain.ModelUsage{Provider: "openai", Model: "gpt-4o-mini", InputTokens: 2, OutputTokens: llm.EstimateTokens(reply), Requests: 1})
}
