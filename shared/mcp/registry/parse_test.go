package registry_test

import (
	"bytes"
	"log/slog"
	"reflect"
	"strings"
	"testing"

	"aiwork/shared/domain"
	"aiwork/shared/mcp/registry"
)

// bufLog is a logger whose lines a test can count.
func bufLog() (*slog.Logger, *bytes.Buffer) {
	var b bytes.Buffer
	return slog.New(slog.NewTextHandler(&b, nil)), &b
}

func logLines(b *bytes.Buffer) []string {
	s := strings.TrimSpace(b.String())
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// A page as the official registry answers it, with the fields this product reads.
const fullPage = `{
  "servers": [
    {
      "server": {
        "$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
        "name": "io.github.github/github-mcp-server",
        "title": "GitHub",
        "description": "Work with GitHub repositories, issues and pull requests.",
        "version": "1.0.0",
        "websiteUrl": "https://github.com",
        "repository": {"url": "https://github.com/github/github-mcp-server", "source": "github"},
        "packages": [{"registryType": "oci", "identifier": "ghcr.io/github/github-mcp-server:1.0.0", "transport": {"type": "stdio"}}],
        "remotes": [
          {"type": "sse", "url": "https://api.githubcopilot.com/sse"},
          {"type": "streamable-http", "url": "https://api.githubcopilot.com/mcp/",
           "headers": [
             {"name": "X-MCP-Toolsets", "description": "toolsets", "isRequired": false},
             {"name": "Authorization", "description": "GitHub token", "isRequired": true, "isSecret": true, "value": "Bearer {token}"}
           ]}
        ]
      },
      "_meta": {
        "io.modelcontextprotocol.registry/official": {
          "status": "active", "statusChangedAt": "2025-10-01T00:00:00Z",
          "publishedAt": "2025-09-01T10:00:00Z", "updatedAt": "2025-10-28T22:06:18.495159Z", "isLatest": true
        },
        "com.aiwork/catalog": {"model_type": "code", "oauth": false, "features": ["tools", "Resources", "bogus", "tools"]}
      }
    },
    {
      "server": {
        "name": "io.github.upstash/context7",
        "description": "Up-to-date code docs for any prompt",
        "version": "2.0.0",
        "remotes": [{"type": "streamable-http", "url": "https://mcp.context7.com/mcp",
                     "headers": [{"name": "CONTEXT7_API_KEY", "isRequired": false, "isSecret": true}]}]
      },
      "_meta": {"io.modelcontextprotocol.registry/official": {"status": "active", "publishedAt": "2025-09-02T00:00:00Z", "isLatest": true}}
    },
    {
      "server": {
        "name": "com.example/only-sse",
        "title": "Only SSE",
        "description": "Search the web.",
        "version": "0.1.0",
        "_meta": {"io.modelcontextprotocol.registry/publisher-provided": {"category": "web_search"}},
        "remotes": [{"type": "sse", "url": "https://only-sse.example.com/sse"}]
      }
    }
  ],
  "metadata": {"nextCursor": "io.github.upstash/context7:2.0.0", "count": 3}
}`

func TestParseReadsTheOfficialShape(t *testing.T) {
	log, buf := bufLog()
	entries, deleted, next, err := registry.Parse([]byte(fullPage), log)
	if err != nil {
		t.Fatal(err)
	}
	if next != "io.github.upstash/context7:2.0.0" || len(deleted) != 0 || len(entries) != 3 {
		t.Fatalf("next=%q deleted=%v entries=%d", next, deleted, len(entries))
	}
	if lines := logLines(buf); len(lines) != 0 {
		t.Errorf("clean page logged: %v", lines)
	}
	want := []domain.MCPServer{{
		ID: "io.github.github--github-mcp-server", Name: "io.github.github/github-mcp-server", Title: "GitHub",
		Description: "Work with GitHub repositories, issues and pull requests.",
		EndpointURL: "https://api.githubcopilot.com/mcp/", Transport: domain.TransportStreamableHTTP,
		ModelType: "code", APIKeyRequired: true, APIKeyHeader: "Authorization", IsActive: true,
		SupportedFeatures: []string{"tools", "resources"}, WebsiteURL: "https://github.com",
		Repository: "https://github.com/github/github-mcp-server", Version: "1.0.0", Source: "registry",
		UpdatedAt: "2025-10-28T22:06:18.495159Z",
	}, {
		// No annotation: classified by keywords ("docs" wins the tie with "code"),
		// an optional secret header names where an optional key goes, the
		// publish time stands in for the update time, the title falls back to the name.
		ID: "io.github.upstash--context7", Name: "io.github.upstash/context7", Title: "context7",
		Description: "Up-to-date code docs for any prompt", EndpointURL: "https://mcp.context7.com/mcp",
		Transport: domain.TransportStreamableHTTP, ModelType: "documentation", APIKeyHeader: "CONTEXT7_API_KEY",
		IsActive: true, SupportedFeatures: []string{"tools"}, Version: "2.0.0", Source: "registry",
		UpdatedAt: "2025-09-02T00:00:00Z",
	}, {
		// No registry metadata at all (another registry, or a snapshot): active.
		// The publisher's category maps onto ours.
		ID: "com.example--only-sse", Name: "com.example/only-sse", Title: "Only SSE", Description: "Search the web.",
		EndpointURL: "https://only-sse.example.com/sse", Transport: domain.TransportSSE, ModelType: "search",
		IsActive: true, SupportedFeatures: []string{"tools"}, Version: "0.1.0", Source: "registry",
	}}
	for i := range want {
		if !reflect.DeepEqual(entries[i], want[i]) {
			t.Errorf("entry %d:\n got %+v\nwant %+v", i, entries[i], want[i])
		}
	}
}

func TestParseKeepsOnlyActiveLatestRemoteEntries(t *testing.T) {
	page := `{"servers": [
	  {"server": {"name": "com.a/deleted", "version": "1", "remotes": [{"type": "streamable-http", "url": "https://a.example/mcp"}]},
	   "_meta": {"io.modelcontextprotocol.registry/official": {"status": "deleted", "isLatest": true}}},
	  {"server": {"name": "com.a/deprecated", "version": "1"},
	   "_meta": {"io.modelcontextprotocol.registry/official": {"status": "deprecated", "isLatest": true}}},
	  {"server": {"name": "com.a/suspended", "version": "1", "remotes": [{"type": "sse", "url": "https://a.example/sse"}]},
	   "_meta": {"io.modelcontextprotocol.registry/official": {"status": "suspended"}}},
	  {"server": {"name": "com.a/old-version", "version": "1", "remotes": [{"type": "sse", "url": "https://a.example/sse"}]},
	   "_meta": {"io.modelcontextprotocol.registry/official": {"status": "active", "isLatest": false}}},
	  {"server": {"name": "com.a/stdio-only", "version": "1",
	     "packages": [{"registryType": "npm", "identifier": "a", "version": "1", "transport": {"type": "stdio"}}]},
	   "_meta": {"io.modelcontextprotocol.registry/official": {"status": "active", "isLatest": true}}},
	  {"server": {"name": "com.a/template-url", "version": "1", "remotes": [{"type": "streamable-http", "url": "https://{tenant}.a.example/mcp"}]}},
	  {"server": {"name": "com.a/not-http", "version": "1", "remotes": [{"type": "streamable-http", "url": "ftp://a.example/mcp"}, {"type": "websocket", "url": "wss://a.example/ws"}]}},
	  {"server": {"name": "com.a/kept", "version": "1", "remotes": [{"type": "streamable-http", "url": "http://kept.example:8080/mcp"}]},
	   "_meta": {"io.modelcontextprotocol.registry/official": {"status": "active", "isLatest": true}}}
	], "metadata": {"count": 8}}`
	log, buf := bufLog()
	entries, deleted, next, err := registry.Parse([]byte(page), log)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].ID != "com.a--kept" || entries[0].EndpointURL != "http://kept.example:8080/mcp" {
		t.Errorf("entries = %+v, want only com.a/kept", entries)
	}
	if want := []string{"com.a--deleted", "com.a--deprecated", "com.a--suspended"}; !reflect.DeepEqual(deleted, want) {
		t.Errorf("deleted = %v, want %v", deleted, want)
	}
	if next != "" {
		t.Errorf("next = %q on the last page", next)
	}
	if lines := logLines(buf); len(lines) != 0 {
		t.Errorf("ignored entries are not malformed, but logged: %v", lines)
	}
}

