package devstack_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v84"
	"github.com/stripe/stripe-go/v84/webhook"

	"aiwork/shared/api/apitest"
	"aiwork/shared/chat"
	"aiwork/shared/config"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/local/devstack"
	"aiwork/shared/seeddata"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
	"aiwork/shared/testbed/faultproxy"
)

// faultStack is the whole API on a real table reached through a fault
// proxy: the table can be stopped (connections refused) or made
// silent (connections accepted, never answered) and brought back, while
// the handlers run unchanged.
type faultStack struct {
	t     *testing.T
	h     http.Handler
	st    *store.Store
	table *faultproxy.Proxy
}

const faultWebhookSecret = "whsec_faults"

func newFaultStack(t *testing.T) *faultStack {
	t.Helper()
	// A silent table is given up on sooner here than the default, yet
	// not so soon that a table slowed by a busy machine counts as down.
	st, proxy, viaProxy := storetest.ViaFaultProxy(t, 1500*time.Millisecond)
	storetest.Must(t, seeddata.Seed(context.Background(), st), "seed")
	cfg := devstack.ConfigFor(viaProxy, jwtSecret, 5, faultWebhookSecret)
	cfg.MCP.MCPClient = config.MCPClient{Outbound: config.Outbound{AllowLoopback: true}, ConnectTimeout: 10 * time.Second}
	cfg.MCP.ConnectsPerMinute, cfg.MCP.HostConnectsPerMinute = 60, 60
	cfg.Chat.DemoDelay = time.Millisecond
	cfg.Prompts.SkipEmailVerification = true
	h, err := devstack.Handler(st, cfg, "")
	storetest.Must(t, err, "handler")
	return &faultStack{t: t, h: h, st: st, table: proxy}
}

func (f *faultStack) do(method, path, token, body string) *httptest.ResponseRecorder {
	return apitest.Do(f.h, method, path, token, body, nil)
}

// want checks a status and answers the body.
func (f *faultStack) want(w *httptest.ResponseRecorder, status int) []byte {
	f.t.Helper()
	if w.Code != status {
		f.t.Fatalf("status %d, want %d: %s", w.Code, status, w.Body)
	}
	return w.Body.Bytes()
}

// wantUnavailable checks the 503 a request gets while the table is down.
func (f *faultStack) wantUnavailable(w *httptest.ResponseRecorder) {
	f.t.Helper()
	e := apitest.WantError(f.t, w, http.StatusServiceUnavailable, httpx.MsgUnavailable)
	if e.Code != "unavailable" || w.Header().Get("Retry-After") == "" {
		f.t.Errorf("503 %+v, Retry-After %q", e, w.Header().Get("Retry-After"))
	}
}

func jsonField(t *testing.T, raw []byte, name string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	s, _ := m[name].(string)
	return s
}

// The table stops, or answers nothing, during a sign-in: 503 with the
// busy message (not an internal error), and the same sign-in works once
// it is back, without a restart.
func TestTableDownDuringLogin(t *testing.T) {
	t.Parallel()
	f := newFaultStack(t)
	body := `{"email":"down@example.com","username":"downuser","full_name":"Down","password":"secret-123"}`
	f.want(f.do("POST", "/api/v1/auth/register", "", body), http.StatusCreated)
	login := `{"email":"down@example.com","password":"secret-123"}`
	for _, mode := range []faultproxy.Mode{faultproxy.Refuse, faultproxy.Silent} {
		f.table.Set(mode)
		f.wantUnavailable(f.do("POST", "/api/v1/auth/login", "", login))
		f.table.Set(faultproxy.Pass)
		if token := jsonField(t, f.want(f.do("POST", "/api/v1/auth/login", "", login), http.StatusOK), "access_token"); token == "" {
			t.Fatal("no token after the table came back")
		}
	}
}

// A free claim while the table is down spends nothing; once it is back the
// claim works and spends one use.
func TestTableDownDuringAFreeClaim(t *testing.T) {
	t.Parallel()
	f := newFaultStack(t)
	token := f.login(t, "claimer")
	prompts, err := seeddata.Prompts()
	storetest.Must(t, err, "catalogue")
	pid := prompts[0].ID
	f.table.Set(faultproxy.Refuse)
	f.wantUnavailable(f.do("POST", "/api/v1/prompts/use-free-prompt/"+pid, token, ""))
	f.table.Set(faultproxy.Pass)
	var status domain.FreeStatus
	storetest.Must(t, json.Unmarshal(f.want(f.do("GET", "/api/v1/prompts/free-usage-status", token, ""), http.StatusOK), &status), "status")
	if status.Used != 0 {
		t.Fatalf("a refused claim spent a use: %+v", status)
	}
	f.want(f.do("POST", "/api/v1/prompts/use-free-prompt/"+pid, token, ""), http.StatusOK)
	storetest.Must(t, json.Unmarshal(f.want(f.do("GET", "/api/v1/prompts/free-usage-status", token, ""), http.StatusOK), &status), "status")
	if status.Used != 1 || len(status.PromptIDs) != 1 {
		t.Fatalf("after the table came back: %+v", status)
	}
}

