package paymentsapi_test

import (
	"context"
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

var jwtSecret = []byte(strings.Repeat("k", 32))

const webhookSecret = "whsec_test_paymentsapi"

// stack is the whole API (devstack.Handler, local test checkout) on a fresh table.
type stack struct{ *apitest.Stack }

// newStack mounts everything with freeLimit free prompts per user and the
// given prompts in the catalogue.
func newStack(t *testing.T, freeLimit int, prompts ...domain.Prompt) *stack {
	t.Helper()
	st, storeCfg := storetest.NewWithConfig(t)
	apitest.PutCatalogue(t, st, prompts...)
	cfg := devstack.ConfigFor(storeCfg, jwtSecret, freeLimit, webhookSecret)
	h, err := devstack.Handler(st, cfg, "")
	if err != nil {
		t.Fatal(err)
	}
	return &stack{&apitest.Stack{T: t, H: h, St: st, Tokens: auth.NewTokens(jwtSecret, time.Hour)}}
}

// Do sends one request to the stack as the browser would from app.test:3000.
func (s *stack) Do(method, path, token, body string) *httptest.ResponseRecorder {
	return s.doHost("app.test:3000", method, path, token, body)
}

func (s *stack) doHost(host, method, path, token, body string) *httptest.ResponseRecorder {
	return s.doHostHeaders(host, method, path, token, body, nil)
}

func (s *stack) doHostHeaders(host, method, path, token, body string, headers map[string]string) *httptest.ResponseRecorder {
	all := map[string]string{"Host": host}
	for k, v := range headers {
		all[k] = v
	}
	return apitest.Do(s.H, method, path, token, body, all)
}

type checkoutJSON struct {
	CheckoutURL string `json:"checkout_url"`
	SessionID   string `json:"session_id"`
}

// checkout opens a checkout for pid and answers it.
func (s *stack) checkout(token, pid string) checkoutJSON {
	s.T.Helper()
	return decode[checkoutJSON](s.T, s.Do("POST", "/api/v1/payments/create-checkout-session", token, `{"prompt_id":"`+pid+`"}`), http.StatusOK)
}

func (s *stack) owned(token string) []string {
	s.T.Helper()
	got := decode[map[string][]string](s.T, s.Do("GET", "/api/v1/payments/owned-prompts", token, ""), http.StatusOK)
	ids, ok := got["owned_prompt_ids"]
	if !ok || ids == nil {
		s.T.Fatalf("owned-prompts answer without owned_prompt_ids list: %v", got)
	}
	return ids
}

func (s *stack) activities(token, typ string) []activityJSON {
	s.T.Helper()
	var out []activityJSON
	for _, a := range decode[[]activityJSON](s.T, s.Do("GET", "/api/v1/users/activities", token, ""), http.StatusOK) {
		if a.Type == typ {
			out = append(out, a)
		}
	}
	return out
}

func (s *stack) orderStatus(sid string) string {
	s.T.Helper()
	o, err := s.St.GetOrder(context.Background(), sid)
	storetest.Must(s.T, err, "get order")
	return o.Status
}

func decode[T any](t *testing.T, w *httptest.ResponseRecorder, wantStatus int) T {
	t.Helper()
	return apitest.Decode[T](t, w, wantStatus)
}

// wantError checks a JSON error answer; detail is a substring ("" for any).
func wantError(t *testing.T, w *httptest.ResponseRecorder, status int, detail string) {
	t.Helper()
	apitest.WantErrorContaining(t, w, status, detail)
}

type verifyJSON struct {
	PromptTitle string  `json:"prompt_title"`
	Amount      float64 `json:"amount"`
	SessionID   string  `json:"session_id"`
	Status      string  `json:"status"`
}

type activityJSON struct {
	ID          string   `json:"id"`
	Type        string   `json:"type"`
	Title       string   `json:"title"`
	Amount      *float64 `json:"amount"`
	PromptTitle string   `json:"prompt_title"`
}

type promptJSON struct {
	ID          string  `json:"id"`
	Content     *string `json:"content"`
	IsPurchased bool    `json:"is_purchased"`
}

// fixture is a prompt whose content ends in a marker the tests look for.
func fixture(id string, price float64) domain.Prompt {
	return domain.Prompt{
		ID: id, Title: "Title " + id, Description: "About " + id, CategoryID: "business", Price: price,
		CreatedAt: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC),
		Content:   "Body of " + id + " " + strings.Repeat("y", 220) + " SECRET-" + id,
	}
}