func TestParseSkipsMalformedEntriesWithALogLine(t *testing.T) {
	page := `{"servers": [
	  {"server": "not an object"},
	  {"server": {"name": "no-slash", "remotes": [{"type": "sse", "url": "https://x.example/sse"}]}},
	  {"server": {"name": "com.bad/remotes", "remotes": "https://x.example/mcp"}},
	  {"server": {"name": "com.bad/meta", "remotes": [{"type": "sse", "url": "https://x.example/sse"}]},
	   "_meta": {"com.aiwork/catalog": {"oauth": "yes"}}},
	  42,
	  {"server": {"name": "com.good/one", "remotes": [{"type": "sse", "url": "https://good.example/sse"}]}}
	], "metadata": {"next_cursor": "snake"}}`
	log, buf := bufLog()
	entries, deleted, next, err := registry.Parse([]byte(page), log)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].ID != "com.good--one" || len(deleted) != 0 {
		t.Errorf("entries = %+v, deleted = %v; want only com.good/one", entries, deleted)
	}
	if next != "snake" {
		t.Errorf("next_cursor spelling: next = %q, want snake", next)
	}
	lines := logLines(buf)
	if len(lines) != 5 {
		t.Fatalf("want one log line per malformed entry (5), got %d:\n%s", len(lines), buf)
	}
	for _, l := range lines {
		if !strings.Contains(l, "skipped malformed entry") {
			t.Errorf("log line %q does not say what happened", l)
		}
	}
	if !strings.Contains(buf.String(), "com.bad/remotes") {
		t.Errorf("log lines should name the entry when it has a name:\n%s", buf)
	}
}

