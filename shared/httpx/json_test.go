package httpx_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"aiwork/shared/httpx"
)

type sample struct {
	Email string `json:"email"`
	Count int    `json:"count"`
	Tags  []string
}

// decode runs DecodeJSON on body the way a handler would and answers the
// decoded value and the client error, if any.
func decode(t *testing.T, body string) (sample, *httpx.Error) {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, "/x", strings.NewReader(body))
	w := httptest.NewRecorder()
	var got sample
	err := httpx.DecodeJSON(w, r, &got)
	if err == nil {
		return got, nil
	}
	var e *httpx.Error
	if !errors.As(err, &e) {
		t.Fatalf("DecodeJSON error %v (%T) is not an *httpx.Error", err, err)
	}
	return got, e
}

func TestDecodeJSONAccepts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		body string
		want sample
	}{
		{"object", `{"email":"a@b.co","count":3}`, sample{Email: "a@b.co", Count: 3}},
		{"unknown fields ignored", `{"email":"a@b.co","is_superuser":true,"nested":{"x":[1,2]}}`, sample{Email: "a@b.co"}},
		{"surrounding whitespace", "\n  {\"count\": 7}\n", sample{Count: 7}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, e := decode(t, tt.body)
			if e != nil {
				t.Fatalf("DecodeJSON(%q) = %v, want no error", tt.body, e)
			}
			if got.Email != tt.want.Email || got.Count != tt.want.Count {
				t.Errorf("DecodeJSON(%q) = %+v, want %+v", tt.body, got, tt.want)
			}
		})
	}
}

func TestDecodeJSONRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		body       string
		wantStatus int
		wantCode   httpx.Code
		wantDetail string // substring
	}{
		{"malformed", `{"email":`, 400, httpx.CodeInvalid, "Malformed JSON"},
		{"not json", `email=a@b.co`, 400, httpx.CodeInvalid, "Malformed JSON"},
		{"trailing garbage", `{"email":"a@b.co"} x`, 400, httpx.CodeInvalid, "Malformed JSON"},
		{"number for string", `{"email":5}`, 400, httpx.CodeInvalid, "'email'"},
		{"string for number", `{"count":"five"}`, 400, httpx.CodeInvalid, "'count'"},
		{"array body", `[{"email":"a@b.co"}]`, 400, httpx.CodeInvalid, "JSON object"},
		{"string body", `"a@b.co"`, 400, httpx.CodeInvalid, "JSON object"},
		{"number body", `42`, 400, httpx.CodeInvalid, "JSON object"},
		{"empty body", ``, 400, httpx.CodeInvalid, "required"},
		{"blank body", "  \n\t ", 400, httpx.CodeInvalid, "required"},
		{"one byte too large", validJSONOfSize(httpx.MaxBodyBytes + 1), 413, httpx.CodeTooLarge, "64 KiB"},
		{"far too large", validJSONOfSize(4 * httpx.MaxBodyBytes), 413, httpx.CodeTooLarge, "64 KiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, e := decode(t, tt.body)
			if e == nil {
				t.Fatalf("DecodeJSON accepted %q, want %d", short(tt.body), tt.wantStatus)
			}
			if got := e.Status(); got != tt.wantStatus {
				t.Errorf("status = %d, want %d (%v)", got, tt.wantStatus, e)
			}
			if e.Code != tt.wantCode {
				t.Errorf("code = %q, want %q", e.Code, tt.wantCode)
			}
			if !strings.Contains(e.Detail, tt.wantDetail) {
				t.Errorf("detail = %q, want it to contain %q", e.Detail, tt.wantDetail)
			}
		})
	}
}

func TestDecodeJSONNilBody(t *testing.T) {
	t.Parallel()
	r := httptest.NewRequest(http.MethodPost, "/x", nil)
	r.Body = nil
	var dst sample
	err := httpx.DecodeJSON(httptest.NewRecorder(), r, &dst)
	var e *httpx.Error
	if !errors.As(err, &e) || e.Status() != http.StatusBadRequest {
		t.Fatalf("DecodeJSON(nil body) = %v, want a 400", err)
	}
}

func TestDecodeJSONExactlyAtLimit(t *testing.T) {
	t.Parallel()
	body := validJSONOfSize(httpx.MaxBodyBytes)
	if len(body) != httpx.MaxBodyBytes {
		t.Fatalf("test body is %d bytes, want %d", len(body), httpx.MaxBodyBytes)
	}
	got, e := decode(t, body)
	if e != nil {
		t.Fatalf("DecodeJSON(64 KiB) = %v, want accepted", e)
	}
	if got.Email != "a@b.co" {
		t.Errorf("email = %q, want a@b.co", got.Email)
	}
}

// validJSONOfSize is a JSON object of exactly n bytes: an email plus an
// ignored padding field.
func validJSONOfSize(n int) string {
	head, tail := `{"email":"a@b.co","pad":"`, `"}`
	return head + strings.Repeat("x", n-len(head)-len(tail)) + tail
}