// login registers and signs in through the API (sessions checked).
func (f *faultStack) login(t *testing.T, name string) string {
	t.Helper()
	body := `{"email":"` + name + `@example.com","username":"` + name + `","full_name":"F","password":"secret-123"}`
	f.want(f.do("POST", "/api/v1/auth/register", "", body), http.StatusCreated)
	return jsonField(t, f.want(f.do("POST", "/api/v1/auth/login", "", `{"email":"`+name+`@example.com","password":"secret-123"}`), http.StatusOK), "access_token")
}

// A chat message's admission and an MCP connect while the table is down:
// 503, nothing sent, and both work once it is back.
func TestTableDownDuringChatAndConnect(t *testing.T) {
	t.Parallel()
	f := newFaultStack(t)
	token := f.login(t, "chatter")
	conn := jsonField(t, f.want(f.do("POST", "/api/v1/mcp-connections/openai", token, `{"model":"gpt-4o-mini"}`), http.StatusOK), "id")
	message := `{"connection_id":"` + conn + `","message":"Hi","model":"gpt-4o-mini","context":[]}`
	f.table.Set(faultproxy.Refuse)
	f.wantUnavailable(f.do("POST", "/api/v1/mcp-connections/message", token, message))
	f.table.Set(faultproxy.Pass)
	if reply := f.do("POST", "/api/v1/mcp-connections/message", token, message); reply.Code != http.StatusOK || !strings.Contains(reply.Body.String(), "[DONE]") {
		t.Fatalf("the message after the table came back: %d %s", reply.Code, reply.Body)
	}

	storetest.Must(t, f.st.UpsertMCPServer(context.Background(), domain.MCPServer{ID: "faults", Name: "test/faults", Title: "Faults",
		EndpointURL: echoMCPServer(t, "faults"), Transport: domain.TransportStreamableHTTP, ModelType: "code", IsActive: true, Source: "local"}), "server")
	f.table.Set(faultproxy.Refuse)
	f.wantUnavailable(f.do("POST", "/api/v1/mcp-connections/", token, `{"server_id":"faults"}`))
	f.table.Set(faultproxy.Pass)
	var list []struct {
		ServerID string `json:"server_id"`
	}
	storetest.Must(t, json.Unmarshal(f.want(f.do("GET", "/api/v1/mcp-connections/", token, ""), http.StatusOK), &list), "connections")
	for _, c := range list {
		if c.ServerID == "faults" {
			t.Fatal("a connect refused while the table was down was stored")
		}
	}
	f.want(f.do("POST", "/api/v1/mcp-connections/", token, `{"server_id":"faults"}`), http.StatusOK)
}

// A payment's webhook event arrives while the table is down: it is
// refused (so Stripe sends it again), and the redelivery fulfils it
// exactly once, however often it comes.
func TestWebhookRetriedAfterTheTableWasDown(t *testing.T) {
	t.Parallel()
	f := newFaultStack(t)
	token := f.login(t, "payer")
	uid := jsonField(t, f.want(f.do("GET", "/api/v1/auth/me", token, ""), http.StatusOK), "id")
	prompts, err := seeddata.Prompts()
	storetest.Must(t, err, "catalogue")
	pid := prompts[2].ID
	payload, _ := json.Marshal(map[string]any{
		"id": "evt_faults_paid", "object": "event", "api_version": stripe.APIVersion, "created": time.Now().Unix(),
		"livemode": false, "pending_webhooks": 1, "type": "checkout.session.completed",
		"request": map[string]any{"id": nil, "idempotency_key": nil},
		"data": map[string]any{"object": map[string]any{
			"id": "cs_test_faults", "object": "checkout.session", "mode": "payment", "status": "complete", "payment_status": "paid",
			"amount_total": 499, "currency": "usd", "payment_intent": "pi_faults", "client_reference_id": uid,
			"metadata": map[string]string{"user_id": uid, "prompt_id": pid}, "created": time.Now().Unix(),
		}},
	})
	deliver := func() int {
		signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: faultWebhookSecret, Timestamp: time.Now()})
		return apitest.Do(f.h, "POST", "/api/v1/payments/webhook", "", string(signed.Payload), map[string]string{"Stripe-Signature": signed.Header}).Code
	}
	f.table.Set(faultproxy.Refuse)
	if code := deliver(); code < 500 {
		t.Fatalf("the event was answered %d while the table was down; Stripe would not send it again", code)
	}
	f.table.Set(faultproxy.Pass)
	for range 3 {
		if code := deliver(); code != http.StatusOK {
			t.Fatalf("redelivery answered %d", code)
		}
	}
	ctx := context.Background()
	owned, err := f.st.OwnedPromptIDs(ctx, uid)
	storetest.Must(t, err, "owned")
	order, err := f.st.GetOrder(ctx, "cs_test_faults")
	storetest.Must(t, err, "order")
	if len(owned) != 1 || owned[0] != pid || order.Status != domain.OrderPaid {
		t.Fatalf("after redeliveries: owned %v, order %+v", owned, order)
	}
	p, err := f.st.GetPrompt(ctx, pid)
	storetest.Must(t, err, "prompt")
	if p.Stats.Purchases != 1 {
		t.Errorf("the purchase was counted %d times", p.Stats.Purchases)
	}
}

