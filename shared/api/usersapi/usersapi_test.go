package usersapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"aiwork/shared/api/usersapi"
	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

var tokens = auth.NewTokens([]byte("users-test-secret-users-test-secret"), time.Hour)

func get(t *testing.T, h http.Handler, path, uid string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, path, nil)
	if uid != "" {
		tok, err := tokens.Issue(uid)
		if err != nil {
			t.Fatal(err)
		}
		r.Header.Set("Authorization", "Bearer "+tok)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestActivities(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	h := usersapi.New(st, tokens, usersapi.Options{}).Handler()
	ctx := t.Context()
	base := time.Date(2025, 5, 1, 9, 0, 0, 0, time.UTC)
	amount := 12.99
	must := func(err error) {
		t.Helper()
		storetest.Must(t, err, "add activity")
	}
	must(st.AddActivity(ctx, "ada", domain.Activity{ID: "a1", Type: domain.ActivityAccountCreated, Title: "Account created", Description: "Welcome", CreatedAt: base}))
	must(st.AddActivity(ctx, "ada", domain.Activity{ID: "a2", Type: domain.ActivityPurchase, Title: "Bought", Description: "A prompt", CreatedAt: base.Add(time.Hour), Amount: &amount, PromptTitle: "Write better"}))
	must(st.AddActivity(ctx, "ada", domain.Activity{ID: "a3", Type: domain.ActivityLogin, Title: "Signed in", Description: "x", CreatedAt: base.Add(2 * time.Hour)}))
	must(st.AddActivity(ctx, "bob", domain.Activity{ID: "b1", Type: domain.ActivityLogin, Title: "Signed in", Description: "x", CreatedAt: base.Add(3 * time.Hour)}))

	w := get(t, h, "/api/v1/users/activities", "ada")
	if w.Code != http.StatusOK || !strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
		t.Fatalf("status %d, type %q: %s", w.Code, w.Header().Get("Content-Type"), w.Body.String())
	}
	var got []map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, a := range got {
		ids = append(ids, fmt.Sprint(a["id"]))
	}
	if fmt.Sprint(ids) != "[a3 a2 a1]" {
		t.Fatalf("ada's activities %v, want [a3 a2 a1] (her own, newest first)", ids)
	}
	purchase := got[1]
	want := map[string]any{
		"id": "a2", "type": "purchase", "title": "Bought", "description": "A prompt",
		"created_at": base.Add(time.Hour).Format(time.RFC3339), "amount": 12.99, "prompt_title": "Write better",
	}
	for k, v := range want {
		if purchase[k] != v {
			t.Errorf("purchase[%s] = %v, want %v", k, purchase[k], v)
		}
	}
	if _, ok := got[0]["amount"]; ok {
		t.Errorf("login activity has an amount: %v", got[0])
	}

	w = get(t, h, "/api/v1/users/activities", "carol")
	if w.Code != http.StatusOK || strings.TrimSpace(w.Body.String()) != "[]" {
		t.Errorf("no activities: %d %q, want 200 []", w.Code, w.Body.String())
	}
}

func TestActivitiesAtMostFifty(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	h := usersapi.New(st, tokens, usersapi.Options{}).Handler()
	base := time.Date(2025, 5, 1, 9, 0, 0, 0, time.UTC)
	for i := range 55 {
		storetest.Must(t, st.AddActivity(t.Context(), "ada", domain.Activity{
			ID: fmt.Sprintf("a%02d", i), Type: domain.ActivityOther, Title: "t", CreatedAt: base.Add(time.Duration(i) * time.Minute),
		}), "add")
	}
	var got []domain.Activity
	w := get(t, h, "/api/v1/users/activities", "ada")
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil || w.Code != http.StatusOK {
		t.Fatalf("%d %s: %v", w.Code, w.Body.String(), err)
	}
	if len(got) != 50 || got[0].ID != "a54" || got[49].ID != "a05" {
		t.Errorf("got %d activities from %s to %s, want 50 from a54 to a05", len(got), got[0].ID, got[len(got)-1].ID)
	}
}

func TestActivitiesRefused(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	h := usersapi.New(st, tokens, usersapi.Options{}).Handler()
	foreign, err := auth.NewTokens([]byte("another-secret-another-secret-another"), time.Hour).Issue("ada")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, method, path, auth string
		status                   int
		code                     string
	}{
		{"no token", "GET", "/api/v1/users/activities", "", 401, "unauthorized"},
		{"bad token", "GET", "/api/v1/users/activities", "Bearer nope", 401, "unauthorized"},
		{"token of another key", "GET", "/api/v1/users/activities", "Bearer " + foreign, 401, "unauthorized"},
		{"wrong method", "DELETE", "/api/v1/users/activities", "", 405, "invalid"},
		{"unknown path", "GET", "/api/v1/users/nothing", "", 404, "not_found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := httptest.NewRequest(tt.method, tt.path, nil)
			if tt.auth != "" {
				r.Header.Set("Authorization", tt.auth)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			var body struct{ Detail, Code string }
			if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || w.Code != tt.status || body.Code != tt.code || body.Detail == "" {
				t.Errorf("%s %s = %d %s, want %d with code %q", tt.method, tt.path, w.Code, w.Body.String(), tt.status, tt.code)
			}
		})
	}
}

func httptestRequest(method, path, authorization string) *http.Request {
	r := httptest.NewRequest(method, path, nil)
	if authorization != "" {
		r.Header.Set("Authorization", authorization)
	}
	return r
}

func serve(h http.Handler, r *http.Request) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}
