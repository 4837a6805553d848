package devstack_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
	"github.com/stripe/stripe-go/v84"
	"github.com/stripe/stripe-go/v84/webhook"

	"aiwork/shared/api/apitest"
	"aiwork/shared/auth"
	"aiwork/shared/config"
	"aiwork/shared/domain"
	"aiwork/shared/lambdas"
	"aiwork/shared/local/devstack"
	"aiwork/shared/local/localmcp/localmcptest"
	"aiwork/shared/mcpjobs"
	"aiwork/shared/seeddata"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// tableCall is one DynamoDB request a function made: the operation, GSI1
// when it queried the index, and the partition key it addressed.
type tableCall struct {
	function, op, index, pk string
}

type functionKey struct{}

// callRecorder keeps every table call made under a function's context.
type callRecorder struct {
	mu    sync.Mutex
	calls []tableCall
}

func (c *callRecorder) middleware(stack *middleware.Stack) error {
	return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("recordTableCall",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			if fn, ok := ctx.Value(functionKey{}).(string); ok {
				call := tableCall{function: fn, op: awsmiddleware.GetOperationName(ctx)}
				var pks []string
				call.index, pks = addressed(in.Parameters)
				c.mu.Lock()
				for _, call.pk = range pks {
					c.calls = append(c.calls, call)
				}
				c.mu.Unlock()
			}
			return next.HandleInitialize(ctx, in)
		}), middleware.After)
}

var keyCondition = regexp.MustCompile(`(#?\w+)\s*=\s*(:\w+)`)

// addressed answers the index a request reads (or "") and the partition key
// values it addresses: the item's PK, a query's partition key, or each key
// of a batched read (each must be allowed).
func addressed(params any) (index string, pks []string) {
	str := func(av types.AttributeValue) string {
		if s, ok := av.(*types.AttributeValueMemberS); ok {
			return s.Value
		}
		return ""
	}
	switch in := params.(type) {
	case *dynamodb.GetItemInput:
		return "", []string{str(in.Key[store.AttrPK])}
	case *dynamodb.BatchGetItemInput:
		for _, table := range in.RequestItems {
			for _, k := range table.Keys {
				pks = append(pks, str(k[store.AttrPK]))
			}
		}
		return "", pks
	case *dynamodb.PutItemInput:
		return "", []string{str(in.Item[store.AttrPK])}
	case *dynamodb.UpdateItemInput:
		return "", []string{str(in.Key[store.AttrPK])}
	case *dynamodb.DeleteItemInput:
		return "", []string{str(in.Key[store.AttrPK])}
	case *dynamodb.QueryInput:
		index = aws.ToString(in.IndexName)
		for _, m := range keyCondition.FindAllStringSubmatch(aws.ToString(in.KeyConditionExpression), -1) {
			name := m[1]
			if n, ok := in.ExpressionAttributeNames[name]; ok {
				name = n
			}
			if name == store.AttrPK || name == store.AttrGSI1PK || name == store.AttrGSI2PK {
				return index, []string{str(in.ExpressionAttributeValues[m[2]])}
			}
		}
		return index, []string{""}
	}
	return "", []string{""} // Scan, batched writes, transactions, table calls: never allowed
}

// like is IAM's StringLike: * is any run of characters, ? one character.
func like(pattern, s string) bool {
	re := "^" + strings.ReplaceAll(strings.ReplaceAll(regexp.QuoteMeta(pattern), `\*`, ".*"), `\?`, ".") + "$"
	return regexp.MustCompile(re).MatchString(s)
}

// allowed reports whether the function's Access (shared/lambdas) allows call,
// and the pattern that allows it.
func allowed(call tableCall) (string, bool) {
	f, ok := lambdas.Get(call.function)
	access := f.Access
	if !ok || call.pk == "" {
		return "", false
	}
	patterns := access.Table[call.op]
	if call.index != "" {
		indexes := map[string][]string{store.IndexGSI1: access.Index, store.IndexGSI2: access.Index2}
		var known bool
		if patterns, known = indexes[call.index]; !known || call.op != lambdas.Query {
			return "", false
		}
	}
	for _, p := range patterns {
		if like(p, call.pk) {
			return p, true
		}
	}
	return "", false
}

// recordingStore is a store on a fresh, seeded table whose calls are
// recorded when made under a function's context.
func recordingStore(t *testing.T, rec *callRecorder) (*store.Store, config.Store) {
	t.Helper()
	seed, storeCfg := storetest.NewWithConfig(t)
	storetest.Must(t, seeddata.Seed(context.Background(), seed), "seed prompts")
	awsCfg := config.AWS(storeCfg.Region)
	awsCfg.APIOptions = append(awsCfg.APIOptions, rec.middleware)
	return store.NewFromAWS(awsCfg, storeCfg), storeCfg
}

