package creatorsapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"aiwork/shared/api/apitest"
	"aiwork/shared/domain"
	"aiwork/shared/store/storetest"
)

const myAgents = "/api/v1/creators/me/agents"

type agentJSON struct {
	ID                string   `json:"id"`
	Name              string   `json:"name"`
	Instructions      string   `json:"instructions"`
	Provider          string   `json:"provider"`
	Model             string   `json:"model"`
	CategoryID        string   `json:"category_id"`
	State             string   `json:"state"`
	ReviewReason      *string  `json:"review_reason"`
	Version           int      `json:"version"`
	Price             float64  `json:"price"`
	PublishedVersions int      `json:"published_versions"`
	Withdrawn         bool     `json:"withdrawn"`
	Starters          []string `json:"starters"`
	Versions          []struct {
		Number     int    `json:"number"`
		ChangeNote string `json:"change_note"`
	} `json:"versions"`
	Pending *struct {
		Name         string  `json:"name"`
		State        string  `json:"state"`
		ChangeNote   string  `json:"change_note"`
		ReviewReason *string `json:"review_reason"`
	} `json:"pending"`
}

// registryServers puts the servers agents name: "ref" (probed: echo and
// add), "off" (an admin disabled it).
func (s *stack) registryServers() {
	s.T.Helper()
	ctx := context.Background()
	storetest.Must(s.T, s.St.UpsertMCPServer(ctx, domain.MCPServer{ID: "ref", Name: "io.example/ref", Title: "Reference",
		EndpointURL: "https://ref.example/mcp", Transport: domain.TransportStreamableHTTP, IsActive: true, ListedActive: true}), "ref")
	storetest.Must(s.T, s.St.SaveMCPHealth(ctx, "ref", domain.MCPHealth{Status: domain.HealthUp, CheckedAt: time.Now().UTC().Format(time.RFC3339),
		ToolsCount: 2, Tools: []domain.MCPTool{{Name: "echo"}, {Name: "add"}}}), "ref health")
	storetest.Must(s.T, s.St.UpsertMCPServer(ctx, domain.MCPServer{ID: "off", Name: "io.example/off", Title: "Off",
		EndpointURL: "https://off.example/mcp", Transport: domain.TransportStreamableHTTP, IsActive: false, AdminDisabled: true}), "off")
}

func agentFields(name string, price float64) map[string]any {
	return map[string]any{"name": name, "description": "Helps", "instructions": "Be brief.", "provider": "openai", "model": "gpt-4o-mini",
		"servers": []map[string]any{{"server_id": "ref", "tools": []string{"echo"}}}, "starters": []string{"Hi"}, "category_id": "business", "price": price}
}

func (s *stack) agentsOf(token string) []agentJSON {
	s.T.Helper()
	return decode[struct {
		Items []agentJSON `json:"items"`
	}](s.T, s.Do("GET", myAgents, token, ""), http.StatusOK).Items
}

