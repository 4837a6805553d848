package agents_test

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"aiwork/shared/agents"
	"aiwork/shared/domain"
	"aiwork/shared/prompts"
)

var categories = map[string]string{"business": "Business"}

func registry(id string) (domain.MCPServer, bool, error) {
	switch id {
	case "ref":
		return domain.MCPServer{ID: id, IsActive: true, Health: domain.MCPHealth{Tools: []domain.MCPTool{{Name: "echo"}, {Name: "add"}}}}, true, nil
	case "unprobed":
		return domain.MCPServer{ID: id, IsActive: true}, true, nil
	case "inactive":
		return domain.MCPServer{ID: id, IsActive: false}, true, nil
	case "banned":
		return domain.MCPServer{ID: id, IsActive: true, AdminDisabled: true}, true, nil
	case "broken":
		return domain.MCPServer{}, false, errors.New("table down")
	}
	if strings.HasPrefix(id, "s") {
		return domain.MCPServer{ID: id, IsActive: true}, true, nil
	}
	return domain.MCPServer{}, false, nil
}

func good() domain.Agent {
	return domain.Agent{ID: "a-1", Name: "Helper", Description: "Helps.", Instructions: "Be brief.", Provider: "openai",
		Model: "gpt-4o-mini", Servers: []domain.AgentServer{{ServerID: "ref", Tools: []string{"echo"}}, {ServerID: "unprobed", Tools: []string{"anything"}}},
		Starters: []string{"Hi"}, CategoryID: "business", Price: 0}
}

func manyServers(n, toolsEach int) []domain.AgentServer {
	out := []domain.AgentServer{}
	for i := range n {
		s := domain.AgentServer{ServerID: "s" + string(rune('a'+i%26)) + strings.Repeat("x", i/26), Tools: []string{}}
		for j := range toolsEach {
			s.Tools = append(s.Tools, "t"+strings.Repeat("y", j))
		}
		out = append(out, s)
	}
	return out
}

func TestCheckAcceptsAGoodAgent(t *testing.T) {
	for _, price := range []float64{0, 0.01, 4.5, 999.99} {
		a := good()
		a.Price = price
		if err := agents.Check(a, categories, registry); err != nil {
			t.Errorf("price %v: %v", price, err)
		}
	}
	a := good()
	a.Servers, a.Starters = manyServers(10, 10), []string{"1", "2", "3", strings.Repeat("é", 300)}
	a.Instructions = strings.Repeat("é", 50_000)
	a.Name = strings.Repeat("n", 100)
	if err := agents.Check(a, categories, registry); err != nil {
		t.Errorf("at every limit: %v", err)
	}
}

