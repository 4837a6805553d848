package seeddata_test

import (
	"slices"
	"strings"
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

// The sign-in-on-call example is listed as a keyless server connected like
// the reference server (no OAuth at connect: only a tool asks for sign-in)
// while it runs, and taken out of the listing when a later run does not
// start it.
func TestSetLocalSignInOnCall(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	storetest.Must(t, seeddata.SetLocalSignInOnCall(ctx, st, ""), "unset on an empty table")

	const endpoint = "http://localhost:4569/mcp"
	storetest.Must(t, seeddata.SetLocalSignInOnCall(ctx, st, endpoint), "set")
	storetest.Must(t, seeddata.SetLocalOAuthExample(ctx, st, "http://localhost:4567/mcp"), "set OAuth example")
	listed, err := st.ListMCPServers(ctx)
	storetest.Must(t, err, "list")
	i := slices.IndexFunc(listed, func(s domain.MCPServer) bool { return s.ID == seeddata.LocalSignInOnCallID })
	if len(listed) != 2 || i < 0 {
		t.Fatalf("listed %+v, want the sign-in-on-call example beside the OAuth example", listed)
	}
	got := listed[i]
	if got.ID != "local-signin-on-call" || got.Title != "Sign-in on call example (local)" || got.EndpointURL != endpoint ||
		got.OAuthRequired || got.APIKeyRequired || !got.IsActive || got.Transport != domain.TransportStreamableHTTP ||
		got.Source != "local" || !slices.Contains(registry.ModelTypes, got.ModelType) ||
		!slices.Equal(got.SupportedFeatures, []string{"tools"}) ||
		!strings.Contains(got.Description, "Connect with no key; ask chat to use get-private-note and sign in when asked.") {
		t.Errorf("sign-in-on-call entry = %+v", got)
	}

	storetest.Must(t, seeddata.SetLocalSignInOnCall(ctx, st, ""), "unset")
	got, err = st.GetMCPServer(ctx, seeddata.LocalSignInOnCallID)
	storetest.Must(t, err, "get")
	if got.IsActive {
		t.Error("the sign-in-on-call example stays listed after a run that did not start it")
	}
	if oauth, err := st.GetMCPServer(ctx, seeddata.LocalOAuthExampleID); err != nil || !oauth.IsActive {
		t.Errorf("unsetting the sign-in-on-call example touched the OAuth example: %+v %v", oauth, err)
	}
}

// The MCP App example is listed as a keyless server connected like the
// reference server while it runs, saying what to try, and taken out of the
// listing when a later run does not start it.
func TestSetLocalMCPApp(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	storetest.Must(t, seeddata.SetLocalMCPApp(ctx, st, ""), "unset on an empty table")

	const endpoint = "http://127.0.0.1:4570/mcp"
	storetest.Must(t, seeddata.SetLocalMCPApp(ctx, st, endpoint), "set")
	storetest.Must(t, seeddata.SetLocalReference(ctx, st, "http://127.0.0.1:4568/mcp"), "set reference")
	listed, err := st.ListMCPServers(ctx)
	storetest.Must(t, err, "list")
	i := slices.IndexFunc(listed, func(s domain.MCPServer) bool { return s.ID == seeddata.LocalMCPAppID })
	if len(listed) != 2 || i < 0 {
		t.Fatalf("listed %+v, want the MCP App example beside the reference server", listed)
	}
	got := listed[i]
	if got.ID != "local-mcp-app" || got.Title != "MCP App example (local)" || got.EndpointURL != endpoint ||
		got.OAuthRequired || got.APIKeyRequired || !got.IsActive || got.Transport != domain.TransportStreamableHTTP ||
		got.Source != "local" || !slices.Contains(registry.ModelTypes, got.ModelType) ||
		!slices.Contains(got.SupportedFeatures, "tools") || got.Version != "2.0.3" ||
		!strings.Contains(got.Description, "Connect with no key; ask chat to use get-time: the server's view shows under the tool block.") {
		t.Errorf("MCP App example entry = %+v", got)
	}

	storetest.Must(t, seeddata.SetLocalMCPApp(ctx, st, ""), "unset")
	got, err = st.GetMCPServer(ctx, seeddata.LocalMCPAppID)
	storetest.Must(t, err, "get")
	if got.IsActive {
		t.Error("the MCP App example stays listed after a run that did not start it")
	}
	if ref, err := st.GetMCPServer(ctx, seeddata.LocalReferenceID); err != nil || !ref.IsActive {
		t.Errorf("unsetting the MCP App example touched the reference server: %+v %v", ref, err)
	}
}
