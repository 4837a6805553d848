package store

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"aiwork/shared/domain"
)

// An allowance endpoint is scheme, host and path in one form, whatever way
// the URL was written.
func TestAllowanceEndpoint(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"https://API.Example.com:443/mcp/":         "https://api.example.com/mcp",
		"HTTPS://api.example.com/mcp?x=1#frag":     "https://api.example.com/mcp",
		"http://127.0.0.1:80/":                     "http://127.0.0.1",
		"http://127.0.0.1:18778/mcp":               "http://127.0.0.1:18778/mcp",
		"http://[::1]:8080/a/b/":                   "http://[::1]:8080/a/b",
		"http://[::1]/":                            "http://[::1]",
		"https://user:pw@api.example.com:8443/Mcp": "https://api.example.com:8443/Mcp",
	} {
		if got := AllowanceEndpoint(in); got != want {
			t.Errorf("AllowanceEndpoint(%q) = %q, want %q", in, got, want)
		}
	}
	if got := EndpointLabel("http://127.0.0.1:18778/mcp"); got != "127.0.0.1:18778/mcp" {
		t.Errorf("label = %q", got)
	}
}

// A tool's print changes with each part of its definition, and names that
// part; keys reordered in the schema change nothing.
func TestPrintTool(t *testing.T) {
	t.Parallel()
	base := domain.MCPTool{Name: "wipe", Description: "Wipes.", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"number"}}}`),
		DestructiveHintAbsent: true}
	p := PrintTool(base)
	reordered := base
	reordered.InputSchema = json.RawMessage(` { "properties" : {"a":{"type":"number"}}, "type":"object" }`)
	if got := p.Changed(PrintTool(reordered)); len(got) != 0 {
		t.Errorf("reordered schema: changed %v, want none", got)
	}
	for name, c := range map[string]struct {
		tool domain.MCPTool
		want []string
	}{
		"description": {domain.MCPTool{Name: "wipe", Description: "Wipes all.", InputSchema: base.InputSchema, DestructiveHintAbsent: true}, []string{ChangedDescription}},
		"schema":      {domain.MCPTool{Name: "wipe", Description: "Wipes.", InputSchema: json.RawMessage(`{"type":"object"}`), DestructiveHintAbsent: true}, []string{ChangedInputSchema}},
		"destructive": {domain.MCPTool{Name: "wipe", Description: "Wipes.", InputSchema: base.InputSchema, Destructive: true}, []string{ChangedAnnotations}},
		"name and description": {domain.MCPTool{Name: "Wipe", Description: "", InputSchema: base.InputSchema, DestructiveHintAbsent: true},
			[]string{ChangedName, ChangedDescription}},
	} {
		if got := p.Changed(PrintTool(c.tool)); !slices.Equal(got, c.want) {
			t.Errorf("%s: changed %v, want %v", name, got, c.want)
		}
	}
}

// Allowances are kept per endpoint; "always" again replaces one endpoint's
// and drops an allowance recorded before endpoints were; a revoke takes one
// endpoint's, the unrecorded one, or every endpoint's.
func TestToolAllowancesPerEndpoint(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newInternalStore(t)
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	tool := domain.MCPTool{Name: "wipe", Description: "Wipes.", Destructive: true}
	a := ToolAllowance{ServerID: "srv", Tool: "wipe", Endpoint: "https://A.example.com/mcp/", Print: PrintTool(tool), Destructive: true}
	b := ToolAllowance{ServerID: "srv", Tool: "wipe", Endpoint: "http://127.0.0.1:18778/mcp", Print: PrintTool(tool)}
	other := ToolAllowance{ServerID: "srv", Tool: "wipe#all", Endpoint: "https://a.example.com/mcp", Print: PrintTool(tool)}
	for _, x := range []ToolAllowance{a, b, other} {
		if err := s.AllowToolAlways(ctx, "u1", x, now); err != nil {
			t.Fatal(err)
		}
	}
	// As code before endpoints wrote it.
	legacy := map[string]string{"PK": userPK("u1"), "SK": toolAllowSK("srv", "wipe"), "server_id": "srv", "tool": "wipe", "created_at": "2026-01-01T00:00:00Z"}
	if err := s.put(ctx, legacy); err != nil {
		t.Fatal(err)
	}
	endpoints := func() []string {
		t.Helper()
		all, err := s.ToolAllowances(ctx, "u1")
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, x := range all {
			if x.Tool == "wipe" {
				if x.Recorded() == (x.Endpoint == "") {
					t.Errorf("%+v: Recorded() = %v", x, x.Recorded())
				}
				out = append(out, x.Endpoint)
			}
		}
		slices.Sort(out)
		return out
	}
	if got := endpoints(); !slices.Equal(got, []string{"", "http://127.0.0.1:18778/mcp", "https://a.example.com/mcp"}) {
		t.Fatalf("endpoints %q", got)
	}

	// "Always" on a, with the tool changed: one allowance there, the new
	// definition; the unrecorded one is gone.
	changed := tool
	changed.Description = "Wipes everything."
	a.Print = PrintTool(changed)
	if err := s.AllowToolAlways(ctx, "u1", a, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	all, _ := s.ToolAllowances(ctx, "u1")
	for _, x := range all {
		if x.Endpoint == "https://a.example.com/mcp" && x.Tool == "wipe" && (x.Print != a.Print || !x.Destructive || x.CreatedAt != "2026-11-22T11:00:00Z") {
			t.Errorf("replaced allowance %+v", x)
		}
	}
	if got := endpoints(); !slices.Equal(got, []string{"http://127.0.0.1:18778/mcp", "https://a.example.com/mcp"}) {
		t.Fatalf("after always again: endpoints %q", got)
	}

	if err := s.RevokeToolAllowance(ctx, "u1", "srv", "wipe", "HTTPS://a.example.com:443/mcp"); err != nil {
		t.Fatal(err)
	}
	if got := endpoints(); !slices.Equal(got, []string{"http://127.0.0.1:18778/mcp"}) {
		t.Fatalf("after one endpoint's revoke: %q", got)
	}
	if err := s.RevokeToolAllowance(ctx, "u2", "srv", "wipe", AnyEndpoint); !errors.Is(err, ErrNotFound) {
		t.Errorf("another user's revoke: %v, want ErrNotFound", err)
	}
	if err := s.put(ctx, legacy); err != nil {
		t.Fatal(err)
	}
	if err := s.RevokeToolAllowance(ctx, "u1", "srv", "wipe", ""); err != nil {
		t.Fatal(err)
	}
	if got := endpoints(); !slices.Equal(got, []string{"http://127.0.0.1:18778/mcp"}) {
		t.Fatalf("after the unrecorded one's revoke: %q", got)
	}
	if err := s.RevokeToolAllowance(ctx, "u1", "srv", "wipe", AnyEndpoint); err != nil {
		t.Fatal(err)
	}
	if got := endpoints(); len(got) != 0 {
		t.Fatalf("after revoking every endpoint's: %q", got)
	}
	if err := s.RevokeToolAllowance(ctx, "u1", "srv", "wipe", AnyEndpoint); !errors.Is(err, ErrNotFound) {
		t.Errorf("revoke again: %v, want ErrNotFound", err)
	}
	if all, _ := s.ToolAllowances(ctx, "u1"); len(all) != 1 || all[0].Tool != "wipe#all" {
		t.Errorf("left %+v, want the other tool's allowance only", all)
	}
}