// Each bad input is a 400 naming the field, and nothing is saved.
func TestAgentBadInputSavesNothing(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	s.registryServers()
	_, ann := s.creator("ann", false)
	tooManyServers, tooManyTools := []map[string]any{}, []string{}
	for i := range 11 {
		tooManyServers = append(tooManyServers, map[string]any{"server_id": "s" + string(rune('a'+i)), "tools": []string{}})
	}
	for i := range 101 {
		tooManyTools = append(tooManyTools, "t"+strings.Repeat("x", i))
	}
	for _, tt := range []struct {
		field   string
		value   any
		message string
	}{
		{"instructions", strings.Repeat("i", 50_001), "instructions must be at most 50,000 characters (they have 50001)"},
		{"servers", tooManyServers, "servers: at most 10"},
		{"servers", []map[string]any{{"server_id": "ref", "tools": tooManyTools}}, "servers: at most 100 tools in all"},
		{"servers", []map[string]any{{"server_id": "xyz", "tools": []string{}}}, "servers: no server xyz in the registry"},
		{"servers", []map[string]any{{"server_id": "off", "tools": []string{}}}, "servers: off is disabled"},
		{"servers", []map[string]any{{"server_id": "ref", "tools": []string{"rm"}}}, "servers: ref has no tool rm"},
		{"model", "gpt-x", "model: gpt-x is not a model of openai"},
		{"provider", "acme", "provider: acme is not one of openai, meta, anthropic, google"},
		{"starters", []string{"1", "2", "3", "4", "5"}, "starters: at most 4"},
		{"price", 1.234, "price must have at most two decimals"},
	} {
		body := agentFields("Bad", 0)
		body[tt.field] = tt.value
		apitest.WantError(t, s.Do("POST", myAgents, ann, mustJSON(body)), http.StatusBadRequest, tt.message)
	}
	if got := s.agentsOf(ann); len(got) != 0 {
		t.Fatalf("saved after refusals: %+v", got)
	}
	// An edit refused the same way leaves the agent as it was.
	a := decode[agentJSON](t, s.Do("POST", myAgents, ann, mustJSON(agentFields("Good", 0))), http.StatusCreated)
	apitest.WantError(t, s.Do("PATCH", myAgents+"/"+a.ID, ann, `{"version":1,"name":"New","model":"gpt-x"}`), http.StatusBadRequest,
		"model: gpt-x is not a model of openai")
	if got := decode[agentJSON](t, s.Do("GET", myAgents+"/"+a.ID, ann, ""), http.StatusOK); got.Name != "Good" || got.Version != 1 {
		t.Errorf("after a refused edit %+v", got)
	}
	// Not a creator: 403.
	_, bob := s.User("bob")
	if w := s.Do("POST", myAgents, bob, mustJSON(agentFields("X", 0))); w.Code != http.StatusForbidden {
		t.Errorf("a non-creator's agent: %d", w.Code)
	}
}

// Import: a LobeChat file becomes a draft with what was not taken listed;
// a file that is not JSON, too big or neither format is refused and
// nothing is saved.
func TestImportAgent(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	s.registryServers()
	_, ann := s.creator("ann", false)
	apitest.WantError(t, s.Do("POST", myAgents+"/import", ann, "not json"), http.StatusBadRequest, "The file is not JSON.")
	apitest.WantError(t, s.Do("POST", myAgents+"/import", ann, `{"title":"x"}`), http.StatusBadRequest,
		`The file is not an agent file: it needs "format": "aiwork.agent", or config.systemRole as a LobeChat agent file has.`)
	big := `{"config":{"systemRole":"` + strings.Repeat("x", 1<<20) + `"}}`
	if w := s.Do("POST", myAgents+"/import", ann, big); w.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("a file over 1 MB: %d %s", w.Code, w.Body.String())
	}
	// Too long instructions: the rules refuse the draft as a whole.
	apitest.WantError(t, s.Do("POST", myAgents+"/import", ann, `{"config":{"systemRole":"`+strings.Repeat("x", 50_001)+`"},"meta":{"title":"L"}}`),
		http.StatusBadRequest, "instructions must be at most 50,000 characters (they have 50001)")
	if got := s.agentsOf(ann); len(got) != 0 {
		t.Fatalf("saved after refusals: %+v", got)
	}
	lobe := `{"identifier":"editor","author":"x","meta":{"title":"Editor","description":"Edits.","avatar":"e","tags":["t"]},` +
		`"config":{"systemRole":"You edit.","model":"claude-3-opus","openingQuestions":["A?","B?"],"plugins":["p"]}}`
	got := decode[struct {
		Agent   agentJSON `json:"agent"`
		Ignored []string  `json:"ignored"`
	}](t, s.Do("POST", myAgents+"/import", ann, lobe), http.StatusCreated)
	if got.Agent.Name != "Editor" || got.Agent.Instructions != "You edit." || got.Agent.Provider != "anthropic" || got.Agent.Model != "claude-3-opus" ||
		got.Agent.State != "draft" || got.Agent.CategoryID == "" || strings.Join(got.Agent.Starters, ",") != "A?,B?" {
		t.Errorf("imported %+v", got.Agent)
	}
	if strings.Join(got.Ignored, ",") != "author,config.plugins,identifier,meta.avatar,meta.tags" {
		t.Errorf("ignored %v", got.Ignored)
	}
}