// Every bad input is refused with a message naming the field.
func TestCheckRefusesEachBadInput(t *testing.T) {
	for _, tt := range []struct {
		name, field, message string
		change               func(*domain.Agent)
	}{
		{"no name", "name", "name is required", func(a *domain.Agent) { a.Name = " " }},
		{"long name", "name", "name must be at most 100 characters", func(a *domain.Agent) { a.Name = strings.Repeat("n", 101) }},
		{"control in name", "name", "name must not contain control characters", func(a *domain.Agent) { a.Name = "a\x00b" }},
		{"long description", "description", "description must be at most 2,000 characters", func(a *domain.Agent) { a.Description = strings.Repeat("d", 2001) }},
		{"no instructions", "instructions", "instructions are required", func(a *domain.Agent) { a.Instructions = "\n " }},
		{"instructions over 50,000", "instructions", "instructions must be at most 50,000 characters (they have 50001)", func(a *domain.Agent) { a.Instructions = strings.Repeat("i", 50_001) }},
		{"no provider", "provider", "provider is required", func(a *domain.Agent) { a.Provider = "" }},
		{"unknown provider", "provider", "provider: acme is not one of openai, meta, anthropic, google", func(a *domain.Agent) { a.Provider = "acme" }},
		{"no model", "model", "model is required", func(a *domain.Agent) { a.Model = "" }},
		{"model not in the provider list", "model", "model: gpt-x is not a model of openai", func(a *domain.Agent) { a.Model = "gpt-x" }},
		{"another provider's model", "model", "model: claude-3-opus is not a model of openai", func(a *domain.Agent) { a.Model = "claude-3-opus" }},
		{"five starters", "starters", "starters: at most 4", func(a *domain.Agent) { a.Starters = []string{"1", "2", "3", "4", "5"} }},
		{"empty starter", "starters", "starters: each must be 1 to 300 characters", func(a *domain.Agent) { a.Starters = []string{" "} }},
		{"long starter", "starters", "starters: each must be 1 to 300 characters", func(a *domain.Agent) { a.Starters = []string{strings.Repeat("s", 301)} }},
		{"negative price", "price", "price must be 0 (free) or more than 0 and at most 999.99", func(a *domain.Agent) { a.Price = -1 }},
		{"NaN price", "price", "price must be 0 (free) or more than 0 and at most 999.99", func(a *domain.Agent) { a.Price = math.NaN() }},
		{"price too high", "price", "price must be more than 0 and at most 999.99", func(a *domain.Agent) { a.Price = 1000 }},
		{"three decimals", "price", "price must have at most two decimals", func(a *domain.Agent) { a.Price = 1.005 }},
		{"no category", "category_id", "category_id is required", func(a *domain.Agent) { a.CategoryID = "" }},
		{"unknown category", "category_id", `category "nope" does not exist`, func(a *domain.Agent) { a.CategoryID = "nope" }},
		{"more than 10 servers", "servers", "servers: at most 10", func(a *domain.Agent) { a.Servers = manyServers(11, 0) }},
		{"more than 100 tools", "servers", "servers: at most 100 tools in all", func(a *domain.Agent) { a.Servers = manyServers(3, 34) }},
		{"no server id", "servers", "servers: each needs a server_id", func(a *domain.Agent) { a.Servers = []domain.AgentServer{{}} }},
		{"server twice", "servers", "servers: ref is listed twice", func(a *domain.Agent) { a.Servers = append(a.Servers, domain.AgentServer{ServerID: "ref"}) }},
		{"tool with no name", "servers", "servers: ref has a tool with no name", func(a *domain.Agent) { a.Servers[0].Tools = []string{""} }},
		{"long tool name", "servers", "servers: a tool name of ref is longer than 128 characters", func(a *domain.Agent) { a.Servers[0].Tools = []string{strings.Repeat("t", 129)} }},
		{"tool twice", "servers", "servers: ref lists the tool echo twice", func(a *domain.Agent) { a.Servers[0].Tools = []string{"echo", "echo"} }},
		{"server not in the registry", "servers", "servers: no server xyz in the registry", func(a *domain.Agent) { a.Servers = []domain.AgentServer{{ServerID: "xyz"}} }},
		{"server inactive", "servers", "servers: inactive is disabled", func(a *domain.Agent) { a.Servers = []domain.AgentServer{{ServerID: "inactive"}} }},
		{"server disabled by an admin", "servers", "servers: banned is disabled", func(a *domain.Agent) { a.Servers = []domain.AgentServer{{ServerID: "banned"}} }},
		{"tool the server lacks", "servers", "servers: ref has no tool rm", func(a *domain.Agent) { a.Servers[0].Tools = []string{"echo", "rm"} }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := good()
			a.Servers = []domain.AgentServer{{ServerID: "ref", Tools: []string{"echo"}}}
			tt.change(&a)
			err := agents.Check(a, categories, registry)
			bad, ok := errors.AsType[*prompts.InvalidError](err)
			if !ok || bad.Field != tt.field || bad.Message != tt.message {
				t.Errorf("got %v; want %s: %q", err, tt.field, tt.message)
			}
		})
	}
}

// A registry failure is answered as it is, not as a broken rule.
func TestCheckPassesARegistryFailure(t *testing.T) {
	a := good()
	a.Servers = []domain.AgentServer{{ServerID: "broken"}}
	err := agents.Check(a, categories, registry)
	if _, ok := errors.AsType[*prompts.InvalidError](err); ok || err == nil {
		t.Errorf("got %v; want the registry's failure", err)
	}
}

// The registry is not asked about servers beyond the limit.
func TestCheckAsksTheRegistryWithinTheLimits(t *testing.T) {
	a := good()
	a.Servers = manyServers(500, 0)
	asked := 0
	_ = agents.Check(a, categories, func(id string) (domain.MCPServer, bool, error) { asked++; return registry(id) })
	if asked != 0 {
		t.Errorf("the registry was asked %d times", asked)
	}
}

func TestEditAndNew(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	name, instr := "  Spaced  ", " keep \n"
	a, err := agents.New("a-1", agents.Input{Name: &name, Instructions: &instr, Provider: ptr("openai"), Model: ptr("gpt-4o"),
		CategoryID: ptr("business")}, now, categories, registry)
	if err != nil || a.Name != "Spaced" || a.Instructions != instr || a.Version != 1 || a.State != domain.PromptDraft {
		t.Fatalf("new %+v, %v", a, err)
	}
	if _, err := agents.Edit(a, agents.Input{Name: ptr("x")}, now, categories, registry); err == nil {
		t.Error("an edit without a version was accepted")
	}
	if _, err := agents.Edit(a, agents.Input{Version: ptr(7), Name: ptr("x")}, now, categories, registry); !errors.Is(err, agents.ErrStale) {
		t.Errorf("stale edit: %v", err)
	}
	next, err := agents.Edit(a, agents.Input{Version: ptr(1), Name: ptr("New")}, now.Add(time.Hour), categories, registry)
	if err != nil || next.Name != "New" || next.Version != 2 {
		t.Errorf("edit %+v, %v", next, err)
	}
}

func ptr[T any](v T) *T { return &v }

// A long id from a request is cut short in the message.
func TestLongServerIDIsCutInTheMessage(t *testing.T) {
	a := good()
	a.Servers = []domain.AgentServer{{ServerID: "x" + strings.Repeat("y", 3000)}}
	err := agents.Check(a, categories, registry)
	if err == nil || len(err.Error()) > 200 || !strings.HasSuffix(err.Error(), "… in the registry") {
		t.Errorf("got %q", err)
	}
}