// openAIChunk is one event of OpenAI's chat-completions stream.
func openAIChunk(text string) string {
	b, _ := json.Marshal(map[string]any{"id": "chatcmpl-f", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o-mini",
		"choices": []map[string]any{{"index": 0, "delta": map[string]any{"content": text}}}})
	return "data: " + string(b) + "\n\n"
}

// A provider that fails on the wire, through the real OpenAI adapter: the
// stream cut after two chunks, an event that is not JSON, a stall past the
// stall timeout. Each ends the reply with an error frame saying what
// happened, its usage is recorded, and its stream slot is freed (one slot:
// the next message is admitted).
func TestProviderFaultsOnTheWire(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, detail string
		serve        func(w http.ResponseWriter, r *http.Request, flush func())
	}{
		{"dropped mid-reply", chat.MsgProviderCut, func(w http.ResponseWriter, r *http.Request, flush func()) {
			_, _ = w.Write([]byte(openAIChunk("Tides ") + openAIChunk("are ")))
			flush()
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				_ = conn.Close()
			}
		}},
		{"invalid JSON in an event", chat.MsgProviderUnreadable, func(w http.ResponseWriter, r *http.Request, flush func()) {
			_, _ = w.Write([]byte(openAIChunk("Tides ") + "data: {\"choices\": [{\"delta\": {\"content\": \"are\n\n"))
			flush()
		}},
		{"stalled", "Stream timeout", func(w http.ResponseWriter, r *http.Request, flush func()) {
			_, _ = w.Write([]byte(openAIChunk("Tides ")))
			flush()
			<-r.Context().Done()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				w.WriteHeader(http.StatusOK)
				tc.serve(w, r, func() { http.NewResponseController(w).Flush() })
			}))
			t.Cleanup(provider.Close)
			seed, storeCfg := storetest.NewWithConfig(t)
			cfg := devstack.ConfigFor(storeCfg, jwtSecret, 5, faultWebhookSecret)
			cfg.Chat.Providers = config.Providers{OpenAIKey: "sk-faults", OpenAIBaseURL: provider.URL}
			cfg.Chat.StallTimeout = 500 * time.Millisecond
			cfg.Chat.Limits = config.ChatLimits{MaxConcurrentStreams: 1}
			h, err := devstack.Handler(seed, cfg, "")
			storetest.Must(t, err, "handler")
			f := &faultStack{t: t, h: h, st: seed}
			token := f.login(t, "wire")
			conn := jsonField(t, f.want(f.do("POST", "/api/v1/mcp-connections/openai", token, `{"model":"gpt-4o-mini"}`), http.StatusOK), "id")
			message := `{"connection_id":"` + conn + `","message":"What are tides?","model":"gpt-4o-mini","context":[]}`
			reply := f.want(f.do("POST", "/api/v1/mcp-connections/message", token, message), http.StatusOK)
			i := strings.LastIndex(string(reply), "event: error\ndata: ")
			if i < 0 || strings.Contains(string(reply), "[DONE]") {
				t.Fatalf("the reply did not end with an error frame: %q", reply)
			}
			var frame struct{ Detail string }
			storetest.Must(t, json.Unmarshal([]byte(strings.TrimSpace(strings.TrimPrefix(string(reply[i:]), "event: error\ndata: "))), &frame), "error frame")
			if frame.Detail != tc.detail {
				t.Errorf("error frame detail %q, want %q", frame.Detail, tc.detail)
			}
			var usage struct {
				Today struct {
					InputTokens int `json:"input_tokens"`
					Requests    int `json:"requests"`
				} `json:"today"`
			}
			storetest.Must(t, json.Unmarshal(f.want(f.do("GET", "/api/v1/users/usage", token, ""), http.StatusOK), &usage), "usage")
			if usage.Today.Requests != 1 || usage.Today.InputTokens == 0 {
				t.Errorf("usage after the fault: %+v", usage.Today)
			}
			if again := f.do("POST", "/api/v1/mcp-connections/message", token, message); again.Code != http.StatusOK {
				t.Errorf("the next message (one stream slot): %d %s", again.Code, again.Body)
			}
		})
	}
}
