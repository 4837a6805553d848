package chatapi_test

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"aiwork/shared/api/apitest"
	"aiwork/shared/api/chatapi"
	"aiwork/shared/config"
	"aiwork/shared/llm"
)

// firstThenHangs answers its first call, then holds every later call until
// its context ends (a provider still thinking).
func firstThenHangs() *upstream {
	var calls atomic.Int32
	return newUpstream(func(ctx context.Context, _ llm.Request, emit func(string) error) (llm.Usage, error) {
		if calls.Add(1) == 1 {
			if err := emit("ok"); err != nil {
				return llm.Usage{}, err
			}
			return llm.Usage{InputTokens: 3, OutputTokens: 1}, nil
		}
		<-ctx.Done()
		return llm.Usage{}, ctx.Err()
	})
}

// A message from a session and connection that passed their checks moments
// ago goes to the provider without waiting for its own checks (DESIGN §10);
// when those refuse it after all (here: the session was ended in between),
// the provider's call is cancelled and the answer is the refusal. The next
// message, with nothing remembered, waits for its checks: no provider call.
func TestSureMessageStartsAtOnceAndStopsWhenRefused(t *testing.T) {
	t.Parallel()
	up := firstThenHangs()
	s := newSessionStack(t, chatapi.Options{StallTimeout: patience,
		Limits: config.ChatLimits{MaxConcurrentStreams: 3, RequestsPerMinute: 100, DailyTokenBudget: 1_000_000}},
		map[string]llm.Provider{"openai": up})
	uid, token := apitest.User(t, s.st, s.tokens, "ada")
	conn := s.connect(token, "openai", "gpt-4o-mini")
	if w := s.send(token, msg{ConnectionID: conn, Message: "hi"}); w.Code != http.StatusOK {
		t.Fatalf("first message: %d %s", w.Code, w.Body)
	}
	if _, err := s.st.EndSessions(t.Context(), uid); err != nil {
		t.Fatal(err)
	}

	w := s.sendWithin(token, msg{ConnectionID: conn, Message: "again"}, patience)
	wantError(t, w, http.StatusUnauthorized)
	if n := len(up.requests()); n != 2 {
		t.Fatalf("provider calls = %d, want 2: the sure message's call starts before its checks", n)
	}
	select {
	case <-up.ended:
	case <-time.After(patience):
		t.Fatal("the refused message's provider call was not cancelled")
	}

	wantError(t, s.sendWithin(token, msg{ConnectionID: conn, Message: "once more"}, patience), http.StatusUnauthorized)
	if n := len(up.requests()); n != 2 {
		t.Errorf("provider calls = %d, want still 2: after a refusal a message waits for its checks", n)
	}
}

// Close to a limit nothing is sure: with 3 messages a minute, the third
// waits for its checks (and passes), the fourth is refused without a
// provider call, although the session and connection passed just before.
func TestNearALimitMessagesWaitForTheirChecks(t *testing.T) {
	t.Parallel()
	up := replies(llm.Usage{InputTokens: 1, OutputTokens: 1}, "ok")
	s := newSessionStack(t, chatapi.Options{StallTimeout: patience, Limits: config.ChatLimits{RequestsPerMinute: 3}},
		map[string]llm.Provider{"openai": up})
	_, token := apitest.User(t, s.st, s.tokens, "bob")
	conn := s.connect(token, "openai", "gpt-4o-mini")
	for i := range 3 {
		if w := s.send(token, msg{ConnectionID: conn, Message: "hi"}); w.Code != http.StatusOK {
			t.Fatalf("message %d: %d %s", i+1, w.Code, w.Body)
		}
	}
	wantError(t, s.send(token, msg{ConnectionID: conn, Message: "hi"}), http.StatusTooManyRequests)
	if n := len(up.requests()); n != 3 {
		t.Errorf("provider calls = %d, want 3", n)
	}
}