// TestTableAccess runs every route group through its main paths (accounts,
// mail links, catalogue, free use, checkout, payment, webhook events,
// ratings, MCP registry and connections, chat) and both jobs, recording
// every DynamoDB call each function makes, and fails on any call the
// function's IAM grant (its Access in shared/lambdas, turned into its policy by the
// CDK stack) would refuse in AWS: another action, another partition, an
// index it may not query. The tests of the groups do not enforce IAM, so
// this is what keeps the grants and the code in step.
func TestTableAccess(t *testing.T) {
	rec := &callRecorder{}
	st, storeCfg := recordingStore(t, rec)
	ctx := context.Background()
	prompts, err := seeddata.Prompts()
	storetest.Must(t, err, "catalogue")

	// An MCP server of our own in the registry, so a connect succeeds.
	mcpEndpoint := echoMCPServer(t, "access-test")
	storetest.Must(t, st.UpsertMCPServer(ctx, domain.MCPServer{ID: "access-test", Name: "test/access", Title: "Access test",
		Description: "In-process MCP server", EndpointURL: mcpEndpoint, Transport: domain.TransportStreamableHTTP,
		ModelType: "general", IsActive: true, Source: "local"}), "MCP server")

	// An OpenID provider that publishes its endpoints and refuses every code:
	// Google sign-in starts (state saved) and its callback spends the state.
	var issuer *httptest.Server
	issuer = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/.well-known/openid-configuration" {
			http.Error(w, `{"error":"invalid_grant"}`, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"issuer":%q,"authorization_endpoint":"%[1]s/authorize","token_endpoint":"%[1]s/token","jwks_uri":"%[1]s/jwks",
			"response_types_supported":["code"],"subject_types_supported":["public"],"id_token_signing_alg_values_supported":["RS256"]}`, issuer.URL)
	}))
	t.Cleanup(issuer.Close)

	const secret = "whsec_table_access"
	mailDir := t.TempDir()
	// Small per-minute limits, so that refusals (which read the window) run too.
	limits := config.ChatLimits{MaxConcurrentStreams: 3, RequestsPerMinute: 3, DailyTokenBudget: 200_000}
	cfg := devstack.Config{
		Auth: config.Auth{Base: config.Base{Store: storeCfg, JWTSecret: jwtSecret}, TokenTTL: time.Hour, AdminEmails: []string{"access@example.com"},
			Google: config.Google{ClientID: "client-id", ClientSecret: "client-secret", IssuerURL: issuer.URL}},
		Prompts:  config.Prompts{Base: config.Base{Store: storeCfg, JWTSecret: jwtSecret}, FreePromptsPerUser: 1},
		Payments: config.Payments{Base: config.Base{Store: storeCfg, JWTSecret: jwtSecret}, FreePromptsPerUser: 1},
		Webhook:  config.Webhook{Base: config.Base{Store: storeCfg}, WebhookSecret: secret},
		Chat:     config.Chat{Base: config.Base{Store: storeCfg, JWTSecret: jwtSecret}, StallTimeout: 10 * time.Second, DemoDelay: time.Millisecond, Limits: limits},
		Admin:    config.Admin{MCPJobs: config.MCPJobs{Outbound: config.Outbound{AllowLoopback: true}}},
		MCP: config.MCP{MCPClient: config.MCPClient{Outbound: config.Outbound{AllowLoopback: true}, ConnectTimeout: 10 * time.Second},
			ConnectsPerMinute: 2, HostConnectsPerMinute: 60},
		MailDir: mailDir,
		WrapGroup: func(fn string, h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), functionKey{}, fn)))
			})
		},
	}
	h, err := devstack.Handler(st, cfg, "")
	if err != nil {
		t.Fatal(err)
	}

	do := func(method, path, token, body string, want int) []byte {
		t.Helper()
		w := apitest.Do(h, method, path, token, body, nil)
		if w.Code != want {
			t.Fatalf("%s %s = %d %s, want %d", method, path, w.Code, w.Body.String(), want)
		}
		return w.Body.Bytes()
	}
	field := func(raw []byte, name string) string {
		t.Helper()
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		s, _ := m[name].(string)
		if s == "" {
			t.Fatalf("no %s in %s", name, raw)
		}
		return s
	}
	mailedToken := func(page string) string {
		t.Helper()
		names, _ := filepath.Glob(filepath.Join(mailDir, "*.eml"))
		slices.Sort(names)
		for i := len(names) - 1; i >= 0; i-- {
			raw, _ := os.ReadFile(names[i])
			if m := regexp.MustCompile(regexp.QuoteMeta(page) + `\?token=([A-Za-z0-9_-]+)`).FindSubmatch(raw); m != nil {
				return string(m[1])
			}
		}
		t.Fatalf("no mail with a %s link", page)
		return ""
	}
	deliver := func(id, typ string, object map[string]any) {
		t.Helper()
		payload, _ := json.Marshal(map[string]any{
			"id": id, "object": "event", "api_version": stripe.APIVersion, "created": time.Now().Unix(),
			"livemode": false, "pending_webhooks": 1, "type": typ,
			"request": map[string]any{"id": nil, "idempotency_key": nil}, "data": map[string]any{"object": object},
		})
		signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: time.Now()})
		w := apitest.Do(h, "POST", "/api/v1/payments/webhook", "", string(signed.Payload), map[string]string{"Stripe-Signature": signed.Header})
		if w.Code != http.StatusOK {
			t.Fatalf("webhook %s = %d %s", typ, w.Code, w.Body.String())
		}
	}

	// auth: register, confirm, a wrong and a right password, me, reset,
	// logout, sign in again.
	const email, password = "access@example.com", "secret-123"
	do("POST", "/api/v1/auth/register", "", `{"email":"`+email+`","username":"accessuser","full_name":"Access User","password":"`+password+`"}`, http.StatusCreated)
	verify := mailedToken("/verify-email")
	do("POST", "/api/v1/auth/verify-email", "", `{"token":"`+verify+`"}`, http.StatusOK)
	do("POST", "/api/v1/auth/verify-email", "", `{"token":"`+verify+`"}`, http.StatusBadRequest) // used: read to say so
	// A taken username: the guard is read, the email guard and the profile
	// written before it are removed again.
	do("POST", "/api/v1/auth/register", "", `{"email":"other@example.com","username":"accessuser","full_name":"Other","password":"`+password+`"}`, http.StatusConflict)
	for range 5 {
		do("POST", "/api/v1/auth/forgot-password", "", `{"email":"nobody@example.com"}`, http.StatusOK)
	}
	do("POST", "/api/v1/auth/forgot-password", "", `{"email":"nobody@example.com"}`, http.StatusTooManyRequests)
	do("POST", "/api/v1/auth/login", "", `{"email":"`+email+`","password":"wrong-password"}`, http.StatusUnauthorized)
	token := field(do("POST", "/api/v1/auth/login", "", `{"email":"`+email+`","password":"`+password+`"}`, http.StatusOK), "access_token")
	uid := field(do("GET", "/api/v1/auth/me", token, "", http.StatusOK), "id")
	do("POST", "/api/v1/auth/resend-verification", token, "", http.StatusOK)
	do("POST", "/api/v1/auth/forgot-password", "", `{"email":"`+email+`"}`, http.StatusOK)
	token = field(do("POST", "/api/v1/auth/reset-password", "", `{"token":"`+mailedToken("/reset-password")+`","password":"secret-456"}`, http.StatusOK), "access_token")
	do("POST", "/api/v1/auth/logout", token, "", http.StatusNoContent)
	token = field(do("POST", "/api/v1/auth/login", "", `{"email":"`+email+`","password":"secret-456"}`, http.StatusOK), "access_token")

	// Google sign-in: the start saves the state, the callback spends it
	// (then the provider refuses the code).
	w := apitest.Do(h, "GET", "/api/v1/auth/google/login", "", "", nil)
	if w.Code != http.StatusOK {
		t.Fatalf("google login = %d %s", w.Code, w.Body.String())
	}
	authURL, _ := url.Parse(field(w.Body.Bytes(), "auth_url"))
	callback := httptest.NewRequest("GET", "/api/v1/auth/google/callback?"+url.Values{"state": {authURL.Query().Get("state")}, "code": {"c"}}.Encode(), nil)
	for _, c := range w.Result().Cookies() {
		callback.AddCookie(c)
	}
	cw := httptest.NewRecorder()
	h.ServeHTTP(cw, callback)
	if loc := cw.Header().Get("Location"); cw.Code != http.StatusFound || !strings.Contains(loc, "error=") {
		t.Fatalf("google callback = %d %s, want the refused code's redirect", cw.Code, loc)
	}

	// prompts: the catalogue, one free use.
	do("GET", "/api/v1/prompts/", token, "", http.StatusOK)
	do("GET", "/api/v1/prompts/featured", token, "", http.StatusOK)
	do("GET", "/api/v1/prompts/categories", "", "", http.StatusOK)
	do("GET", "/api/v1/prompts/"+prompts[0].ID, token, "", http.StatusOK)
	do("GET", "/api/v1/prompts/free-usage-status", token, "", http.StatusOK)
	do("POST", "/api/v1/prompts/use-free-prompt/"+prompts[0].ID, token, "", http.StatusOK)
	// The marketplace list's pages: a search, a category, a next page, the
	// caller's own (with the content of the prompt claimed).
	do("GET", "/api/v1/prompts/", token, "", http.StatusOK)
	do("GET", "/api/v1/prompts/?q=email%20plan&sort=price-low", token, "", http.StatusOK)
	do("GET", "/api/v1/prompts/?q=writing&category=writing", "", "", http.StatusOK)
	next := field(do("GET", "/api/v1/prompts/?limit=2&sort=price-high", "", "", http.StatusOK), "next_cursor")
	do("GET", "/api/v1/prompts/?limit=2&sort=price-high&cursor="+next, "", "", http.StatusOK)
	do("GET", "/api/v1/prompts/?filter=mine", token, "", http.StatusOK)

	// payments and the webhook: buy one prompt (the local checkout's Pay
	// delivers checkout.session.completed), verify it, rate it; let a
	// second checkout expire; refund the first.
	sid := field(do("POST", "/api/v1/payments/create-checkout-session", token, `{"prompt_id":"`+prompts[1].ID+`"}`, http.StatusOK), "session_id")
	do("POST", "/dev/checkout/"+sid+"/pay", "", "", http.StatusSeeOther)
	do("GET", "/api/v1/payments/verify-session/"+sid, token, "", http.StatusOK)
	do("GET", "/api/v1/payments/owned-prompts", token, "", http.StatusOK)
	do("POST", "/api/v1/prompts/"+prompts[1].ID+"/rate", token, `{"rating":4}`, http.StatusOK)
	expiring := field(do("POST", "/api/v1/payments/create-checkout-session", token, `{"prompt_id":"`+prompts[2].ID+`"}`, http.StatusOK), "session_id")
	deliver("evt_access_expired", "checkout.session.expired", map[string]any{
		"id": expiring, "object": "checkout.session", "mode": "payment", "status": "expired", "payment_status": "unpaid",
		"amount_total": 100, "currency": "usd", "payment_intent": nil, "created": time.Now().Unix(),
	})
	// A second payment for the prompt already bought (a session made
	// elsewhere): refunded as a duplicate.
	deliver("evt_access_duplicate", "checkout.session.completed", map[string]any{
		"id": "cs_test_duplicate", "object": "checkout.session", "mode": "payment", "status": "complete", "payment_status": "paid",
		"amount_total": 100, "currency": "usd", "payment_intent": "pi_access_duplicate", "client_reference_id": uid,
		"metadata": map[string]string{"user_id": uid, "prompt_id": prompts[1].ID}, "created": time.Now().Unix(),
	})
	order, err := st.GetOrder(ctx, sid)
	storetest.Must(t, err, "paid order")
	deliver("evt_access_refunded", "charge.refunded", map[string]any{
		"id": "ch_access", "object": "charge", "amount": 100, "amount_refunded": 100, "currency": "usd",
		"paid": true, "captured": true, "refunded": true, "status": "succeeded", "payment_intent": order.PaymentIntent,
	})

	// A paid session whose order this table never saw (created elsewhere):
	// the webhook records the order from the event, then fulfils it.
	deliver("evt_access_unknown", "checkout.session.completed", map[string]any{
		"id": "cs_test_unknown", "object": "checkout.session", "mode": "payment", "status": "complete", "payment_status": "paid",
		"amount_total": 299, "currency": "usd", "payment_intent": "pi_access_unknown", "client_reference_id": "u-elsewhere",
		"metadata": map[string]string{"user_id": "u-elsewhere", "prompt_id": prompts[3].ID}, "created": time.Now().Unix(),
	})

	// users: activities and chat usage.
	do("GET", "/api/v1/users/activities", token, "", http.StatusOK)
	do("GET", "/api/v1/users/usage", token, "", http.StatusOK)

	// mcp: the registry, a provider connection, an MCP connection (a real
	// handshake with the server above), the list, a delete.
	do("GET", "/api/v1/mcp-servers/", "", "", http.StatusOK)
	do("GET", "/api/v1/mcp-servers/access-test", "", "", http.StatusOK)
	// The registry API (the mcp function's registry group): the list and
	// one server by its registry name, an unknown one.
	do("GET", "/api/registry/v0.1/servers?limit=5", "", "", http.StatusOK)
	do("GET", "/api/registry/v0.1/servers/test%2Faccess/versions/latest", "", "", http.StatusOK)
	do("GET", "/api/registry/v0.1/servers/com.example%2Fnone/versions", "", "", http.StatusNotFound)
	conn := field(do("POST", "/api/v1/mcp-connections/openai", token, `{"model":"gpt-4o-mini"}`, http.StatusOK), "id")
	mcpConn := field(do("POST", "/api/v1/mcp-connections/", token, `{"server_id":"access-test"}`, http.StatusOK), "connection_id")
	do("GET", "/api/v1/mcp-connections/", token, "", http.StatusOK)

	// chat: one streamed reply from the demo model, metered; one calling
	// the MCP server's echo (no read-only hint): paused for approval, then
	// resumed with "always allow" (the tools list and the revoke are the
	// mcp function's).
	// The first reply is kept with a conversation: created,
	// written as it streams, listed, read, re-attached, stopped, renamed,
	// deleted with its messages.
	convID := field(do("POST", "/api/v1/chat/conversations", token, `{"provider":"openai","model":"gpt-4o-mini"}`, http.StatusCreated), "id")
	reply := do("POST", "/api/v1/mcp-connections/message", token, `{"connection_id":"`+conn+`","message":"Hi","model":"gpt-4o-mini","context":[],"conversation_id":"`+convID+`"}`, http.StatusOK)
	if !strings.HasSuffix(string(reply), "data: [DONE]\n\n") {
		t.Fatalf("chat reply %q did not finish", reply)
	}
	replyID := regexp.MustCompile(`"assistant":"(m[0-9a-f]+)"`).FindSubmatch(reply)
	if replyID == nil {
		t.Fatalf("kept reply %q names no message ids", reply)
	}
	do("GET", "/api/v1/chat/conversations?q=hi", token, "", http.StatusOK)
	do("GET", "/api/v1/chat/conversations/"+convID+"/messages", token, "", http.StatusOK)
	do("GET", "/api/v1/chat/conversations/"+convID+"/messages/"+string(replyID[1])+"/stream", token, "", http.StatusOK)
	do("POST", "/api/v1/chat/conversations/"+convID+"/messages/"+string(replyID[1])+"/stop", token, "", http.StatusNoContent)
	do("PATCH", "/api/v1/chat/conversations/"+convID, token, `{"title":"Access","archived":true}`, http.StatusOK)
	do("DELETE", "/api/v1/chat/conversations/"+convID, token, "", http.StatusNoContent)
	paused := do("POST", "/api/v1/mcp-connections/message", token, `{"connection_id":"`+conn+`","message":"use echo","model":"gpt-4o-mini","context":[],"mcp_connection_ids":["`+mcpConn+`"]}`, http.StatusOK)
	approval := regexp.MustCompile(`"token":"(ta_[A-Za-z0-9_-]+)"`).FindSubmatch(paused)
	if approval == nil {
		t.Fatalf("tool reply %q did not pause for approval", paused)
	}
	reply = do("POST", "/api/v1/mcp-connections/message", token, `{"connection_id":"`+conn+`","message":"","model":"gpt-4o-mini","approval":{"token":"`+string(approval[1])+`","decision":"always"}}`, http.StatusOK)
	if !strings.Contains(string(reply), `"tool_result"`) || !strings.HasSuffix(string(reply), "data: [DONE]\n\n") {
		t.Fatalf("resumed reply %q did not run the tool and finish", reply)
	}
	do("POST", "/api/v1/mcp-connections/message", token, `{"connection_id":"`+conn+`","message":"Again","model":"gpt-4o-mini","context":[]}`, http.StatusTooManyRequests)
	do("GET", "/api/v1/mcp-connections/tools", token, "", http.StatusOK)
	do("DELETE", "/api/v1/mcp-connections/tools/always/access-test/echo", token, "", http.StatusNoContent)
	do("DELETE", "/api/v1/mcp-connections/"+mcpConn, token, "", http.StatusNoContent)

	// mcp: a sign-in to the OAuth example server (registration kept for
	// the site, the flow in the user's partition, the signed-in
	// connection), then its disconnect.
	oauthEx := localmcptest.OAuthExample(t)
	storetest.Must(t, st.UpsertMCPServer(ctx, domain.MCPServer{ID: "access-oauth", Name: "test/oauth", Title: "OAuth",
		EndpointURL: oauthEx.Endpoint, Transport: domain.TransportStreamableHTTP, ModelType: "general", IsActive: true, OAuthRequired: true, Source: "local"}), "OAuth server")
	sw := apitest.Do(h, "POST", "/api/v1/mcp-oauth/start", token, `{"server_id":"access-oauth"}`, nil)
	if sw.Code != http.StatusOK {
		t.Fatalf("sign-in start = %d %s", sw.Code, sw.Body.String())
	}
	// The start counted as this minute's second connect: a third is refused.
	do("POST", "/api/v1/mcp-connections/", token, `{"server_id":"access-test"}`, http.StatusTooManyRequests)
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	approved, err := noRedirect.Get(field(sw.Body.Bytes(), "authorization_url"))
	storetest.Must(t, err, "authorization page")
	approved.Body.Close()
	back, _ := url.Parse(approved.Header.Get("Location"))
	cb := httptest.NewRequest("GET", "/api/v1/mcp-oauth/callback?"+back.RawQuery, nil)
	for _, c := range sw.Result().Cookies() {
		cb.AddCookie(c)
	}
	cbw := httptest.NewRecorder()
	h.ServeHTTP(cbw, cb)
	if loc := cbw.Header().Get("Location"); !strings.Contains(loc, "connected=access-oauth") {
		t.Fatalf("sign-in callback = %d %s", cbw.Code, loc)
	}
	var signedIn []struct {
		ConnectionID string `json:"connection_id"`
	}
	storetest.Must(t, json.Unmarshal(do("GET", "/api/v1/mcp-connections/", token, "", http.StatusOK), &signedIn), "connections")
	for _, c := range signedIn {
		do("DELETE", "/api/v1/mcp-connections/"+c.ConnectionID, token, "", http.StatusNoContent)
	}

	// admin (the access user is one, through ADMIN_EMAILS): the catalogue
	// listed, a prompt made, edited, deleted; a category made, renamed,
	// deleted; the audit log read.
	do("GET", "/api/v1/admin/prompts", token, "", http.StatusOK)
	made := field(do("POST", "/api/v1/admin/prompts", token, `{"title":"T","content":"C","price":1,"category_id":"writing"}`, http.StatusCreated), "id")
	do("PATCH", "/api/v1/admin/prompts/"+made, token, `{"version":1,"title":"T2"}`, http.StatusOK)
	do("PATCH", "/api/v1/admin/prompts/"+made, token, `{"version":1,"title":"T3"}`, http.StatusConflict)
	do("DELETE", "/api/v1/admin/prompts/"+made, token, "", http.StatusNoContent)
	cat := field(do("POST", "/api/v1/admin/categories", token, `{"name":"Access"}`, http.StatusCreated), "id")
	do("PATCH", "/api/v1/admin/categories/"+cat, token, `{"name":"Access 2"}`, http.StatusOK)
	do("DELETE", "/api/v1/admin/categories/"+cat, token, "", http.StatusNoContent)
	do("GET", "/api/v1/admin/categories", token, "", http.StatusOK)
	do("GET", "/api/v1/admin/audit", token, "", http.StatusOK)

	// A creator's profile and prompts (the admin sells too), reviewed and
	// suspended by the admin.
	do("PUT", "/api/v1/creators/me", token, `{"display_name":"Access","bio":"","country":"US"}`, http.StatusOK)
	do("GET", "/api/v1/creators/me", token, "", http.StatusOK)
	do("GET", "/api/v1/creators/"+field(do("GET", "/api/v1/creators/me", token, "", http.StatusOK), "username"), "", "", http.StatusOK)
	sold := field(do("POST", "/api/v1/creators/me/prompts", token, `{"title":"C","content":"C","price":1,"category_id":"writing"}`, http.StatusCreated), "id")
	do("PATCH", "/api/v1/creators/me/prompts/"+sold, token, `{"version":1,"title":"C2"}`, http.StatusOK)
	do("GET", "/api/v1/creators/me/prompts", token, "", http.StatusOK)
	do("GET", "/api/v1/creators/me/prompts/"+sold, token, "", http.StatusOK)
	do("POST", "/api/v1/creators/me/prompts/"+sold+"/submit", token, "", http.StatusOK)
	do("GET", "/api/v1/admin/reviews?kind=prompt", token, "", http.StatusOK)
	do("POST", "/api/v1/admin/reviews/"+sold, token, `{"decision":"reject","reason":"access"}`, http.StatusOK)
	// Agents: made (checked against the registry), edited, submitted,
	// approved, listed, read, exported, rated by another user, in the
	// admins' list, suspended and back (and with their creator, below),
	// imported, deleted.
	agent := field(do("POST", "/api/v1/creators/me/agents", token, `{"name":"Agent","instructions":"Do it.","provider":"openai",`+
		`"model":"gpt-4o-mini","servers":[{"server_id":"access-test","tools":["echo"]}],"category_id":"writing","price":0}`, http.StatusCreated), "id")
	do("PATCH", "/api/v1/creators/me/agents/"+agent, token, `{"version":1,"name":"Agent 2"}`, http.StatusOK)
	do("GET", "/api/v1/creators/me/agents", token, "", http.StatusOK)
	do("GET", "/api/v1/creators/me/agents/"+agent, token, "", http.StatusOK)
	do("POST", "/api/v1/creators/me/agents/"+agent+"/submit", token, "", http.StatusOK)
	do("GET", "/api/v1/admin/reviews?kind=agent", token, "", http.StatusOK)
	do("POST", "/api/v1/admin/reviews/"+agent, token, `{"decision":"approve"}`, http.StatusOK)
	do("GET", "/api/v1/agents/", "", "", http.StatusOK)
	do("GET", "/api/v1/agents/"+agent, token, "", http.StatusOK)
	do("GET", "/api/v1/agents/"+agent+"/export", "", "", http.StatusOK)
	_, rater := apitest.User(t, st, auth.NewTokens(jwtSecret, time.Hour), "rater")
	do("POST", "/api/v1/agents/"+agent+"/rate", rater, `{"rating":5}`, http.StatusOK)
	do("GET", "/api/v1/admin/agents", token, "", http.StatusOK)
	do("POST", "/api/v1/admin/agents/"+agent+"/suspend", token, "", http.StatusOK)
	do("POST", "/api/v1/admin/agents/"+agent+"/unsuspend", token, "", http.StatusOK)
	// Chat as the agent: a conversation bound to it (the agent read), and
	// a message run as it, over the minute's limit by now: the agent, the
	// binding and the caller's connections are read beside its checks.
	agentConv := field(do("POST", "/api/v1/chat/conversations", token, `{"agent_id":"`+agent+`"}`, http.StatusCreated), "id")
	do("POST", "/api/v1/mcp-connections/message", token, `{"connection_id":"`+conn+`","message":"Hi","context":[],"conversation_id":"`+agentConv+`","agent_id":"`+agent+`"}`, http.StatusTooManyRequests)
	do("POST", "/api/v1/creators/me/agents/import", token, `{"config":{"systemRole":"x"},"meta":{"title":"Lobe"}}`, http.StatusCreated)
	do("GET", "/api/v1/admin/creators", token, "", http.StatusOK)
	do("POST", "/api/v1/admin/creators/"+uid+"/suspend", token, "", http.StatusOK)
	do("POST", "/api/v1/admin/creators/"+uid+"/unsuspend", token, "", http.StatusOK)
	do("DELETE", "/api/v1/creators/me/prompts/"+sold, token, "", http.StatusNoContent)
	do("DELETE", "/api/v1/creators/me/agents/"+agent, token, "", http.StatusNoContent)
	// The registry: a server added, switched off and on, probed (its
	// history read), and a sync run.
	do("GET", "/api/v1/admin/mcp-servers", token, "", http.StatusOK)
	var added struct {
		Server struct{ ID string } `json:"server"`
	}
	storetest.Must(t, json.Unmarshal(do("POST", "/api/v1/admin/mcp-servers", token,
		`{"name":"Access admin","endpoint_url":"`+mcpEndpoint+`","model_type":"code","auth":"none"}`, http.StatusCreated), &added), "added server")
	do("PATCH", "/api/v1/admin/mcp-servers/"+added.Server.ID, token, `{"version":1,"enabled":false}`, http.StatusOK)
	do("POST", "/api/v1/admin/mcp-servers/"+added.Server.ID+"/probe", token, "", http.StatusOK)
	do("GET", "/api/v1/admin/mcp-servers/"+added.Server.ID+"/probes", token, "", http.StatusOK)
	do("POST", "/api/v1/admin/mcp-sync", token, "", http.StatusOK)
	// Orders: listed (all by state and dates, a buyer's by email through
	// GSI1), one read with its events, a paid one refunded (clicked twice:
	// the second answers it), an expired one refused.
	bought := field(do("POST", "/api/v1/payments/create-checkout-session", token, `{"prompt_id":"`+prompts[2].ID+`"}`, http.StatusOK), "session_id")
	do("POST", "/dev/checkout/"+bought+"/pay", "", "", http.StatusSeeOther)
	do("GET", "/api/v1/admin/orders?state=paid&from=2020-01-01&to=2100-01-01", token, "", http.StatusOK)
	do("GET", "/api/v1/admin/orders?user="+url.QueryEscape(email), token, "", http.StatusOK)
	do("GET", "/api/v1/admin/orders/"+bought, token, "", http.StatusOK)
	do("POST", "/api/v1/admin/orders/"+bought+"/refund", token, `{"reason":"access"}`, http.StatusOK)
	do("POST", "/api/v1/admin/orders/"+bought+"/refund", token, "", http.StatusOK)
	do("POST", "/api/v1/admin/orders/"+expiring+"/refund", token, "", http.StatusConflict)
	// A paid agent of the access user's (payouts enabled) bought through
	// the agents function's checkout, paid (the webhook fulfils it and
	// counts it on the agent), verified, on the creator's dashboard, then
	// refunded by the admin (the agent's count taken back).
	storetest.Must(t, st.SetCreatorStripeAccount(ctx, uid, "acct_access"), "payout account")
	storetest.Must(t, st.SetCreatorPayouts(ctx, uid, "acct_access",
		store.CreatorPayouts{Status: domain.PayoutsEnabled, ChargesEnabled: true, PayoutsEnabled: true}), "payouts")
	paidAgent := domain.Agent{ID: "a-0000000acce5", Name: "Paid", Instructions: "Sell it.", Provider: "openai", Model: "gpt-4o-mini",
		CategoryID: "writing", Price: 4.99, CreatorID: uid, State: domain.PromptPublished, Version: 1, Published: 1, CreatedAt: time.Now()}
	storetest.Must(t, st.PutAgent(ctx, paidAgent), "paid agent")
	agentSale := field(do("POST", "/api/v1/agents/"+paidAgent.ID+"/checkout", rater, "", http.StatusOK), "session_id")
	do("POST", "/dev/checkout/"+agentSale+"/pay", "", "", http.StatusSeeOther)
	do("GET", "/api/v1/payments/verify-session/"+agentSale, rater, "", http.StatusOK)
	do("GET", "/api/v1/creators/me/dashboard", token, "", http.StatusOK)
	do("POST", "/api/v1/admin/orders/"+agentSale+"/refund", token, "", http.StatusOK)
	// Users: a second account searched and read, its confirmation resent
	// (and spent), then every action; the access user cannot step down as
	// the last admin.
	second := field(do("POST", "/api/v1/auth/register", "", `{"email":"second@example.com","username":"seconduser","full_name":"Second","password":"`+password+`"}`, http.StatusCreated), "access_token")
	secondID := field(do("GET", "/api/v1/auth/me", second, "", http.StatusOK), "id")
	do("GET", "/api/v1/admin/users?q=second", token, "", http.StatusOK)
	do("GET", "/api/v1/admin/users/"+secondID, token, "", http.StatusOK)
	do("POST", "/api/v1/admin/users/"+secondID+"/resend-confirmation", token, "", http.StatusOK)
	do("POST", "/api/v1/auth/verify-email", "", `{"token":"`+mailedToken("/verify-email")+`"}`, http.StatusOK)
	for _, action := range []string{"unlock", "end-sessions", "grant-admin", "revoke-admin", "disable", "enable"} {
		do("POST", "/api/v1/admin/users/"+secondID+"/"+action, token, "", http.StatusOK)
	}
	do("POST", "/api/v1/admin/users/"+uid+"/revoke-admin", token, "", http.StatusConflict)

	// mcp-jobs: a probe of the registry, then a sync (the seed and an
	// empty registry page).
	registry := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"servers": [], "metadata": {"count": 0}}`)
	}))
	t.Cleanup(registry.Close)
	runner, err := mcpjobs.FromConfig(st, config.MCPJobs{RegistryURL: registry.URL, Outbound: config.Outbound{AllowLoopback: true}}, slogDiscard())
	storetest.Must(t, err, "jobs")
	jobs := context.WithValue(ctx, functionKey{}, "mcp-jobs")
	storetest.Must(t, runner.Run(jobs, mcpjobs.Probe), "probe")
	storetest.Must(t, runner.Run(jobs, mcpjobs.Sync), "sync")

	// Every call allowed; and the list of grants the run used, for review.
	rec.mu.Lock()
	defer rec.mu.Unlock()
	used := map[string]bool{}
	functions := map[string]bool{}
	for _, c := range rec.calls {
		functions[c.function] = true
		if strings.HasPrefix(c.pk, store.PKLocalCheckout) {
			// The local test checkout (payments' provider without a Stripe
			// key) exists on the devserver only: in Lambda, payments needs
			// STRIPE_SECRET_KEY and never touches these items.
			continue
		}
		pattern, ok := allowed(c)
		if !ok {
			t.Errorf("%s may not %s %s %q (shared/lambdas)", c.function, c.op, c.index, c.pk)
			continue
		}
		scope := "table"
		if c.index != "" {
			scope = "index"
		}
		used[c.function+" "+scope+" "+c.op+" "+pattern] = true
	}
	for _, f := range lambdas.All {
		fn, access := f.Name, f.Access
		if len(access.Table) == 0 {
			continue // no table access (jwt-rotation)
		}
		if !functions[fn] {
			t.Errorf("the run made no table call as %s", fn)
		}
		for op, patterns := range access.Table {
			for _, p := range patterns {
				if !used[fn+" table "+op+" "+p] {
					t.Logf("not exercised here: %s %s %s", fn, op, p)
				}
			}
		}
		for _, p := range access.Index {
			if !used[fn+" index Query "+p] {
				t.Logf("not exercised here: %s Query GSI1 %s", fn, p)
			}
		}
		for _, p := range access.Index2 {
			if !used[fn+" index Query "+p] {
				t.Logf("not exercised here: %s Query GSI2 %s", fn, p)
			}
		}
	}
}

func slogDiscard() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
