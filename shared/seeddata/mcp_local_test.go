package seeddata_test

import (
	"slices"
	"testing"

	"aiwork/shared/domain"
	"aiwork/shared/mcp/registry"
	"aiwork/shared/seeddata"
	"aiwork/shared/store/storetest"
)

// The OAuth example is listed as an OAuth server while it runs, and taken
// out of the listing when a later run does not start it.
func TestSetLocalOAuthExample(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	storetest.Must(t, seeddata.SetLocalOAuthExample(ctx, st, ""), "unset on an empty table")

	const endpoint = "http://localhost:4567/mcp"
	storetest.Must(t, seeddata.SetLocalOAuthExample(ctx, st, endpoint), "set")
	storetest.Must(t, seeddata.SetLocalReference(ctx, st, "http://127.0.0.1:4568/mcp"), "set reference")
	listed, err := st.ListMCPServers(ctx)
	storetest.Must(t, err, "list")
	i := slices.IndexFunc(listed, func(s domain.MCPServer) bool { return s.ID == seeddata.LocalOAuthExampleID })
	if len(listed) != 2 || i < 0 {
		t.Fatalf("listed %+v, want the OAuth example beside the reference server", listed)
	}
	got := listed[i]
	if got.Title != "OAuth example (local)" || got.EndpointURL != endpoint || !got.OAuthRequired || got.APIKeyRequired ||
		!got.IsActive || got.Transport != domain.TransportStreamableHTTP || got.Source != "local" ||
		!slices.Contains(registry.ModelTypes, got.ModelType) || !slices.Equal(got.SupportedFeatures, []string{"tools"}) {
		t.Errorf("OAuth example entry = %+v", got)
	}

	storetest.Must(t, seeddata.SetLocalOAuthExample(ctx, st, ""), "unset")
	got, err = st.GetMCPServer(ctx, seeddata.LocalOAuthExampleID)
	storetest.Must(t, err, "get")
	if got.IsActive {
		t.Error("the OAuth example stays listed after a run that did not start it")
	}
	if ref, err := st.GetMCPServer(ctx, seeddata.LocalReferenceID); err != nil || !ref.IsActive {
		t.Errorf("unsetting the OAuth example touched the reference server: %+v %v", ref, err)
	}
}
