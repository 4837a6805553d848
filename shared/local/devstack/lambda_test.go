package devstack_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v84"
	"github.com/stripe/stripe-go/v84/webhook"

	"aiwork/shared/api/apitest"
	"aiwork/shared/api/chatapi"
	"aiwork/shared/lambdas"
	"aiwork/shared/local/devstack"
	"aiwork/shared/local/lambdalocal"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// The product served by the real function binaries (make run-lambda):
// devstack.StartLambda on dynalite, every request through the local API
// Gateway into a function process and back. What is checked is what the
// event conversion could break: cookies both ways, a raw body whose bytes
// are signed, the two 413s, and a stream that must not be buffered.

// lambdaBound bounds any wait in these tests (a busy 2-core machine).
const lambdaBound = 90 * time.Second

// lambdaFunctions are the binaries StartLambda runs, built as make
// run-lambda builds them.
var lambdaFunctions = func() []string {
	var out []string
	for _, f := range lambdas.Served() {
		out = append(out, f.Name)
	}
	return out
}()

// functionBinaries is the directory of every function binary: LAMBDA_DIR
// when make test built them already (one compile for every suite), else
// built here into a temporary directory.
func functionBinaries(t *testing.T) string {
	t.Helper()
	if dir := os.Getenv("LAMBDA_DIR"); dir != "" {
		if !filepath.IsAbs(dir) {
			t.Fatalf("LAMBDA_DIR=%s: give an absolute path (go test runs in the package's directory)", dir)
		}
		for _, name := range lambdaFunctions {
			if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
				t.Fatalf("LAMBDA_DIR=%s lacks the %s binary (make lambdas-local builds them): %v", dir, name, err)
			}
		}
		return dir
	}
	dir := t.TempDir()
	buildFunctions(t, dir)
	return dir
}

// buildFunctions builds every function binary into dir (from the
// repository root, through go.work); a failed build fails the test with
// its output.
func buildFunctions(t *testing.T, dir string) {
	t.Helper()
	args := []string{"build", "-trimpath", "-ldflags", "-s -w", "-tags", "lambda.norpc", "-o", dir + string(os.PathSeparator)}
	for _, name := range lambdaFunctions {
		args = append(args, "./functions/"+name)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = filepath.Join("..", "..", "..")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the function binaries (go %s): %v\n%s", strings.Join(args, " "), err, out)
	}
	t.Logf("built %d function binaries in %v", len(lambdaFunctions), time.Since(start).Round(time.Millisecond))
}

// oidcIssuer is a stand-in for Google's OpenID provider: it publishes its
// endpoints and refuses every code at its token endpoint, recording each
// exchange asked for.
type oidcIssuer struct {
	*httptest.Server
	mu        sync.Mutex
	exchanges []url.Values
}

func newOIDCIssuer(t *testing.T) *oidcIssuer {
	iss := &oidcIssuer{}
	iss.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/.well-known/openid-configuration":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"issuer":%q,"authorization_endpoint":"%[1]s/authorize","token_endpoint":"%[1]s/token","jwks_uri":"%[1]s/jwks",
				"response_types_supported":["code"],"subject_types_supported":["public"],"id_token_signing_alg_values_supported":["RS256"]}`, iss.URL)
		case "/token":
			_ = r.ParseForm()
			iss.mu.Lock()
			iss.exchanges = append(iss.exchanges, r.PostForm)
			iss.mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"error":"invalid_grant"}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(iss.Close)
	return iss
}

func (iss *oidcIssuer) exchanged() []url.Values {
	iss.mu.Lock()
	defer iss.mu.Unlock()
	return append([]url.Values(nil), iss.exchanges...)
}

// openAIUpstream is an OpenAI-compatible API whose streamed reply sends its
// first chunk, then waits for the test's release before the rest.
type openAIUpstream struct {
	*httptest.Server
	firstSent chan struct{} // one value per reply, after its first chunk
	release   chan struct{}
	once      sync.Once
}

func newOpenAIUpstream(t *testing.T) *openAIUpstream {
	up := &openAIUpstream{firstSent: make(chan struct{}, 8), release: make(chan struct{})}
	chunk := func(delta, finish string) string {
		return fmt.Sprintf(`data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1760000000,"model":"gpt-4o-mini","choices":[{"index":0,"delta":%s,"finish_reason":%s}],"usage":null}`+"\n\n", delta, finish)
	}
	up.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		asked, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
		w.WriteHeader(http.StatusOK)
		_, _ = io.WriteString(w, chunk(`{"role":"assistant","content":"Hello"}`, "null"))
		http.NewResponseController(w).Flush()
		if bytes.Contains(asked, []byte(holdUntilKilled)) {
			<-r.Context().Done() // the function process that asked is killed (lambda_kill_test.go)
			return
		}
		up.firstSent <- struct{}{}
		select {
		case <-up.release:
		case <-r.Context().Done():
			return
		}
		_, _ = io.WriteString(w, chunk(`{"content":" world"}`, "null"))
		_, _ = io.WriteString(w, chunk(`{}`, `"stop"`))
		_, _ = io.WriteString(w, `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1760000000,"model":"gpt-4o-mini","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}`+"\n\n")
		_, _ = io.WriteString(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(func() {
		up.open()
		up.Close()
	})
	return up
}

