package agentsapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"aiwork/shared/api/apitest"
	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/local/devstack"
	"aiwork/shared/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

var jwtSecret = []byte("agents-test-secret-agents-test-secret")

const (
	public   = "/api/v1/agents/"
	studio   = "/api/v1/creators/me/agents"
	adminAPI = "/api/v1/admin/"
)

type stack struct{ *apitest.Stack }

// newStack is the whole API (as the devserver mounts it) on a fresh
// table with the sample categories and two registry servers: "ref"
// (probed: its tools known; a key to connect) and "oauth" (sign-in).
func newStack(t *testing.T) *stack {
	t.Helper()
	st, storeCfg := storetest.NewWithConfig(t)
	apitest.PutCatalogue(t, st)
	cfg := devstack.ConfigFor(storeCfg, jwtSecret, 5, "whsec_agents_test")
	h, err := devstack.Handler(st, cfg, "")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	storetest.Must(t, st.UpsertMCPServer(ctx, domain.MCPServer{ID: "ref", Name: "io.example/ref", Title: "Reference",
		EndpointURL: "https://ref.example/mcp", Transport: domain.TransportStreamableHTTP, IsActive: true, ListedActive: true, APIKeyRequired: true}), "server")
	storetest.Must(t, st.SaveMCPHealth(ctx, "ref", domain.MCPHealth{Status: domain.HealthUp, CheckedAt: time.Now().UTC().Format(time.RFC3339),
		ToolsCount: 2, Tools: []domain.MCPTool{{Name: "echo"}, {Name: "add"}}}), "health")
	storetest.Must(t, st.UpsertMCPServer(ctx, domain.MCPServer{ID: "oauth", Name: "io.example/oauth", Title: "Signed",
		EndpointURL: "https://oauth.example/mcp", Transport: domain.TransportStreamableHTTP, IsActive: true, ListedActive: true, OAuthRequired: true}), "server")
	return &stack{&apitest.Stack{T: t, H: h, St: st, Tokens: auth.NewTokens(jwtSecret, time.Hour)}}
}

// creator makes a user with a creator profile (payouts enabled or not).
func (s *stack) creator(name string, payouts bool) (uid, token string) {
	s.T.Helper()
	uid, token = s.User(name)
	decode[map[string]any](s.T, s.Do("PUT", "/api/v1/creators/me", token, `{"display_name":"`+name+` Studio","bio":"","country":"us"}`), http.StatusOK)
	if payouts {
		s.EnablePayouts(uid)
	}
	return uid, token
}

type agentJSON struct {
	ID                string  `json:"id"`
	Name              string  `json:"name"`
	Instructions      string  `json:"instructions"`
	State             string  `json:"state"`
	Version           int     `json:"version"`
	Price             float64 `json:"price"`
	PublishedVersions int     `json:"published_versions"`
	Withdrawn         bool    `json:"withdrawn"`
	Pending           *struct {
		Name       string `json:"name"`
		State      string `json:"state"`
		ChangeNote string `json:"change_note"`
	} `json:"pending"`
}

func agentBody(name, instructions string, price float64) string {
	return mustJSON(map[string]any{"name": name, "description": "Does " + name, "instructions": instructions, "provider": "openai",
		"model": "gpt-4o-mini", "servers": []map[string]any{{"server_id": "ref", "tools": []string{"echo"}}}, "starters": []string{"Say hi"},
		"category_id": "business", "price": price})
}

// draft makes a draft agent of token's creator.
func (s *stack) draft(token, name, instructions string, price float64) agentJSON {
	s.T.Helper()
	return decode[agentJSON](s.T, s.Do("POST", studio, token, agentBody(name, instructions, price)), http.StatusCreated)
}

// published drafts, submits and has admin approve an agent.
func (s *stack) published(token, admin, name, instructions string, price float64) agentJSON {
	s.T.Helper()
	a := s.draft(token, name, instructions, price)
	decode[agentJSON](s.T, s.Do("POST", studio+"/"+a.ID+"/submit", token, ""), http.StatusOK)
	decode[map[string]any](s.T, s.Do("POST", adminAPI+"reviews/"+a.ID, admin, `{"decision":"approve"}`), http.StatusOK)
	return a
}

func decode[T any](t testing.TB, w *httptest.ResponseRecorder, status int) T {
	t.Helper()
	return apitest.Decode[T](t, w, status)
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func noMarker(t *testing.T, what string, w *httptest.ResponseRecorder, marker string) {
	t.Helper()
	if strings.Contains(w.Body.String(), marker) {
		t.Errorf("%s answered the paid agent's instructions: %s", what, w.Body.String())
	}
}
