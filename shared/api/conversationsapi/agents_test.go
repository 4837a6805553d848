package conversationsapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"aiwork/shared/api/apitest"
	"aiwork/shared/chat/chattest"
	"aiwork/shared/domain"
	"aiwork/shared/store/storetest"
)

// A tab uploaded with its agent keeps it, on the agent's model; a paid
// agent the uploader has not bought is refused and nothing is made.
func TestConversationUploadedWithItsAgent(t *testing.T) {
	t.Parallel()
	s := newStack(t, nil, nil)
	now := time.Now().UTC()
	free := domain.Agent{ID: "a-0000000000f1", Name: "Heron guide", Instructions: "Talk about herons.", Provider: "anthropic", Model: "claude-3-5-sonnet",
		CategoryID: "business", CreatorID: "u-maker", State: domain.PromptPublished, Version: 1, Published: 1, CreatedAt: now, UpdatedAt: now}
	paid := free
	paid.ID, paid.Price = "a-0000000000f2", 3
	for _, a := range []domain.Agent{free, paid} {
		storetest.Must(t, s.st.PutAgent(context.Background(), a), "put agent")
	}
	_, token := s.user()
	upload := func(aid, key string) *httptest.ResponseRecorder {
		return s.do("POST", convPath, token, chattest.MustJSON(map[string]any{"provider": "openai", "model": "gpt-4o-mini",
			"agent_id": aid, "upload_key": key, "messages": []any{map[string]any{"role": "user", "content": "Where do herons nest?"}}}))
	}
	conv := apitest.Decode[struct {
		ID       string `json:"id"`
		Provider string `json:"provider"`
		Model    string `json:"model"`
		Title    string `json:"title"`
		Agent    *struct{ ID, Name string }
	}](t, upload(free.ID, "tab-agent"), http.StatusCreated)
	if conv.Agent == nil || conv.Agent.ID != free.ID || conv.Agent.Name != "Heron guide" || conv.Provider != "anthropic" || conv.Model != "claude-3-5-sonnet" || conv.Title != "Heron guide" {
		t.Fatalf("uploaded %+v", conv)
	}
	if e := chattest.WantError(t, upload(paid.ID, "tab-paid"), http.StatusForbidden); e.Detail != "Buy this agent to chat with it." {
		t.Fatalf("paid agent: %q", e.Detail)
	}
	if e := chattest.WantError(t, upload("a-000000000404", "tab-none"), http.StatusNotFound); e.Detail != "Agent not found." {
		t.Fatalf("unknown agent: %q", e.Detail)
	}
	// Its model is the agent's: a patch may keep it, never change it.
	if e := chattest.WantError(t, s.do("PATCH", convPath+"/"+conv.ID, token, `{"provider":"openai","model":"gpt-4o"}`), http.StatusBadRequest); e.Detail != "This conversation is bound to an agent: it runs on the agent's model." {
		t.Fatalf("patch of the model: %q", e.Detail)
	}
	if w := s.do("PATCH", convPath+"/"+conv.ID, token, `{"provider":"anthropic","model":"claude-3-5-sonnet","title":"Herons"}`); w.Code != http.StatusOK {
		t.Fatalf("patch keeping the model: %d %s", w.Code, w.Body)
	}
	list := apitest.Decode[struct {
		Conversations []struct{ ID string } `json:"conversations"`
		Total         int                   `json:"total"`
	}](t, s.do("GET", convPath, token, ""), http.StatusOK)
	if list.Total != 1 || len(list.Conversations) != 1 || list.Conversations[0].ID != conv.ID {
		t.Fatalf("listed %+v, want only the free agent's", list)
	}
}
