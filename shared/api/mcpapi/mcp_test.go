package mcpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"aiwork/shared/api/mcpapi"
	"aiwork/shared/auth"
	"aiwork/shared/local/localmcp/localmcptest"
	"aiwork/shared/routes"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

func TestMain(m *testing.M) {
	code := storetest.Main(m)
	localmcptest.Stop()
	os.Exit(code)
}

var secret = []byte(strings.Repeat("m", 32))

type stack struct {
	t      *testing.T
	h      http.Handler
	st     *store.Store
	tokens *auth.Tokens
}

// newStack mounts the mcp group the way the devserver does, with o for the
// MCP server connections; anthropic is served by a "real" adapter, the
// others by the demo model.
func newStack(t *testing.T, o mcpapi.Options) *stack {
	t.Helper()
	st := storetest.New(t)
	tokens := auth.NewTokens(secret, time.Hour)
	real := map[string]bool{"anthropic": true}
	svc := mcpapi.New(st, tokens, real, o)
	t.Cleanup(svc.Close)
	h, err := routes.Mount(map[string]http.Handler{"mcp": svc.Handler()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &stack{t: t, h: h, st: st, tokens: tokens}
}

func (s *stack) token(uid string) string {
	s.t.Helper()
	tok, err := s.tokens.Issue(uid)
	storetest.Must(s.t, err, "token")
	return tok
}

func (s *stack) do(path, token, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("POST", path, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	w := httptest.NewRecorder()
	s.h.ServeHTTP(w, req)
	return w
}

type connection struct {
	ID         string `json:"id"`
	ServerName string `json:"server_name"`
	Model      string `json:"model"`
	Demo       bool   `json:"demo"`
}

func TestConnectProvider(t *testing.T) {
	t.Parallel()
	s := newStack(t, mcpapi.Options{})
	uid := "user-connect"
	token := s.token(uid)
	tests := []struct {
		provider, model string
		serverName      string
		demo            bool
	}{
		{"openai", "gpt-4o-mini", "OpenAI GPT (local demo)", true},
		{"openai", "gpt-3.5-turbo", "OpenAI GPT (local demo)", true},
		{"meta", "llama-3.2-1b-instruct", "Meta Llama (local demo)", true},
		{"anthropic", "claude-3-opus", "Anthropic Claude", false},
		{"google", "gemini-1.5-pro", "Google Gemini (local demo)", true},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		w := s.do("/api/v1/mcp-connections/"+tt.provider, token, `{"model":" `+tt.model+` "}`)
		if w.Code != http.StatusOK {
			t.Fatalf("%s %s: %d %s", tt.provider, tt.model, w.Code, w.Body)
		}
		var c connection
		if err := json.Unmarshal(w.Body.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		if c.ID == "" || seen[c.ID] || c.Model != tt.model || c.ServerName != tt.serverName || c.Demo != tt.demo {
			t.Errorf("%s: got %+v, want a new id, model %q, server %q, demo %v", tt.provider, c, tt.model, tt.serverName, tt.demo)
		}
		seen[c.ID] = true
		// SPEC's reuse rule: the server name contains the provider's first label word.
		first := strings.Fields(tt.serverName)[0]
		if !strings.Contains(c.ServerName, first) {
			t.Errorf("server name %q lacks %q", c.ServerName, first)
		}
		// The connection is the user's, stored for the chat stream.
		stored, err := s.st.GetChatConnection(context.Background(), uid, c.ID)
		if err != nil {
			t.Fatalf("stored connection: %v", err)
		}
		if stored.Name != tt.serverName || stored.Provider != tt.provider || stored.Model != tt.model {
			t.Errorf("stored = %+v", stored)
		}
		if _, err := s.st.GetChatConnection(context.Background(), "someone-else", c.ID); err == nil {
			t.Error("another user can read the connection")
		}
	}
}

func TestConnectProviderRefusals(t *testing.T) {
	t.Parallel()
	s := newStack(t, mcpapi.Options{})
	token := s.token("user-refusals")
	tests := []struct {
		name, path, token, body string
		status                  int
		detail                  string
	}{
		{"no token", "openai", "", `{"model":"gpt-4o"}`, 401, ""},
		{"bad token", "openai", token + "x", `{"model":"gpt-4o"}`, 401, ""},
		{"unknown provider", "mistral", token, `{"model":"mistral-large"}`, 404, "Unknown provider 'mistral'"},
		{"provider in caps", "OpenAI", token, `{"model":"gpt-4o"}`, 404, "Unknown provider"},
		{"model of another provider", "openai", token, `{"model":"claude-3-opus"}`, 400, "gpt-4o-mini, gpt-4o, gpt-4-turbo, gpt-3.5-turbo"},
		{"unknown model", "google", token, `{"model":"gemini-9"}`, 400, "gemini-1.5-pro, gemini-1.5-flash"},
		{"empty model", "meta", token, `{"model":""}`, 400, "not offered by Meta Llama"},
		{"no model", "meta", token, `{}`, 400, "not offered"},
		{"no body", "anthropic", token, ``, 400, "body is required"},
		{"malformed body", "anthropic", token, `{"model":`, 400, "Malformed JSON"},
		{"model not a string", "anthropic", token, `{"model":3}`, 400, "Field 'model'"},
		{"body not an object", "anthropic", token, `["claude-3-opus"]`, 400, "JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := s.do("/api/v1/mcp-connections/"+tt.path, tt.token, tt.body)
			if w.Code != tt.status {
				t.Fatalf("status = %d, want %d; body %s", w.Code, tt.status, w.Body)
			}
			var e struct{ Detail, Code string }
			if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || e.Detail == "" || e.Code == "" {
				t.Fatalf("error body %s: %v", w.Body, err)
			}
			if !strings.Contains(e.Detail, tt.detail) {
				t.Errorf("detail = %q, want it to mention %q", e.Detail, tt.detail)
			}
		})
	}
}

// GET is not how a connection is opened.
func TestConnectProviderMethod(t *testing.T) {
	t.Parallel()
	s := newStack(t, mcpapi.Options{})
	req := httptest.NewRequest("GET", "/api/v1/mcp-connections/openai", nil)
	req.Header.Set("Authorization", "Bearer "+s.token("user-method"))
	w := httptest.NewRecorder()
	s.h.ServeHTTP(w, req)
	if w.Code != http.StatusMethodNotAllowed {
		t.Errorf("GET status = %d, want 405", w.Code)
	}
}