func (up *openAIUpstream) open() { up.once.Do(func() { close(up.release) }) }

// lambdaStack is the product through the function binaries, served on a
// loopback port.
type lambdaStack struct {
	t      *testing.T
	binDir string // the function binaries
	url    string
	stack  *devstack.LambdaStack
	st     *store.Store
	client *http.Client
	logs   *apitest.LogBuffer
}

const webhookSecret = "whsec_lambda_test_0123456789abcdef"

func startLambdaStack(t *testing.T, issuer *oidcIssuer, upstream *openAIUpstream) *lambdaStack {
	t.Helper()
	binDir := functionBinaries(t)

	// The environment the devserver gives the functions (make run-lambda).
	storeCfg := storetest.Config(t) // a table of this test's own on the package's dynalite
	registry := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"servers": [], "metadata": {"count": 0}}`)
	}))
	t.Cleanup(registry.Close)
	for k, v := range map[string]string{
		"AWS_ENDPOINT_URL_DYNAMODB": storeCfg.Endpoint,
		"TABLE_NAME":                storeCfg.TableName,
		"AWS_REGION":                "us-east-1",
		"AWS_ACCESS_KEY_ID":         "local",
		"AWS_SECRET_ACCESS_KEY":     "local",
		"JWT_SECRET":                strings.Repeat("j", 40),
		"MCP_KEY_ENCRYPTION_KEY":    hex.EncodeToString(bytes.Repeat([]byte{7}, 32)),
		"STRIPE_WEBHOOK_SECRET":     webhookSecret,
		"STRIPE_SECRET_KEY":         "", // the local test checkout
		"REGISTER_LIMIT_PER_IP":     "0",
		"PUBLIC_URL":                "",
		"GOOGLE_CLIENT_ID":          "lambda-test-client",
		"GOOGLE_CLIENT_SECRET":      "lambda-test-secret",
		"GOOGLE_ISSUER_URL":         issuer.URL,
		"OPENAI_API_KEY":            "sk-lambda-test",
		"OPENAI_BASE_URL":           upstream.URL + "/v1/",
		"MCP_REFERENCE_SERVER":      "off",
		"MCP_REGISTRY_URL":          registry.URL,
		"MCP_ALLOW_LOOPBACK":        "true",
	} {
		t.Setenv(k, v)
	}

	ctx := context.Background()
	cfg, err := devstack.LoadConfig(ctx)
	if err != nil {
		t.Fatalf("config: %v", err)
	}
	cfg.MailDir = t.TempDir()
	var handler http.Handler = http.NotFoundHandler()
	var mu sync.RWMutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.RLock()
		h := handler
		mu.RUnlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	cfg.DefaultPublicURL(srv.URL)
	st, err := store.New(ctx, cfg.Auth.Store)
	if err != nil {
		t.Fatalf("store: %v", err)
	}
	if err := devstack.Prepare(ctx, st); err != nil {
		t.Fatalf("prepare table %s: %v", cfg.Auth.Store.TableName, err)
	}
	logs := &apitest.LogBuffer{}
	stack, err := devstack.StartLambda(ctx, st, cfg, devstack.LambdaOptions{
		FunctionsDir: binDir, MailDir: cfg.MailDir, PublicURL: srv.URL,
		FunctionLog: logs, Log: slog.New(slog.NewJSONHandler(logs, nil)),
	})
	if err != nil {
		t.Fatalf("StartLambda: %v", err)
	}
	t.Cleanup(func() {
		stack.Stop()
		if t.Failed() {
			out := logs.String()
			if len(out) > 20000 {
				out = "…" + out[len(out)-20000:]
			}
			t.Logf("the functions' and the gateway's output:\n%s", out)
		}
	})
	mu.Lock()
	handler = stack.Handler
	mu.Unlock()
	return &lambdaStack{t: t, binDir: binDir, url: srv.URL, stack: stack, st: st, logs: logs, client: &http.Client{
		Timeout:       lambdaBound,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// request is one call through the gateway; what names it in failures:
// the function that serves it, the method and the path.
type request struct {
	function, method, path string
	body                   []byte
	header                 http.Header
	token                  string
	note                   string // what is special about this one
}

func (r request) what() string {
	w := r.function + ": " + r.method + " " + r.path
	if r.note != "" {
		w += " (" + r.note + ")"
	}
	return w
}

// send makes the request and answers the response, its body unread.
func (s *lambdaStack) send(t *testing.T, r request) *http.Response {
	t.Helper()
	req, err := http.NewRequest(r.method, s.url+r.path, bytes.NewReader(r.body))
	if err != nil {
		t.Fatalf("%s: %v", r.what(), err)
	}
	for k, vs := range r.header {
		req.Header[k] = vs
	}
	if r.body != nil && req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.token != "" {
		req.Header.Set("Authorization", "Bearer "+r.token)
	}
	res, err := s.client.Do(req)
	if err != nil {
		t.Fatalf("%s: %v", r.what(), err)
	}
	return res
}

// do makes the request, reads the answer and checks its status.
func (s *lambdaStack) do(t *testing.T, r request, status int) (*http.Response, []byte) {
	t.Helper()
	res := s.send(t, r)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s: reading the answer: %v", r.what(), err)
	}
	if res.StatusCode != status {
		t.Fatalf("%s = %d %.500s, want %d", r.what(), res.StatusCode, body, status)
	}
	return res, body
}

// register makes an account through the auth function and answers its
// token.
func (s *lambdaStack) register(t *testing.T, name string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"email": name + "@example.com", "username": name, "full_name": "Lambda Test", "password": "secret-123"})
	_, raw := s.do(t, request{function: "auth", method: "POST", path: "/api/v1/auth/register", body: body}, http.StatusCreated)
	var reg struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.Unmarshal(raw, &reg); err != nil || reg.AccessToken == "" {
		t.Fatalf("auth: POST /api/v1/auth/register: answer %s (%v), want an access_token", raw, err)
	}
	return reg.AccessToken
}

func TestLambdaStack(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs every function binary")
	}
	issuer := newOIDCIssuer(t)
	upstream := newOpenAIUpstream(t)
	s := startLambdaStack(t, issuer, upstream)

	t.Run("GoogleSignInCookies", func(t *testing.T) { testGoogleSignInCookies(t, s, issuer) })
	t.Run("WebhookRawBodyAndSignature", func(t *testing.T) { testWebhookRawBody(t, s) })
	t.Run("BodyTooLarge", func(t *testing.T) { testBodyTooLarge(t, s) })
	t.Run("ChatStreamIsNotBuffered", func(t *testing.T) { testChatStream(t, s, upstream) })
	t.Run("ChatToolLoopWithSealedKey", func(t *testing.T) { testChatToolLoop(t, s) })
	t.Run("AdminJobsRunInMCPJobs", func(t *testing.T) { testAdminJobs(t, s) })
	t.Run("RegistryAPIInTheMCPFunction", func(t *testing.T) { testRegistryAPI(t, s) })
	t.Run("ProcessKilledMidStream", func(t *testing.T) { testKilledMidStream(t, s) })
	t.Run("ProcessKilledMidRequest", func(t *testing.T) { testKilledMidRequest(t, s) })
}

// Google sign-in: the start's state cookie comes back intact through the
// gateway, and the callback's Cookie header reaches the auth function:
// with the cookie the state is accepted (spent, and the code exchanged at
// the provider, which refuses it); without it, or with another value, it
// is refused before any exchange. Every callback ends in the same
// redirect, so the provider's token endpoint tells them apart.
func testGoogleSignInCookies(t *testing.T, s *lambdaStack, issuer *oidcIssuer) {
	start := request{function: "auth", method: "GET", path: "/api/v1/auth/google/login"}
	res, body := s.do(t, start, http.StatusOK)
	var login struct {
		AuthURL string `json:"auth_url"`
	}
	if err := json.Unmarshal(body, &login); err != nil || login.AuthURL == "" {
		t.Fatalf("%s: answer %s (%v), want {auth_url}", start.what(), body, err)
	}
	authURL, err := url.Parse(login.AuthURL)
	if err != nil || !strings.HasPrefix(login.AuthURL, issuer.URL+"/authorize?") {
		t.Fatalf("%s: auth_url %q, want the provider's authorization endpoint", start.what(), login.AuthURL)
	}
	q := authURL.Query()
	state := q.Get("state")
	if state == "" || q.Get("code_challenge") == "" || q.Get("redirect_uri") != s.url+"/api/v1/auth/google/callback" {
		t.Errorf("%s: auth_url query %v, want a state, a PKCE challenge and the callback on %s", start.what(), q, s.url)
	}
	setCookies := res.Header.Values("Set-Cookie")
	if len(setCookies) != 1 {
		t.Fatalf("%s: Set-Cookie %q, want the state cookie once", start.what(), setCookies)
	}
	cookies := res.Cookies()
	nonce := cookies[0]
	if nonce.Name != "google_oauth_nonce" || nonce.Value == "" || nonce.Path != "/api/v1/auth/google/" || nonce.MaxAge != 600 ||
		!nonce.HttpOnly || nonce.SameSite != http.SameSiteLaxMode {
		t.Errorf("%s: Set-Cookie %q, want google_oauth_nonce with Path=/api/v1/auth/google/, Max-Age=600, HttpOnly, SameSite=Lax", start.what(), setCookies[0])
	}

	callbackPath := "/api/v1/auth/google/callback?" + url.Values{"state": {state}, "code": {"code-from-google"}}.Encode()
	callback := func(cookie string) (*http.Response, request) {
		t.Helper()
		r := request{function: "auth", method: "GET", path: callbackPath}
		if cookie != "" {
			r.header = http.Header{"Cookie": {cookie}}
		}
		res, _ := s.do(t, r, http.StatusFound)
		if loc := res.Header.Get("Location"); loc != "/auth/callback?error=oauth_failed" {
			t.Errorf("%s (Cookie %q): Location %q, want /auth/callback?error=oauth_failed", r.what(), cookie, loc)
		}
		return res, r
	}

	// Refused before the exchange: no cookie, another browser's nonce.
	for _, cookie := range []string{"", "google_oauth_nonce=someone-else; other=1"} {
		_, r := callback(cookie)
		if n := len(issuer.exchanged()); n != 0 {
			t.Fatalf("%s with Cookie %q: the code was exchanged (%d exchanges); want the state refused (not this browser's)", r.what(), cookie, n)
		}
	}
	// The browser's cookie (beside another one, as browsers send them).
	res, r := callback("theme=dark; " + nonce.Name + "=" + nonce.Value)
	// (oauth2 tries the client's credentials in a header, then in the
	// form: a refused code is asked for twice.)
	ex := issuer.exchanged()
	if len(ex) == 0 {
		t.Fatalf("%s with the state cookie: no exchange; want the state accepted and the code exchanged", r.what())
	}
	for _, e := range ex {
		if e.Get("code") != "code-from-google" || e.Get("code_verifier") == "" || e.Get("redirect_uri") != s.url+"/api/v1/auth/google/callback" {
			t.Errorf("%s with the state cookie: exchange %v, want code-from-google with the PKCE verifier and the callback URL", r.what(), e)
		}
	}
	if cleared := res.Cookies(); len(cleared) != 1 || cleared[0].Name != "google_oauth_nonce" || cleared[0].MaxAge >= 0 {
		t.Errorf("%s: Set-Cookie %q, want the state cookie cleared", r.what(), res.Header.Values("Set-Cookie"))
	}
	// The state was spent: the same callback again is not exchanged.
	_, r = callback(nonce.Name + "=" + nonce.Value)
	if n := len(issuer.exchanged()); n != len(ex) {
		t.Errorf("%s replayed: %d exchanges, want the spent state refused", r.what(), n)
	}
}

// stripeEvent is a Stripe event of a type the webhook records without
// acting on it.
func stripeEvent(id, description string) []byte {
	payload, _ := json.Marshal(map[string]any{
		"id": id, "object": "event", "api_version": stripe.APIVersion, "created": time.Now().Unix(),
		"livemode": false, "pending_webhooks": 1, "type": "customer.created",
		"request": map[string]any{"id": nil, "idempotency_key": nil},
		"data":    map[string]any{"object": map[string]any{"id": "cus_" + id, "object": "customer", "description": description}},
	})
	return payload
}

// The webhook's signature is checked on the raw body: the bytes Stripe
// signed reach the function unchanged (text, and bytes that are not UTF-8,
// which travel base64-encoded), and any other bytes are refused.
func testWebhookRawBody(t *testing.T, s *lambdaStack) {
	ctx := context.Background()
	// deliver posts an event; path names what is sent in failures.
	deliver := func(what string, payload []byte, signature string, status int) []byte {
		t.Helper()
		_, body := s.do(t, request{function: "stripe-webhook", method: "POST", path: "/api/v1/payments/webhook", note: what, body: payload,
			header: http.Header{"Stripe-Signature": {signature}}}, status)
		return body
	}
	processed := func(id string) bool {
		t.Helper()
		done, err := s.st.EventProcessed(ctx, id)
		if err != nil {
			t.Fatalf("table: event %s: %v", id, err)
		}
		return done
	}
	sign := func(payload []byte) string {
		return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: webhookSecret, Timestamp: time.Now()}).Header
	}

	payload := stripeEvent("evt_lambda_text", "héllo, ✓")
	signature := sign(payload)
	if body := deliver("a signed event", payload, signature, http.StatusOK); !strings.Contains(string(body), `"received":true`) {
		t.Errorf("stripe-webhook: POST /api/v1/payments/webhook: answer %s, want {received: true}", body)
	}
	if !processed("evt_lambda_text") {
		t.Error("stripe-webhook: POST /api/v1/payments/webhook: answered 200 but the event is not recorded")
	}

	// Bytes that are not UTF-8: the event carries them base64-encoded and
	// the function must get them back exactly.
	binary := bytes.Replace(stripeEvent("evt_lambda_binary", "MARK"), []byte("MARK"), []byte{'b', 'i', 'n', 0xff, 0xfe}, 1)
	deliver("a signed event whose body is not UTF-8", binary, sign(binary), http.StatusOK)
	if !processed("evt_lambda_binary") {
		t.Error("stripe-webhook: POST /api/v1/payments/webhook (a non-UTF-8 body): answered 200 but the event is not recorded")
	}

	// The same signature on other bytes: one byte changed, or the same
	// JSON laid out differently.
	tampered := bytes.Replace(payload, []byte("evt_lambda_text"), []byte("evt_lambda_tExt"), 1)
	var indented bytes.Buffer
	if err := json.Indent(&indented, payload, "", "  "); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string][]byte{"one byte changed": tampered, "re-indented JSON": indented.Bytes()} {
		answer := deliver(name, body, signature, http.StatusBadRequest)
		if !strings.Contains(string(answer), "Invalid webhook signature") {
			t.Errorf("stripe-webhook: POST /api/v1/payments/webhook (%s): answer %s, want the signature refused", name, answer)
		}
	}
	if processed("evt_lambda_tExt") {
		t.Error("stripe-webhook: POST /api/v1/payments/webhook: a tampered event was recorded")
	}
}

// Two limits, two answers: a chat message over the chat function's own
// limit is its 413 (JSON of the API); a body over API Gateway's 10 MB is
// the gateway's 413, which never reaches the function.
func testBodyTooLarge(t *testing.T, s *lambdaStack) {
	token := s.register(t, "toolarge")
	chat := s.stack.Gateway.Functions["chat"]

	big, _ := json.Marshal(map[string]any{"connection_id": "c1", "message": strings.Repeat("b", chatapi.MaxBodyBytes), "model": "gpt-4o-mini", "context": []any{}})
	r := request{function: "chat", method: "POST", path: chatapi.Path, body: big, token: token}
	res, body := s.do(t, r, http.StatusRequestEntityTooLarge)
	var e struct{ Detail, Code string }
	if err := json.Unmarshal(body, &e); err != nil || e.Code != "too_large" || !strings.Contains(e.Detail, "512 KiB") ||
		res.Header.Get("Content-Type") != "application/json" || string(body) == lambdalocal.TooLargeBody {
		t.Errorf("%s with %d bytes: answer %s, want the chat function's own 413 (code too_large, 512 KiB)", r.what(), len(big), body)
	}
	if chat.Stats().Cold+chat.Stats().Warm == 0 {
		t.Errorf("%s with %d bytes: the chat function was not invoked", r.what(), len(big))
	}

	before := chat.Stats()
	huge := bytes.Repeat([]byte("x"), lambdalocal.MaxRequestBody+1)
	r = request{function: "chat", method: "POST", path: chatapi.Path, body: huge, token: token}
	_, body = s.do(t, r, http.StatusRequestEntityTooLarge)
	if string(body) != lambdalocal.TooLargeBody {
		t.Errorf("%s with %d bytes: answer %s, want the gateway's %s", r.what(), len(huge), body, lambdalocal.TooLargeBody)
	}
	if after := chat.Stats(); after.Cold+after.Warm != before.Cold+before.Warm {
		t.Errorf("%s with %d bytes reached the chat function", r.what(), len(huge))
	}
}

// The chat reply streams through the gateway as the upstream sends it: the
// first content frame reaches the client while the upstream still holds
// the rest, then the rest and [DONE].
func testChatStream(t *testing.T, s *lambdaStack, upstream *openAIUpstream) {
	token := s.register(t, "streamer")
	connect := request{function: "mcp", method: "POST", path: "/api/v1/mcp-connections/openai", body: []byte(`{"model":"gpt-4o-mini"}`), token: token}
	_, body := s.do(t, connect, http.StatusOK)
	var conn struct {
		ID   string `json:"id"`
		Demo bool   `json:"demo"`
	}
	if err := json.Unmarshal(body, &conn); err != nil || conn.ID == "" || conn.Demo {
		t.Fatalf("%s: answer %s (%v), want a connection to the real (test) upstream, not the demo", connect.what(), body, err)
	}

	msg, _ := json.Marshal(map[string]any{"connection_id": conn.ID, "message": "Hi", "model": "gpt-4o-mini", "context": []any{}})
	r := request{function: "chat", method: "POST", path: chatapi.Path, body: msg, token: token}
	res := s.send(t, r)
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("%s = %d %s %.300s, want a 200 event stream", r.what(), res.StatusCode, res.Header.Get("Content-Type"), b)
	}

	frames := make(chan string, 64)
	ended := make(chan error, 1)
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := res.Body.Read(buf)
			if n > 0 {
				frames <- string(buf[:n])
			}
			if err != nil {
				close(frames)
				if err == io.EOF {
					err = nil
				}
				ended <- err
				return
			}
		}
	}()
	read := ""
	timeout := time.After(lambdaBound)
	const first = `data: {"content":"Hello"}` + "\n\n"
	for !strings.Contains(read, first) {
		select {
		case f, ok := <-frames:
			if !ok {
				t.Fatalf("%s: the stream ended after %q, before its first content frame", r.what(), read)
			}
			read += f
		case <-timeout:
			t.Fatalf("%s: read %q; the first content frame did not arrive while the upstream held the rest (the stream is buffered?)", r.what(), read)
		}
	}
	// The upstream sent its first chunk (and holds the rest until released).
	select {
	case <-upstream.firstSent:
	case <-time.After(lambdaBound):
		t.Fatalf("%s: a content frame arrived, but the upstream never sent one", r.what())
	}
	if strings.Contains(read, "world") || strings.Contains(read, "[DONE]") {
		t.Fatalf("%s: read %q before the upstream was released", r.what(), read)
	}

	upstream.open()
	timeout = time.After(lambdaBound)
rest:
	for {
		select {
		case f, ok := <-frames:
			if !ok {
				break rest
			}
			read += f
		case <-timeout:
			t.Fatalf("%s: read %q; the stream did not end after the upstream was released", r.what(), read)
		}
	}
	if err := <-ended; err != nil {
		t.Errorf("%s: the stream ended with %v after %q", r.what(), err, read)
	}
	if !strings.Contains(read, `data: {"content":" world"}`) || !strings.HasSuffix(read, "data: [DONE]\n\n") {
		t.Errorf("%s: stream %q, want the second content frame and data: [DONE] at the end", r.what(), read)
	}
}
