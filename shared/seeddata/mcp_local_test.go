package seeddata_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"aiwork/shared/domain"
	"aiwork/shared/mcp/registry"
	"aiwork/shared/seeddata"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

type setLocal func(context.Context, *store.Store, string) error

// Each local example is listed while it runs (as a local streamable-HTTP
// server, saying what to try), beside another one, and taken out of the
// listing when a later run does not start it, leaving the other listed.
func TestSetLocalExamples(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, id, title, endpoint string
		set                       setLocal
		besideID, besideEndpoint  string
		beside                    setLocal
		oauth                     bool
		features                  []string
		says, version             string
	}{
		{name: "OAuth example", id: seeddata.LocalOAuthExampleID, title: "OAuth example (local)", endpoint: "http://localhost:4567/mcp",
			set: seeddata.SetLocalOAuthExample, besideID: seeddata.LocalReferenceID, besideEndpoint: "http://127.0.0.1:4568/mcp",
			beside: seeddata.SetLocalReference, oauth: true, features: []string{"tools"}},
		{name: "sign-in-on-call example", id: "local-signin-on-call", title: "Sign-in on call example (local)", endpoint: "http://localhost:4569/mcp",
			set: seeddata.SetLocalSignInOnCall, besideID: seeddata.LocalOAuthExampleID, besideEndpoint: "http://localhost:4567/mcp",
			beside: seeddata.SetLocalOAuthExample, features: []string{"tools"},
			says: "Connect with no key; ask chat to use get-private-note and sign in when asked."},
		{name: "MCP App example", id: "local-mcp-app", title: "MCP App example (local)", endpoint: "http://127.0.0.1:4570/mcp",
			set: seeddata.SetLocalMCPApp, besideID: seeddata.LocalReferenceID, besideEndpoint: "http://127.0.0.1:4568/mcp",
			beside: seeddata.SetLocalReference, version: "2.0.3",
			says: "Connect with no key; ask chat to use get-time: the server's view shows under the tool block."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			st := storetest.New(t)
			storetest.Must(t, c.set(ctx, st, ""), "unset on an empty table")
			storetest.Must(t, c.set(ctx, st, c.endpoint), "set")
			storetest.Must(t, c.beside(ctx, st, c.besideEndpoint), "set the other")
			listed, err := st.ListMCPServers(ctx)
			storetest.Must(t, err, "list")
			i := slices.IndexFunc(listed, func(s domain.MCPServer) bool { return s.ID == c.id })
			if len(listed) != 2 || i < 0 {
				t.Fatalf("listed %+v, want the %s beside %s", listed, c.name, c.besideID)
			}
			got := listed[i]
			if got.Title != c.title || got.EndpointURL != c.endpoint || got.OAuthRequired != c.oauth || got.APIKeyRequired ||
				!got.IsActive || got.Transport != domain.TransportStreamableHTTP || got.Source != "local" ||
				!slices.Contains(registry.ModelTypes, got.ModelType) || !slices.Contains(got.SupportedFeatures, "tools") ||
				(c.features != nil && !slices.Equal(got.SupportedFeatures, c.features)) ||
				(c.version != "" && got.Version != c.version) || !strings.Contains(got.Description, c.says) {
				t.Errorf("%s entry = %+v", c.name, got)
			}

			storetest.Must(t, c.set(ctx, st, ""), "unset")
			got, err = st.GetMCPServer(ctx, c.id)
			storetest.Must(t, err, "get")
			if got.IsActive {
				t.Errorf("the %s stays listed after a run that did not start it", c.name)
			}
			if other, err := st.GetMCPServer(ctx, c.besideID); err != nil || !other.IsActive {
				t.Errorf("unsetting the %s touched %s: %+v %v", c.name, c.besideID, other, err)
			}
		})
	}
}