func TestParseRefusesWhatIsNotAListPage(t *testing.T) {
	for _, page := range []string{``, `<html>`, `[]`, `{"servers": {}}`, `{"items": []}`} {
		if _, _, _, err := registry.Parse([]byte(page), nil); err == nil {
			t.Errorf("Parse(%q) succeeded, want an error", page)
		}
	}
	entries, deleted, next, err := registry.Parse([]byte(`{"servers": [], "metadata": {"count": 0}}`), nil)
	if err != nil || len(entries) != 0 || len(deleted) != 0 || next != "" {
		t.Errorf("an empty page: %v %v %q %v", entries, deleted, next, err)
	}
}

func TestParseClipsLongText(t *testing.T) {
	long := strings.Repeat("é", 3000)
	page := `{"servers": [{"server": {"name": "com.long/text", "title": "` + long + `", "description": "` + long + `",
	  "remotes": [{"type": "sse", "url": "https://long.example/sse"}]}}]}`
	entries, _, _, err := registry.Parse([]byte(page), nil)
	if err != nil || len(entries) != 1 {
		t.Fatalf("%v %v", entries, err)
	}
	if n := len([]rune(entries[0].Description)); n != 1000 {
		t.Errorf("description has %d runes, want 1000", n)
	}
	if n := len([]rune(entries[0].Title)); n != 200 {
		t.Errorf("title has %d runes, want 200", n)
	}
}

// A registry that had to shorten a description for server.json (at most
// 100 characters) gives the whole one in our _meta, and the import takes it.
func TestParseTakesTheWholeDescriptionFromOurMeta(t *testing.T) {
	whole := strings.Repeat("A long description. ", 20)
	page := `{"servers": [{"server": {"name": "com.long/description", "description": "A long descr…",
	  "remotes": [{"type": "streamable-http", "url": "https://long.example/mcp"}]},
	  "_meta": {"com.aiwork/catalog": {"model_type": "search", "oauth": false, "features": ["tools"], "description": "` + whole + `",
	    "health": {"status": "up"}, "tools": [{"name": "x", "read_only": true, "destructive": false}], "url": "https://elsewhere.example/api/v1/mcp-servers/x"}}}]}`
	entries, _, _, err := registry.Parse([]byte(page), nil)
	if err != nil || len(entries) != 1 {
		t.Fatalf("%v %v", entries, err)
	}
	if got := entries[0]; got.Description != strings.TrimSpace(whole) || got.ModelType != "search" {
		t.Errorf("description %q, model type %q; want the whole description from _meta", got.Description, got.ModelType)
	}
}

func TestServerID(t *testing.T) {
	tests := map[string]string{
		"com.notion/mcp":                     "com.notion--mcp",
		"io.github.github/github-mcp-server": "io.github.github--github-mcp-server",
		"io.github.User_Name/My_Server":      "io.github.user-name--my-server",
		"ai.exa/exa":                         "ai.exa--exa",
		"com.ex/ünï code+x":                  "com.ex---n--code-x",
	}
	for in, want := range tests {
		if got := registry.ServerID(in); got != want {
			t.Errorf("ServerID(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestClassify(t *testing.T) {
	tests := []struct{ name, title, desc, want string }{
		{"com.stripe/mcp", "Stripe", "Payments, invoices and subscriptions", "payments"},
		{"io.github.acme/repo-tools", "", "Work with GitHub repositories and pull requests", "code"},
		{"com.microsoft/learn", "Microsoft Learn", "Search official Microsoft documentation", "documentation"},
		{"aws.api/knowledge", "AWS Knowledge", "Search AWS docs and regional availability", "documentation"},
		{"com.neon/mcp", "Neon", "Manage Postgres projects and run SQL", "data"},
		{"com.vercel/mcp", "Vercel", "Manage projects and deployments on Vercel", "cloud"},
		{"ai.exa/exa", "Exa", "Search the web and crawl pages", "search"},
		{"com.notion/mcp", "Notion", "Notes, tasks and pages in your workspace", "productivity"},
		// The namespace says nothing: io.github.* is not "code".
		{"io.github.someone/weather", "Weather", "Forecasts for a city", registry.FallbackModelType},
	}
	for _, tt := range tests {
		if got := registry.Classify(tt.name, tt.title, tt.desc); got != tt.want {
			t.Errorf("Classify(%q, %q) = %q, want %q", tt.name, tt.desc, got, tt.want)
		}
	}
}
