package seeddata_test

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"reflect"
	"slices"
	"testing"
	"unicode/utf8"

	"aiwork/shared/domain"
	"aiwork/shared/mcp/registry"
	"aiwork/shared/seeddata"
	"aiwork/shared/store/storetest"
)

var ctx = context.Background()

func TestMCPSeedShape(t *testing.T) {
	servers, err := seeddata.MCPServers()
	if err != nil {
		t.Fatal(err)
	}
	if len(servers) < 16 {
		t.Fatalf("%d seeded servers, want at least 16", len(servers))
	}
	ids := map[string]bool{}
	perType := map[string]int{}
	var withKey, withOAuth, sse int
	for _, s := range servers {
		if ids[s.ID] || s.ID != registry.ServerID(s.Name) {
			t.Errorf("%s: id %q duplicate or not derived from the name", s.Name, s.ID)
		}
		ids[s.ID] = true
		u, err := url.Parse(s.EndpointURL)
		if err != nil || u.Scheme != "https" || u.Host == "" {
			t.Errorf("%s: endpoint %q is not https", s.ID, s.EndpointURL)
		}
		if s.Transport != domain.TransportStreamableHTTP && s.Transport != domain.TransportSSE {
			t.Errorf("%s: transport %q", s.ID, s.Transport)
		}
		if !slices.Contains(registry.ModelTypes, s.ModelType) {
			t.Errorf("%s: model type %q not in %v", s.ID, s.ModelType, registry.ModelTypes)
		}
		perType[s.ModelType]++
		if s.Title == "" || s.Description == "" || s.Version == "" || s.WebsiteURL == "" {
			t.Errorf("%s: title, description, version or website missing", s.ID)
		}
		if !s.IsActive || s.Source != seeddata.SourceSeed || len(s.SupportedFeatures) == 0 {
			t.Errorf("%s: active=%v source=%q features=%v", s.ID, s.IsActive, s.Source, s.SupportedFeatures)
		}
		if s.APIKeyRequired {
			withKey++
			if s.APIKeyHeader == "" {
				t.Errorf("%s: key required but no header named", s.ID)
			}
		}
		if s.OAuthRequired {
			withOAuth++
		}
		if s.APIKeyRequired && s.OAuthRequired {
			t.Errorf("%s: marked as needing both a key and OAuth", s.ID)
		}
		if s.Transport == domain.TransportSSE {
			sse++
		}
	}
	for _, mt := range []string{"documentation", "code", "search", "cloud", "productivity", "payments", "data"} {
		if perType[mt] == 0 {
			t.Errorf("no seeded server of model type %q", mt)
		}
	}
	if withKey == 0 || withOAuth == 0 {
		t.Errorf("%d servers need an API key and %d OAuth; want at least one of each", withKey, withOAuth)
	}
	if sse == 0 {
		t.Error("no seeded server speaks only SSE; the SSE transport goes unexercised")
	}
	if n := len(servers) - withKey - withOAuth; n < 5 {
		t.Errorf("only %d servers need no credentials; a newcomer needs some that answer without", n)
	}
}

// The file is the official list-response shape, within server.json's rules.
func TestMCPSeedFileIsTheOfficialShape(t *testing.T) {
	b, err := os.ReadFile("mcp-servers.json")
	if err != nil {
		t.Fatal(err)
	}
	var page struct {
		Servers []struct {
			Server struct {
				Schema      string `json:"$schema"`
				Name        string `json:"name"`
				Description string `json:"description"`
				Version     string `json:"version"`
				Remotes     []struct {
					Type    string `json:"type"`
					URL     string `json:"url"`
					Headers []struct {
						Name       string `json:"name"`
						IsRequired bool   `json:"isRequired"`
						IsSecret   bool   `json:"isSecret"`
					} `json:"headers"`
				} `json:"remotes"`
			} `json:"server"`
			Meta map[string]json.RawMessage `json:"_meta"`
		} `json:"servers"`
		Metadata struct {
			Count int `json:"count"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(b, &page); err != nil {
		t.Fatal(err)
	}
	if page.Metadata.Count != len(page.Servers) {
		t.Errorf("metadata.count = %d, servers = %d", page.Metadata.Count, len(page.Servers))
	}
	for _, e := range page.Servers {
		s := e.Server
		if s.Schema == "" || s.Version == "" || len(s.Remotes) == 0 {
			t.Errorf("%s: $schema, version or remotes missing", s.Name)
		}
		if n := utf8.RuneCountInString(s.Description); n == 0 || n > 100 {
			t.Errorf("%s: description has %d characters; server.json allows 1–100", s.Name, n)
		}
		if _, ok := e.Meta[registry.CatalogMetaKey]; !ok {
			t.Errorf("%s: no %s annotation", s.Name, registry.CatalogMetaKey)
		}
	}
}

func TestSeedMCPServersIsIdempotentAndKeepsHealth(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	storetest.Must(t, seeddata.SeedMCPServers(ctx, st), "seed")
	want, err := seeddata.MCPServers()
	storetest.Must(t, err, "parse")

	first, err := st.ListMCPServers(ctx)
	storetest.Must(t, err, "list")
	if len(first) != len(want) {
		t.Fatalf("listed %d servers after seeding, want %d", len(first), len(want))
	}

	health := domain.MCPHealth{Status: domain.HealthAuthRequired, CheckedAt: "2026-11-22T12:00:00Z",
		LatencyMS: 80, Error: "the server requires sign-in"}
	storetest.Must(t, st.SaveMCPHealth(ctx, "com.notion--mcp", health), "health")
	// The sync took GitHub over and the registry deleted it since.
	gh, err := st.GetMCPServer(ctx, "io.github.github--github-mcp-server")
	storetest.Must(t, err, "get github")
	gh.Source, gh.IsActive = "registry", false
	storetest.Must(t, st.UpsertMCPServer(ctx, gh), "sync github")

	storetest.Must(t, seeddata.SeedMCPServers(ctx, st), "seed again")
	again, err := st.ListMCPServers(ctx)
	storetest.Must(t, err, "list again")
	if len(again) != len(want) {
		t.Fatalf("listed %d servers after seeding twice, want %d (one item per server)", len(again), len(want))
	}
	notion, err := st.GetMCPServer(ctx, "com.notion--mcp")
	storetest.Must(t, err, "get notion")
	if !reflect.DeepEqual(notion.Health, health) {
		t.Errorf("re-seeding changed health: %+v", notion.Health)
	}
	if !notion.OAuthRequired || notion.ModelType != "productivity" || notion.Source != seeddata.SourceSeed {
		t.Errorf("notion = %+v", notion)
	}
	if gh, _ := st.GetMCPServer(ctx, "io.github.github--github-mcp-server"); gh.IsActive || gh.Source != "registry" {
		t.Errorf("re-seeding took back an entry the sync owns: %+v", gh)
	}
}
