package chattest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"aiwork/shared/api/apitest"
	"aiwork/shared/routes"
)

// The API's answers about conversations, as a client reads them.
type (
	Conversation struct {
		ID           string `json:"id"`
		Title        string `json:"title"`
		Provider     string `json:"provider"`
		Model        string `json:"model"`
		CreatedAt    string `json:"created_at"`
		UpdatedAt    string `json:"updated_at"`
		Archived     bool   `json:"archived"`
		MessageCount int    `json:"message_count"`
	}
	ConversationList struct {
		Conversations []Conversation `json:"conversations"`
		NextCursor    string         `json:"next_cursor"`
		Total         int            `json:"total"`
	}
	Message struct {
		ID       string `json:"id"`
		Role     string `json:"role"`
		Content  string `json:"content"`
		Complete bool   `json:"complete"`
		Error    string `json:"error"`
		Stopped  bool   `json:"stopped"`
		Usage    *struct {
			InputTokens  int `json:"input_tokens"`
			OutputTokens int `json:"output_tokens"`
		} `json:"usage"`
		Blocks []struct {
			At    int             `json:"at"`
			Frame json.RawMessage `json:"frame"`
		} `json:"blocks"`
	}
)

// NewConversation creates a conversation (gpt-4o-mini; title "" for the
// default) through the API on h.
func NewConversation(t *testing.T, h http.Handler, token, title string) Conversation {
	t.Helper()
	body := `{"provider":"openai","model":"gpt-4o-mini"}`
	if title != "" {
		body = `{"provider":"openai","model":"gpt-4o-mini","title":` + MustJSON(title) + `}`
	}
	return apitest.Decode[Conversation](t, apitest.Do(h, "POST", routes.ChatConversationsPath, token, body, nil), http.StatusCreated)
}

// Messages reads a conversation's messages through the API on h.
func Messages(t *testing.T, h http.Handler, token, cid string) []Message {
	t.Helper()
	return apitest.Decode[struct {
		Messages []Message `json:"messages"`
	}](t, apitest.Do(h, "GET", routes.ChatConversationsPath+"/"+cid+"/messages", token, "", nil), http.StatusOK).Messages
}

// Connect opens a chat connection through the API on h and answers its id.
func Connect(t *testing.T, h http.Handler, token, provider, model string) string {
	t.Helper()
	w := apitest.Do(h, "POST", "/api/v1/mcp-connections/"+provider, token, `{"model":"`+model+`"}`, nil)
	if w.Code != http.StatusOK {
		t.Fatalf("connect %s: %d %s", provider, w.Code, w.Body)
	}
	var c struct{ ID string }
	if err := json.Unmarshal(w.Body.Bytes(), &c); err != nil || c.ID == "" {
		t.Fatalf("connect body %s: %v", w.Body, err)
	}
	return c.ID
}

// Post sends a message to the chat at base over a real connection and
// answers the response as it arrives.
func Post(t *testing.T, ctx context.Context, base, token string, in any) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, "POST", base+routes.ChatPath, strings.NewReader(MustJSON(in)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// WantError checks a JSON error answer: the status, a detail and a code.
func WantError(t *testing.T, w *httptest.ResponseRecorder, status int) apitest.Error {
	t.Helper()
	e := apitest.WantError(t, w, status, "")
	if e.Detail == "" {
		t.Fatalf("error without detail: %s", w.Body)
	}
	return e
}

// MustJSON is v as JSON.
func MustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
