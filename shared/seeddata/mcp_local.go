package seeddata

import (
	"context"
	"errors"

	"aiwork/shared/domain"
	"aiwork/shared/store"
)

// LocalReferenceID is the catalogue id of the reference server that local
// runs start on loopback.
const LocalReferenceID = "local-everything"

// LocalReferenceServer is the catalogue entry for the MCP reference server
// (@modelcontextprotocol/server-everything) running locally at endpoint:
// anyone can connect to it with no network and no key.
func LocalReferenceServer(endpoint string) domain.MCPServer {
	return localEntry(endpoint, domain.MCPServer{
		ID:                LocalReferenceID,
		Name:              "local/everything",
		Title:             "Everything (local reference server)",
		Description:       "The MCP project's reference server, started on this machine by `make run`: echo, sums, images, prompts and resources to try every MCP feature. No key, no network.",
		SupportedFeatures: []string{"tools", "prompts", "resources", "logging", "completions"},
		WebsiteURL:        "https://github.com/modelcontextprotocol/servers/tree/main/src/everything",
		Repository:        "https://github.com/modelcontextprotocol/servers",
		Version:           "2026.8.31",
	})
}

// SetLocalReference lists the running reference server at endpoint, or,
// with an empty endpoint (it did not start), takes a stored entry out of the
// listing so nobody is offered a dead local port.
func SetLocalReference(ctx context.Context, st *store.Store, endpoint string) error {
	return setLocal(ctx, st, LocalReferenceID, endpoint, LocalReferenceServer)
}

// LocalOAuthExampleID is the catalogue id of the OAuth-protected example
// server that local runs start on loopback.
const LocalOAuthExampleID = "local-oauth-example"

// LocalOAuthExampleVersion is the version of @modelcontextprotocol/sdk that
// webapp/package.json pins, whose example server local runs start.
const LocalOAuthExampleVersion = "1.32.2"

// LocalOAuthExampleServer is the catalogue entry for the MCP TypeScript
// SDK's example server running locally at endpoint behind the SDK's demo
// OAuth authorization server, which approves every sign-in at once: the
// whole OAuth sign-in runs with no account and no network.
func LocalOAuthExampleServer(endpoint string) domain.MCPServer {
	return localEntry(endpoint, domain.MCPServer{
		ID:                LocalOAuthExampleID,
		Name:              "local/oauth-example",
		Title:             "OAuth example (local)",
		Description:       "The MCP TypeScript SDK's example server, started on this machine by `make run` behind the SDK's demo OAuth authorization server, which approves every sign-in at once (no account): try signing in with OAuth with no network. Local only.",
		OAuthRequired:     true,
		SupportedFeatures: []string{"tools"},
		WebsiteURL:        "https://www.npmjs.com/package/@modelcontextprotocol/sdk",
		Repository:        "https://github.com/modelcontextprotocol/typescript-sdk",
		Version:           LocalOAuthExampleVersion,
	})
}

// SetLocalOAuthExample lists the running OAuth example server at endpoint,
// or, with an empty endpoint (it did not start), takes a stored entry out of
// the listing, as SetLocalReference does.
func SetLocalOAuthExample(ctx context.Context, st *store.Store, endpoint string) error {
	return setLocal(ctx, st, LocalOAuthExampleID, endpoint, LocalOAuthExampleServer)
}

// LocalSignInOnCallID is the catalogue id of the example server that local
// runs start on loopback and that asks for sign-in only when a tool needs it.
const LocalSignInOnCallID = "local-signin-on-call"

// LocalSignInOnCallServer is the catalogue entry for the sign-in-on-call
// example (shared/local/localmcp) running locally at endpoint: connected
// with no key, like the reference server; its get-private-note asks for
// sign-in in the middle of a reply, at the demo authorization server, which
// approves at once.
func LocalSignInOnCallServer(endpoint string) domain.MCPServer {
	return localEntry(endpoint, domain.MCPServer{
		ID:                LocalSignInOnCallID,
		Name:              "local/signin-on-call",
		Title:             "Sign-in on call example (local)",
		Description:       "A small server started on this machine by `make run`: get-public-note needs no sign-in, get-private-note asks you to sign in (a demo page that approves at once, no account). Connect with no key; ask chat to use get-private-note and sign in when asked. Local only.",
		SupportedFeatures: []string{"tools"},
		WebsiteURL:        "https://github.com/modelcontextprotocol/go-sdk",
		Repository:        "https://github.com/modelcontextprotocol/go-sdk",
		Version:           "1.0.0",
	})
}

// SetLocalSignInOnCall lists the running sign-in-on-call example at
// endpoint, or, with an empty endpoint (it did not start), takes a stored
// entry out of the listing, as SetLocalReference does.
func SetLocalSignInOnCall(ctx context.Context, st *store.Store, endpoint string) error {
	return setLocal(ctx, st, LocalSignInOnCallID, endpoint, LocalSignInOnCallServer)
}

// LocalMCPAppID is the catalogue id of the MCP App example that local runs
// start: a server whose tool declares a view (MCP Apps) that chat renders
// under the tool block.
const LocalMCPAppID = "local-mcp-app"

// LocalMCPAppVersion is the version of
// @modelcontextprotocol/server-basic-react that webapp/package.json pins.
const LocalMCPAppVersion = "2.0.3"

// LocalMCPAppServer is the catalogue entry for the MCP project's React
// example app server (@modelcontextprotocol/server-basic-react) running
// locally at endpoint: connected with no key, like the reference server;
// its get-time tool declares a view (ui://get-time/mcp-app.html).
func LocalMCPAppServer(endpoint string) domain.MCPServer {
	return localEntry(endpoint, domain.MCPServer{
		ID:                LocalMCPAppID,
		Name:              "local/mcp-app",
		Title:             "MCP App example (local)",
		Description:       "The MCP project's example app server, started on this machine by `make run`: its get-time tool comes with a view the chat shows. Connect with no key; ask chat to use get-time: the server's view shows under the tool block. Local only.",
		SupportedFeatures: []string{"tools", "resources"},
		WebsiteURL:        "https://www.npmjs.com/package/@modelcontextprotocol/server-basic-react",
		Repository:        "https://github.com/modelcontextprotocol/ext-apps",
		Version:           LocalMCPAppVersion,
	})
}

// SetLocalMCPApp lists the running MCP App example at endpoint, or, with an
// empty endpoint (it did not start), takes a stored entry out of the
// listing, as SetLocalReference does.
func SetLocalMCPApp(ctx context.Context, st *store.Store, endpoint string) error {
	return setLocal(ctx, st, LocalMCPAppID, endpoint, LocalMCPAppServer)
}

// setLocal stores entry(endpoint) when endpoint is set, else deactivates the
// stored entry id, if any.
func setLocal(ctx context.Context, st *store.Store, id, endpoint string, entry func(string) domain.MCPServer) error {
	if endpoint != "" {
		return st.UpsertMCPServer(ctx, entry(endpoint))
	}
	err := st.SetMCPServerActive(ctx, id, false)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	return err
}

// localEntry is e, a server make run starts on this machine, listed at
// endpoint: streamable HTTP, active, marked local (the MCP project's
// examples and reference servers, shown with the reference type).
func localEntry(endpoint string, e domain.MCPServer) domain.MCPServer {
	e.EndpointURL, e.Transport, e.ModelType, e.IsActive, e.Source = endpoint, domain.TransportStreamableHTTP, "reference", true, "local"
	return e
}
