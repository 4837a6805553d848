package lambdaadapter_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"golang.org/x/crypto/bcrypt"

	"aiwork/shared/api/authapi"
	"aiwork/shared/api/usersapi"
	"aiwork/shared/auth"
	"aiwork/shared/config"
	"aiwork/shared/lambdaadapter"
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
	cfg := config.Auth{JWTSecret: []byte(strings.Repeat("k", 32)), TokenTTL: time.Hour}
	authLambda := lambdaadapter.NewProxy(authapi.New(st, cfg, mail.Discard{}).Handler())
	// Sessions checked, as the users Lambda does (usersapi.FromConfig).
	usersLambda := lambdaadapter.NewProxy(usersapi.New(st, auth.NewTokens(cfg.JWTSecret, time.Hour).WithSessions(st), usersapi.Options{}).Handler())
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
