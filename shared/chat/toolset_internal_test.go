package chat

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"aiwork/shared/domain"
)

// providerName is the strictest provider rule for tool names.
var providerName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

func conn(serverID, name string, tools ...string) domain.MCPConnection {
	c := domain.MCPConnection{ID: "c-" + serverID, ServerID: serverID, ServerName: name}
	for _, t := range tools {
		c.Tools = append(c.Tools, domain.MCPTool{Name: t, Description: "does " + t})
	}
	return c
}

// Names are namespaced, cleaned to the providers' rules, unique, and the
// same whatever order the connections come in (a paused reply resumes
// with the names the model saw).
func TestToolsetNames(t *testing.T) {
	long := strings.Repeat("very-long-tool-name-", 5)
	a := conn("io.github/everything", "Everything", "echo", "get sum", "émoji✓tool", long, "get_sum")
	b := conn("other", "Other", "echo")
	// Another connection to the same server (an endpoint override): its
	// tools clean to the same names, and must still be told apart.
	a2 := a
	a2.ID = "c-again"

	ts := newToolset([]domain.MCPConnection{a, b, a2})
	if len(ts.offered) != 11 || ts.note != "" {
		t.Fatalf("offered %d tools, note %q; want 11, none", len(ts.offered), ts.note)
	}
	seen := map[string]bool{}
	for _, tool := range ts.offered {
		if !providerName.MatchString(tool.Name) {
			t.Errorf("name %q breaks the providers' rule", tool.Name)
		}
		if seen[tool.Name] {
			t.Errorf("name %q offered twice", tool.Name)
		}
		seen[tool.Name] = true
		bt := ts.byName[tool.Name]
		if !strings.Contains(tool.Description, bt.conn.ServerName) {
			t.Errorf("%s: description %q does not name its server", tool.Name, tool.Description)
		}
	}
	for _, want := range []string{"io_github_everything__echo", "other__echo", "io_github_everything__get_sum"} {
		if _, ok := ts.byName[want]; !ok {
			t.Errorf("no tool named %q in %v", want, names(ts))
		}
	}
	// "get sum" and "get_sum" clean to one name: the second gets a suffix,
	// and each name reaches its own tool.
	if bt := ts.byName["io_github_everything__get_sum"]; bt.tool.Name != "get sum" {
		t.Errorf("io_github_everything__get_sum is %q, want the first of the two", bt.tool.Name)
	}
	// Deterministic: the same connections in another order name each tool
	// the same way, on the same connection.
	again := newToolset([]domain.MCPConnection{a2, b, a})
	for name, bt := range ts.byName {
		if got, ok := again.byName[name]; !ok || got.tool.Name != bt.tool.Name || got.conn.ID != bt.conn.ID {
			t.Errorf("%s: %s on %s, then %s on %s", name, bt.tool.Name, bt.conn.ID, got.tool.Name, got.conn.ID)
		}
	}
}

// 80 tools on one server are all offered; past 128 in all the rest are
// left out with a note the user sees.
func TestToolsetCap(t *testing.T) {
	var tools []string
	for i := range 80 {
		tools = append(tools, fmt.Sprintf("tool-%02d", i))
	}
	ts := newToolset([]domain.MCPConnection{conn("one", "One", tools...)})
	if len(ts.offered) != 80 || ts.note != "" {
		t.Errorf("80 tools: offered %d, note %q", len(ts.offered), ts.note)
	}
	ts = newToolset([]domain.MCPConnection{conn("one", "One", tools...), conn("two", "Two", tools...)})
	if len(ts.offered) != MaxOfferedTools || !strings.Contains(ts.note, "160 tools") || !strings.Contains(ts.note, "first 128") {
		t.Errorf("160 tools: offered %d, note %q", len(ts.offered), ts.note)
	}
}

func names(ts toolset) []string {
	var out []string
	for _, t := range ts.offered {
		out = append(out, t.Name)
	}
	return out
}

// A connection made with an endpoint override is named with its host, to
// the model as to the user (its tool frames and errors use the same Label).
func TestToolOfAnOverriddenEndpointNamesItsHost(t *testing.T) {
	c := conn("io.github/github", "GitHub", "search")
	c.EndpointHost = "127.0.0.1:18101"
	ts := newToolset([]domain.MCPConnection{c})
	if len(ts.offered) != 1 {
		t.Fatalf("offered %d tools, want 1", len(ts.offered))
	}
	if d := ts.offered[0].Description; !strings.Contains(d, "GitHub · 127.0.0.1:18101") {
		t.Errorf("description %q does not name the host beside the server", d)
	}
}

// A tool a server keeps for its views (visibility without "model") is
// never offered to a model, nor counted toward the cap's note; one visible
// to both, or saying nothing, is.
func TestToolsetLeavesOutAppOnlyTools(t *testing.T) {
	c := conn("apps", "Apps", "get-time", "refresh", "both", "model-only")
	c.Tools[0].UIResourceURI = "ui://get-time/mcp-app.html"
	c.Tools[1].Visibility = []string{domain.ToolVisibleToApp}
	c.Tools[2].Visibility = []string{domain.ToolVisibleToModel, domain.ToolVisibleToApp}
	c.Tools[3].Visibility = []string{domain.ToolVisibleToModel}
	ts := newToolset([]domain.MCPConnection{c})
	if got := strings.Join(names(ts), ","); got != "apps__get-time,apps__both,apps__model-only" {
		t.Errorf("offered %s, want every tool but the app-only one", got)
	}
	if _, ok := ts.byName["apps__refresh"]; ok {
		t.Error("the app-only tool can be called by name")
	}
}
