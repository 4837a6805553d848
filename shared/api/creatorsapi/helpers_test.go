package creatorsapi_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"aiwork/shared/api/apitest"
	"aiwork/shared/auth"
	"aiwork/shared/local/devstack"
	"aiwork/shared/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

var jwtSecret = []byte("creators-test-secret-creators-test")

const (
	me       = "/api/v1/creators/me"
	mine     = "/api/v1/creators/me/prompts"
	adminAPI = "/api/v1/admin/"
)

type stack struct{ *apitest.Stack }

// newStack is the whole API (as the devserver mounts it) on a fresh table
// with the sample categories.
func newStack(t *testing.T) *stack {
	t.Helper()
	return newStackFree(t, 5)
}

// newStackFree is newStack with free uses per user (0: every prompt is
// bought, as a checkout needs).
func newStackFree(t *testing.T, free int) *stack {
	t.Helper()
	st, storeCfg := storetest.NewWithConfig(t)
	apitest.PutCatalogue(t, st)
	cfg := devstack.ConfigFor(storeCfg, jwtSecret, free, "whsec_creators_test")
	h, err := devstack.Handler(st, cfg, "")
	if err != nil {
		t.Fatal(err)
	}
	return &stack{&apitest.Stack{T: t, H: h, St: st, Tokens: auth.NewTokens(jwtSecret, time.Hour)}}
}

// creator makes a user with a creator profile; payouts enables their
// payouts as the payouts part will (the creator item's attributes).
func (s *stack) creator(name string, payouts bool) (uid, token string) {
	s.T.Helper()
	uid, token = s.User(name)
	decode[profileJSON](s.T, s.Do("PUT", me, token, `{"display_name":"`+name+` Studio","bio":"I write prompts.","country":"us"}`), http.StatusOK)
	if payouts {
		s.EnablePayouts(uid)
	}
	return uid, token
}

// draft makes a draft of token's creator and answers it.
func (s *stack) draft(token, title string, price float64) promptJSON {
	s.T.Helper()
	return decode[promptJSON](s.T, s.Do("POST", mine, token, promptBody(title, price)), http.StatusCreated)
}

// published drafts a prompt, submits it and has admin approve it.
func (s *stack) published(token, admin, title string, price float64) promptJSON {
	s.T.Helper()
	p := s.draft(token, title, price)
	decode[promptJSON](s.T, s.Do("POST", mine+"/"+p.ID+"/submit", token, ""), http.StatusOK)
	decode[map[string]any](s.T, s.Do("POST", adminAPI+"reviews/"+p.ID, admin, `{"decision":"approve"}`), http.StatusOK)
	return p
}

func promptBody(title string, price float64) string {
	return mustJSON(map[string]any{"title": title, "description": "What it does", "content": secretContent(title), "price": price, "category_id": "business"})
}

// secretContent is a prompt's content, long past the preview, with a tail
// that tells it from its preview.
func secretContent(title string) string {
	pad := ""
	for len(pad) < 260 {
		pad += "Write a careful plan for [goal] step by step. "
	}
	return pad + "SECRET-TAIL-" + title
}

type profileJSON struct {
	Username    string `json:"username"`
	DisplayName string `json:"display_name"`
	Bio         string `json:"bio"`
	Country     string `json:"country"`
	Payouts     struct {
		Status         string `json:"status"`
		ChargesEnabled bool   `json:"charges_enabled"`
		PayoutsEnabled bool   `json:"payouts_enabled"`
	} `json:"payouts"`
}

type promptJSON struct {
	ID           string  `json:"id"`
	Title        string  `json:"title"`
	Content      string  `json:"content"`
	Price        float64 `json:"price"`
	State        string  `json:"state"`
	ReviewReason *string `json:"review_reason"`
	Version      int     `json:"version"`
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