// An agent goes draft → review → published like a prompt; an edit of a
// published agent is its next version (a note required), live once
// approved; a paid one needs payouts; a stale edit is a conflict; one
// that sold is withdrawn, not deleted.
func TestAgentReviewVersionsAndWithdrawal(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	s.registryServers()
	admin := s.Admin("root")
	annID, ann := s.creator("ann", false)
	paid := decode[agentJSON](t, s.Do("POST", myAgents, ann, mustJSON(agentFields("Paid", 3))), http.StatusCreated)
	decode[agentJSON](t, s.Do("POST", myAgents+"/"+paid.ID+"/submit", ann, ""), http.StatusOK)
	apitest.WantError(t, s.Do("POST", myAgents+"/"+paid.ID+"/submit", ann, ""), http.StatusConflict, "This agent is already in review.")
	apitest.WantError(t, s.Do("PATCH", myAgents+"/"+paid.ID, ann, `{"version":2,"name":"x"}`), http.StatusConflict,
		"This agent is in review: you can edit it once it is approved or rejected.")
	q := decode[struct {
		Items []struct {
			ID, Kind, Title, Content string
			Agent                    struct {
				Provider string `json:"provider"`
				Servers  []struct {
					ServerID string   `json:"server_id"`
					Name     string   `json:"name"`
					Tools    []string `json:"tools"`
				} `json:"servers"`
			} `json:"agent"`
		} `json:"items"`
	}](t, s.Do("GET", "/api/v1/admin/reviews?kind=agent", admin, ""), http.StatusOK)
	if len(q.Items) != 1 || q.Items[0].Kind != "agent" || q.Items[0].Title != "Paid" || q.Items[0].Content != "Be brief." ||
		q.Items[0].Agent.Provider != "openai" || len(q.Items[0].Agent.Servers) != 1 || q.Items[0].Agent.Servers[0].Name != "Reference" {
		t.Fatalf("agent queue %+v", q)
	}
	if p := decode[struct{ Items []any }](t, s.Do("GET", "/api/v1/admin/reviews?kind=prompt", admin, ""), http.StatusOK); len(p.Items) != 0 {
		t.Errorf("an agent in the prompts' queue: %v", p.Items)
	}
	apitest.WantError(t, s.Do("POST", "/api/v1/admin/reviews/"+paid.ID, admin, `{"decision":"approve"}`), http.StatusConflict,
		"Set up payouts before selling a paid agent.")
	decode[map[string]any](t, s.Do("POST", "/api/v1/admin/reviews/"+paid.ID, admin, `{"decision":"reject","reason":"Set up payouts."}`), http.StatusOK)
	got := decode[agentJSON](t, s.Do("GET", myAgents+"/"+paid.ID, ann, ""), http.StatusOK)
	if got.State != "rejected" || got.ReviewReason == nil || *got.ReviewReason != "Set up payouts." {
		t.Errorf("rejected %+v", got)
	}
	s.EnablePayouts(annID)
	decode[agentJSON](t, s.Do("POST", myAgents+"/"+paid.ID+"/submit", ann, ""), http.StatusOK)
	decode[map[string]any](t, s.Do("POST", "/api/v1/admin/reviews/"+paid.ID, admin, `{"decision":"approve"}`), http.StatusOK)
	got = decode[agentJSON](t, s.Do("GET", myAgents+"/"+paid.ID, ann, ""), http.StatusOK)
	if got.State != "published" || got.PublishedVersions != 1 {
		t.Fatalf("published %+v", got)
	}

	// The next version: a note is required; the live one stays.
	apitest.WantError(t, s.Do("PATCH", myAgents+"/"+paid.ID, ann, mustJSON(map[string]any{"version": got.Version, "name": "Paid v2"})),
		http.StatusBadRequest, "change_note is required: say what changed, for your buyers.")
	edited := decode[agentJSON](t, s.Do("PATCH", myAgents+"/"+paid.ID, ann,
		mustJSON(map[string]any{"version": got.Version, "name": "Paid v2", "instructions": "Be briefer.", "change_note": "Shorter."})), http.StatusOK)
	if edited.Name != "Paid" || edited.Pending == nil || edited.Pending.Name != "Paid v2" || edited.Pending.State != "draft" {
		t.Fatalf("pending %+v", edited)
	}
	// A stale edit: 409 with the agent as it is.
	w := s.Do("PATCH", myAgents+"/"+paid.ID, ann, mustJSON(map[string]any{"version": got.Version, "name": "Stale", "change_note": "x"}))
	if w.Code != http.StatusConflict || !strings.Contains(w.Body.String(), `"current"`) {
		t.Errorf("stale edit %d %s", w.Code, w.Body.String())
	}
	decode[agentJSON](t, s.Do("POST", myAgents+"/"+paid.ID+"/submit", ann, ""), http.StatusOK)
	if d := decode[map[string]any](t, s.Do("POST", "/api/v1/admin/reviews/"+paid.ID, admin, `{"decision":"approve"}`), http.StatusOK); d["state"] != "published" ||
		d["review_reason"] != nil || !hasNull(d, "pending_state") {
		t.Errorf("approval of the next version answered %v", d)
	}
	got = decode[agentJSON](t, s.Do("GET", myAgents+"/"+paid.ID, ann, ""), http.StatusOK)
	if got.Name != "Paid v2" || got.Instructions != "Be briefer." || got.PublishedVersions != 2 || got.Pending != nil {
		t.Errorf("second version live %+v", got)
	}
	if len(got.Versions) != 2 || got.Versions[1].ChangeNote != "Shorter." || got.Versions[1].Number != 2 {
		t.Errorf("versions in the view %+v", got.Versions)
	}
	versions, err := s.St.AgentVersions(context.Background(), paid.ID)
	if err != nil || len(versions) != 2 || versions[0].Instructions != "Be brief." || versions[1].ChangeNote != "Shorter." {
		t.Errorf("versions %+v, %v", versions, err)
	}

	// Sold: deleting withdraws it; edits are refused since.
	storetest.Must(t, s.St.CountAgentPurchase(context.Background(), paid.ID, 1), "a sale")
	if w := s.Do("DELETE", myAgents+"/"+paid.ID, ann, ""); w.Code != http.StatusNoContent {
		t.Fatalf("delete %d %s", w.Code, w.Body.String())
	}
	got = decode[agentJSON](t, s.Do("GET", myAgents+"/"+paid.ID, ann, ""), http.StatusOK)
	if !got.Withdrawn {
		t.Errorf("not withdrawn %+v", got)
	}
	apitest.WantError(t, s.Do("PATCH", myAgents+"/"+paid.ID, ann, mustJSON(map[string]any{"version": got.Version, "name": "x", "change_note": "x"})),
		http.StatusConflict, "This agent was taken off the marketplace: its buyers keep it, and it can no longer be edited.")
	if l := decode[struct{ Items []any }](t, s.Do("GET", "/api/v1/agents/", "", ""), http.StatusOK); len(l.Items) != 0 {
		t.Errorf("a withdrawn agent is listed")
	}
	// Unsold: deleted.
	free := decode[agentJSON](t, s.Do("POST", myAgents, ann, mustJSON(agentFields("Free", 0))), http.StatusCreated)
	if w := s.Do("DELETE", myAgents+"/"+free.ID+"?version=1", ann, ""); w.Code != http.StatusNoContent {
		t.Fatalf("delete %d", w.Code)
	}
	apitest.WantError(t, s.Do("GET", myAgents+"/"+free.ID, ann, ""), http.StatusNotFound, "Agent not found.")
}