func short(s string) string {
	if len(s) > 40 {
		return fmt.Sprintf("%s… (%d bytes)", s[:40], len(s))
	}
	return s
}

type errorBody struct {
	Detail string `json:"detail"`
	Code   string `json:"code"`
}

func readError(t *testing.T, w *httptest.ResponseRecorder) errorBody {
	t.Helper()
	if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
	var b errorBody
	if err := json.Unmarshal(w.Body.Bytes(), &b); err != nil {
		t.Fatalf("error body %q is not JSON: %v", w.Body.String(), err)
	}
	return b
}

func TestWriteError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		err            error
		wantStatus     int
		wantCode       string
		wantDetail     string
		wantRetryAfter string
	}{
		{"client error", httpx.Conflict("Email already registered"), 409, "conflict", "Email already registered", ""},
		{"wrapped client error", fmt.Errorf("register: %w", httpx.NotFound("No such prompt")), 404, "not_found", "No such prompt", ""},
		{"internal error hidden", errors.New("dynamodb: secret table arn:aws:... exploded"), 500, "internal", "Internal error.", ""},
		{"wrapped internal error hidden", fmt.Errorf("login: %w", errors.New("connection refused 10.0.0.1")), 500, "internal", "Internal error.", ""},
		{"retry after", &httpx.Error{Code: httpx.CodeRateLimited, Detail: "Slow down", RetryAfterSeconds: 90}, 429, "rate_limited", "Slow down", "90"},
		{"no retry after when zero", &httpx.Error{Code: httpx.CodeRateLimited, Detail: "Slow down"}, 429, "rate_limited", "Slow down", ""},
		{"unknown code is 500", &httpx.Error{Code: "weird", Detail: "x"}, 500, "weird", "x", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := httptest.NewRecorder()
			httpx.WriteError(w, httptest.NewRequest(http.MethodGet, "/x", nil), tt.err)
			if w.Code != tt.wantStatus {
				t.Errorf("status = %d, want %d", w.Code, tt.wantStatus)
			}
			got := readError(t, w)
			if got.Code != tt.wantCode || got.Detail != tt.wantDetail {
				t.Errorf("body = %+v, want {detail:%q code:%q}", got, tt.wantDetail, tt.wantCode)
			}
			if ra := w.Header().Get("Retry-After"); ra != tt.wantRetryAfter {
				t.Errorf("Retry-After = %q, want %q", ra, tt.wantRetryAfter)
			}
		})
	}
}

func TestHandleRecoversPanic(t *testing.T) {
	t.Parallel()
	h := httpx.Handle(func(w http.ResponseWriter, r *http.Request) error { panic("boom: secret detail") })
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/x", nil))
	if w.Code != http.StatusInternalServerError {
		t.Fatalf("status = %d, want 500", w.Code)
	}
	if got := readError(t, w); got.Detail != "Internal error." || strings.Contains(w.Body.String(), "secret") {
		t.Errorf("body = %s, want a bare Internal error.", w.Body.String())
	}
}

func TestWithNotFound(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/v1/things", func(w http.ResponseWriter, r *http.Request) {
		httpx.WriteJSON(w, http.StatusCreated, map[string]string{"ok": "yes"})
	})
	h := httpx.WithNotFound(mux)
	tests := []struct {
		name       string
		method     string
		path       string
		wantStatus int
		wantCode   string
		wantAllow  string
	}{
		{"unknown path", http.MethodGet, "/api/v1/nothing", 404, "not_found", ""},
		{"unknown subpath", http.MethodPost, "/api/v1/things/x", 404, "not_found", ""},
		{"wrong method", http.MethodGet, "/api/v1/things", 405, "invalid", "POST"},
		{"wrong method delete", http.MethodDelete, "/api/v1/things", 405, "invalid", "POST"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest(tt.method, tt.path, nil))
			if w.Code != tt.wantStatus {
				t.Fatalf("%s %s = %d, want %d", tt.method, tt.path, w.Code, tt.wantStatus)
			}
			got := readError(t, w)
			if got.Code != tt.wantCode || got.Detail == "" {
				t.Errorf("body = %+v, want code %q and a detail", got, tt.wantCode)
			}
			if allow := w.Header().Get("Allow"); !strings.Contains(allow, tt.wantAllow) {
				t.Errorf("Allow = %q, want it to contain %q", allow, tt.wantAllow)
			}
		})
	}

	t.Run("known route passes through", func(t *testing.T) {
		t.Parallel()
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/api/v1/things", nil))
		if w.Code != http.StatusCreated || !strings.Contains(w.Body.String(), `"ok":"yes"`) {
			t.Errorf("POST /api/v1/things = %d %s, want 201 from the route", w.Code, w.Body.String())
		}
	})
}
