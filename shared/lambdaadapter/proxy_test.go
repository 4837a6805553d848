package lambdaadapter_test

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"golang.org/x/crypto/bcrypt"

	"aiwork/shared/api/authapi"
	"aiwork/shared/api/chatapi"
	"aiwork/shared/api/usersapi"
	"aiwork/shared/auth"
	"aiwork/shared/config"
	"aiwork/shared/lambdaadapter"
	"aiwork/shared/llm"
	"aiwork/shared/mail"
	"aiwork/shared/store/storetest"
)

func TestMain(m *testing.M) {
	auth.PasswordCost = bcrypt.MinCost
	os.Exit(storetest.Main(m))
}

func loadEvent(t *testing.T, name string, replace map[string]string) events.APIGatewayProxyRequest {
	t.Helper()
	raw, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	for from, to := range replace {
		text = strings.ReplaceAll(text, from, to)
	}
	var ev events.APIGatewayProxyRequest
	if err := json.Unmarshal([]byte(text), &ev); err != nil {
		t.Fatalf("fixture %s: %v", name, err)
	}
	return ev
}

// The auth and users Lambdas answer real REST proxy events through the same
// handlers the devserver mounts, on a real table.
func TestRESTProxyEvents(t *testing.T) {
	st := storetest.New(t)
	cfg := config.Auth{Base: config.Base{JWTSecret: []byte(strings.Repeat("k", 32))}, TokenTTL: time.Hour}
	authLambda := lambdaadapter.NewProxy(authapi.New(st, cfg, mail.Discard{}).Handler(), "")
	// Sessions checked, as the users Lambda does (usersapi.FromConfig).
	usersLambda := lambdaadapter.NewProxy(usersapi.New(st, auth.NewTokens(cfg.JWTSecret, time.Hour).WithSessions(st), usersapi.Options{}).Handler(), "")
	ctx := context.Background()

	res, err := authLambda(ctx, loadEvent(t, "rest-register.json", nil))
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 201 {
		t.Fatalf("register status = %d, body %s", res.StatusCode, res.Body)
	}
	if ct := header(res, "Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q", ct)
	}
	var reg struct {
		AccessToken string `json:"access_token"`
		User        struct {
			Email string `json:"email"`
		} `json:"user"`
	}
	if err := json.Unmarshal([]byte(res.Body), &reg); err != nil || reg.AccessToken == "" {
		t.Fatalf("register body %s: %v", res.Body, err)
	}
	if got, want := reg.User.Email, "lambda.user@example.com"; got != want {
		t.Errorf("email = %q, want %q", got, want)
	}

	res, err = usersLambda(ctx, loadEvent(t, "rest-activities.json", map[string]string{"TOKEN_PLACEHOLDER": reg.AccessToken}))
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 {
		t.Fatalf("activities status = %d, body %s", res.StatusCode, res.Body)
	}
	var acts []struct{ Type string }
	if err := json.Unmarshal([]byte(res.Body), &acts); err != nil {
		t.Fatal(err)
	}
	if len(acts) != 1 || acts[0].Type != "account_created" {
		t.Errorf("activities = %+v, want one account_created", acts)
	}

	// A stale token in a real event is refused like anywhere else.
	res, err = usersLambda(ctx, loadEvent(t, "rest-activities.json", map[string]string{"TOKEN_PLACEHOLDER": reg.AccessToken + "x"}))
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 401 {
		t.Errorf("tampered token status = %d, want 401", res.StatusCode)
	}
}

func header(res events.APIGatewayProxyResponse, name string) string {
	if v := res.Headers[name]; v != "" {
		return v
	}
	if vs := res.MultiValueHeaders[name]; len(vs) > 0 {
		return vs[0]
	}
	return ""
}

// withHeader sets one header of a REST proxy event, in both of its maps.
func withHeader(ev events.APIGatewayProxyRequest, name, value string) events.APIGatewayProxyRequest {
	h := map[string]string{}
	for k, v := range ev.Headers {
		h[k] = v
	}
	mv := map[string][]string{}
	for k, v := range ev.MultiValueHeaders {
		mv[k] = v
	}
	h[name], mv[name] = value, []string{value}
	ev.Headers, ev.MultiValueHeaders = h, mv
	return ev
}

// In AWS only CloudFront reaches the functions: a REST proxy event without
// the origin secret CloudFront adds (a call straight to the execute-api
// address), or with a wrong one, is a JSON 403 that never reaches the
// handler; with it, the request is served. Buffered and streaming alike.
func TestOnlyRequestsWithTheOriginSecretAreServed(t *testing.T) {
	st := storetest.New(t)
	const origin = "generated-origin-secret-0123456789abcdefghijklmnopqrstuvwxyzABCD"
	cfg := config.Auth{Base: config.Base{JWTSecret: []byte(strings.Repeat("k", 32))}, TokenTTL: time.Hour}
	authLambda := lambdaadapter.NewProxy(authapi.New(st, cfg, mail.Discard{}).Handler(), origin)
	tokens := auth.NewTokens(cfg.JWTSecret, time.Hour)
	chat := lambdaadapter.NewStreaming(chatapi.New(st, tokens, llm.NewRegistry(0), chatapi.Options{}).Handler(), origin)
	ctx := context.Background()

	register := loadEvent(t, "rest-register.json", nil)
	var message events.APIGatewayProxyRequest
	if err := json.Unmarshal([]byte(strings.Replace(restChatMessage, `"BODY_PLACEHOLDER"`, `"{}"`, 1)), &message); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		secret *string
	}{
		{"no origin header", nil},
		{"wrong origin secret", ptr(origin + "x")},
		{"the stack id, the old origin token", ptr("arn:aws:cloudformation:us-east-1:123456789012:stack/AIWork/0f1e")},
	} {
		reg, msg := register, message
		if tc.secret != nil {
			reg, msg = withHeader(reg, "X-Origin-Secret", *tc.secret), withHeader(msg, "X-Origin-Secret", *tc.secret)
		}
		res, err := authLambda(ctx, reg)
		if err != nil {
			t.Fatal(err)
		}
		wantForbidden(t, tc.name+" (auth)", res.StatusCode, header(res, "Content-Type"), res.Body)
		sres, err := chat(ctx, msg)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(sres.Body)
		wantForbidden(t, tc.name+" (chat)", sres.StatusCode, strings.Join(sres.MultiValueHeaders["Content-Type"], ""), string(body))
	}
	if _, err := st.UserByEmail(ctx, "lambda.user@example.com"); err == nil {
		t.Error("a refused registration created the account")
	}

	res, err := authLambda(ctx, withHeader(register, "X-Origin-Secret", origin))
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 201 {
		t.Errorf("register through CloudFront = %d %s, want 201", res.StatusCode, res.Body)
	}
	// The chat function lets the request in; the handler then asks for a
	// sign-in, as it would for any browser without a token.
	sres, err := chat(ctx, withHeader(message, "X-Origin-Secret", origin))
	if err != nil {
		t.Fatal(err)
	}
	if sres.StatusCode != 401 {
		t.Errorf("chat through CloudFront = %d, want the handler's 401", sres.StatusCode)
	}
}

func ptr(s string) *string { return &s }

func wantForbidden(t *testing.T, what string, status int, contentType, body string) {
	t.Helper()
	var e struct{ Detail, Code string }
	if err := json.Unmarshal([]byte(body), &e); status != 403 || err != nil || e.Code != "forbidden" || e.Detail == "" || contentType != "application/json" {
		t.Errorf("%s: %d %s %s, want a JSON 403 with a detail", what, status, contentType, body)
	}
}
