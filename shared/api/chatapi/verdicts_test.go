package chatapi_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"aiwork/shared/api/apitest"
	"aiwork/shared/api/chatapi"
	"aiwork/shared/auth"
	"aiwork/shared/chat/chattest"
	"aiwork/shared/config"
	"aiwork/shared/llm"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// firstThenHangs answers its first call, then holds every later call until
// its context ends (a provider still thinking).
func firstThenHangs() *chattest.Upstream {
	var calls atomic.Int32
	return chattest.NewUpstream(func(ctx context.Context, _ llm.Request, emit func(string) error) (llm.Usage, error) {
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
	chattest.WantError(t, w, http.StatusUnauthorized)
	if n := len(up.Requests()); n != 2 {
		t.Fatalf("provider calls = %d, want 2: the sure message's call starts before its checks", n)
	}
	select {
	case <-up.Ended:
	case <-time.After(patience):
		t.Fatal("the refused message's provider call was not cancelled")
	}

	chattest.WantError(t, s.sendWithin(token, msg{ConnectionID: conn, Message: "once more"}, patience), http.StatusUnauthorized)
	if n := len(up.Requests()); n != 2 {
		t.Errorf("provider calls = %d, want still 2: after a refusal a message waits for its checks", n)
	}
}

// Close to a limit nothing is sure: with 3 messages a minute, the third
// waits for its checks (and passes), the fourth is refused without a
// provider call, although the session and connection passed just before.
func TestNearALimitMessagesWaitForTheirChecks(t *testing.T) {
	t.Parallel()
	up := chattest.Replies(llm.Usage{InputTokens: 1, OutputTokens: 1}, "ok")
	s := newSessionStack(t, chatapi.Options{StallTimeout: patience, Limits: config.ChatLimits{RequestsPerMinute: 3}},
		map[string]llm.Provider{"openai": up})
	_, token := apitest.User(t, s.st, s.tokens, "bob")
	conn := s.connect(token, "openai", "gpt-4o-mini")
	for i := range 3 {
		if w := s.send(token, msg{ConnectionID: conn, Message: "hi"}); w.Code != http.StatusOK {
			t.Fatalf("message %d: %d %s", i+1, w.Code, w.Body)
		}
	}
	chattest.WantError(t, s.send(token, msg{ConnectionID: conn, Message: "hi"}), http.StatusTooManyRequests)
	if n := len(up.Requests()); n != 3 {
		t.Errorf("provider calls = %d, want 3", n)
	}
}

// heldSessions is the store's session check, held back while armed: the
// test decides when the lookup answers.
type heldSessions struct {
	st   *store.Store
	hold atomic.Pointer[chan struct{}]
}

func (h *heldSessions) SessionLive(ctx context.Context, uid, sid string) (bool, error) {
	if c := h.hold.Load(); c != nil {
		select {
		case <-*c:
		case <-ctx.Done():
			return false, ctx.Err()
		}
	}
	return h.st.SessionLive(ctx, uid, sid)
}

// A sure message whose content already went out when its checks refuse it
// (the session ended meanwhile) is cut off with an error frame saying why,
// no [DONE]; the provider's call is cancelled and what it spent is counted.
func TestSureMessageRefusedAfterContentEndsWithAnErrorFrame(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	up := chattest.NewUpstream(func(ctx context.Context, _ llm.Request, emit func(string) error) (llm.Usage, error) {
		if err := emit("Bon"); err != nil {
			return llm.Usage{}, err
		}
		if calls.Add(1) == 1 {
			return llm.Usage{InputTokens: 3, OutputTokens: 1}, nil
		}
		<-ctx.Done() // the second call: still thinking when it is cut off
		return llm.Usage{}, ctx.Err()
	})
	held := &heldSessions{}
	s := newStackTokens(t, chatapi.Options{StallTimeout: patience,
		Limits: config.ChatLimits{MaxConcurrentStreams: 3, RequestsPerMinute: 100, DailyTokenBudget: 1_000_000}},
		map[string]llm.Provider{"openai": up}, func(st *store.Store) *auth.Tokens {
			held.st = st
			return auth.NewTokens(secret, time.Hour).WithSessions(held)
		})
	uid, token := apitest.User(t, s.st, s.tokens, "cy")
	conn := s.connect(token, "openai", "gpt-4o-mini")
	if w := s.send(token, msg{ConnectionID: conn, Message: "hi"}); w.Code != http.StatusOK {
		t.Fatalf("first message: %d %s", w.Code, w.Body)
	}
	before, err := s.st.ChatTokensOn(t.Context(), uid, time.Now())
	storetest.Must(t, err, "tokens")

	release := make(chan struct{})
	held.hold.Store(&release)
	if _, err := s.st.EndSessions(t.Context(), uid); err != nil {
		t.Fatal(err)
	}
	res := s.openStream(token, msg{ConnectionID: conn, Message: "again"})
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d: the sure message should stream before its checks end", res.StatusCode)
	}
	rd := bufio.NewReader(res.Body)
	first, err := rd.ReadString('\n')
	if err != nil || first != `data: {"content":"Bon"}`+"\n" {
		t.Fatalf("first line %q, %v", first, err)
	}
	close(release) // the lookup answers now: the session has ended
	rest, _ := io.ReadAll(rd)
	if !strings.Contains(string(rest), "event: error\ndata: {\"detail\":\"Your session has ended. Please log in again.\"}") ||
		strings.Contains(string(rest), "[DONE]") {
		t.Errorf("after the refusal the stream sent %q, want the error frame and no [DONE]", rest)
	}
	select {
	case <-up.Ended:
	case <-time.After(patience):
		t.Fatal("the provider's call was not cancelled")
	}
	after, err := s.st.ChatTokensOn(t.Context(), uid, time.Now())
	storetest.Must(t, err, "tokens")
	if after <= before {
		t.Errorf("tokens today %d → %d: the cut-off stream's spending was not counted", before, after)
	}
}

// countedSessions is the store's session check, counting its lookups.
type countedSessions struct {
	st      *store.Store
	lookups atomic.Int32
}

func (c *countedSessions) SessionLive(ctx context.Context, uid, sid string) (bool, error) {
	c.lookups.Add(1)
	return c.st.SessionLive(ctx, uid, sid)
}

// A sure message's checks start once its second frame went out (or its
// call ended, or SureChecksAfter passed), so their store calls stay out of
// the first frame's way (DESIGN §10); they still run, and the stream ends
// normally once they pass.
func TestSureMessageChecksStartAfterItsFirstFrame(t *testing.T) {
	t.Parallel()
	next := make(chan struct{})
	var calls atomic.Int32
	up := chattest.NewUpstream(func(ctx context.Context, _ llm.Request, emit func(string) error) (llm.Usage, error) {
		if err := emit("one "); err != nil {
			return llm.Usage{}, err
		}
		if calls.Add(1) > 1 {
			select {
			case <-next:
			case <-ctx.Done():
				return llm.Usage{}, ctx.Err()
			}
		}
		if err := emit("two"); err != nil {
			return llm.Usage{}, err
		}
		return llm.Usage{InputTokens: 3, OutputTokens: 2}, nil
	})
	counted := &countedSessions{}
	s := newStackTokens(t, chatapi.Options{StallTimeout: patience, SureChecksAfter: time.Hour,
		Limits: config.ChatLimits{MaxConcurrentStreams: 3, RequestsPerMinute: 100, DailyTokenBudget: 1_000_000}},
		map[string]llm.Provider{"openai": up}, func(st *store.Store) *auth.Tokens {
			counted.st = st
			return auth.NewTokens(secret, time.Hour).WithSessions(counted)
		})
	_, token := apitest.User(t, s.st, s.tokens, "dee")
	conn := s.connect(token, "openai", "gpt-4o-mini")
	if w := s.send(token, msg{ConnectionID: conn, Message: "hi"}); w.Code != http.StatusOK {
		t.Fatalf("first message: %d %s", w.Code, w.Body)
	}
	before := counted.lookups.Load() // sign-up, connect and the first message

	res := s.openStream(token, msg{ConnectionID: conn, Message: "again"})
	rd := bufio.NewReader(res.Body)
	if first := chattest.ReadFrame(t, rd, patience); first != `data: {"content":"one "}`+"\n\n" {
		t.Fatalf("first frame %q", first)
	}
	if n := counted.lookups.Load() - before; n != 0 {
		t.Errorf("session lookups with one frame out = %d, want 0: the checks started before the first frame", n)
	}
	close(next)
	rest, _ := io.ReadAll(rd)
	if !strings.Contains(string(rest), `"content":"two"`) || !strings.HasSuffix(string(rest), "data: [DONE]\n\n") {
		t.Errorf("rest of the stream %q, want the second frame and [DONE]", rest)
	}
	if n := counted.lookups.Load() - before; n != 1 {
		t.Errorf("session lookups of the sure message = %d, want 1: its checks ran", n)
	}
}
