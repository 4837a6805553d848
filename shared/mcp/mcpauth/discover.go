// Package mcpauth signs a user in to an OAuth-protected MCP server as the
// MCP authorization specification (revision 2025-11-25) says, as a
// server-side web client: discovery (the 401's WWW-Authenticate challenge,
// else the well-known Protected Resource Metadata, RFC 9728; then the
// authorization server's metadata, RFC 8414 and OpenID Connect), the
// client's identity (a Client ID Metadata Document, else Dynamic Client
// Registration, RFC 7591, else a configured client id), the authorization
// code with PKCE S256 and the resource indicator (RFC 8707), refresh and
// revocation (RFC 7009). The go-sdk's oauthex does the metadata fetching
// and validation and x/oauth2 the code exchange and refresh; what they lack
// (the split of the flow across two requests, the probe for the challenge,
// the PRM URL order, revocation) is here. Every request goes through the
// caller's client: the outbound rules (mcp.Policy) apply to each URL the
// flow follows.
package mcpauth

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// Server is what discovery learnt about signing in to one MCP server.
type Server struct {
	// Resource is the MCP server's canonical URI, sent as the resource
	// parameter and bound into its tokens.
	Resource string
	// Scopes to ask for: the challenge's, else the resource's, else the
	// authorization server's.
	Scopes []string
	Auth   *oauthex.AuthServerMeta
}

// Error is a failure the user is told as it is: Detail is a sentence in
// the product's words (no secret, no Go error text); the cause is kept for
// logs through Unwrap.
type Error struct {
	Detail string
	cause  error
}

func (e *Error) Error() string { return e.Detail }

// Unwrap is the underlying failure, for logs.
func (e *Error) Unwrap() error { return e.cause }

func fail(format string, args ...any) error { return &Error{Detail: fmt.Sprintf(format, args...)} }

// Discover finds how to sign in to the MCP server at endpoint: an
// unauthenticated initialize must be refused with 401; its challenge (or
// the well-known metadata) names the protected resource's metadata, which
// names the authorization server, whose metadata must offer PKCE S256.
func Discover(ctx context.Context, hc *http.Client, endpoint string) (Server, error) {
	challenges, err := challenge(ctx, hc, endpoint)
	if err != nil {
		return Server{}, err
	}
	prm, err := resourceMetadata(ctx, hc, endpoint, challenges)
	if err != nil {
		return Server{}, err
	}
	if len(prm.AuthorizationServers) == 0 {
		return Server{}, fail("The server names no authorization server to sign in with.")
	}
	asm, err := sdkauth.GetAuthServerMetadata(ctx, prm.AuthorizationServers[0], hc)
	if err != nil {
		return Server{}, failed(err, "The server's authorization server could not be read (%s at %s).", why(err), shownURL(prm.AuthorizationServers[0]))
	}
	if asm == nil {
		return Server{}, fail("The server's authorization server publishes no metadata.")
	}
	if !slices.Contains(asm.CodeChallengeMethodsSupported, "S256") {
		return Server{}, fail("The server's authorization server does not offer PKCE with S256, which sign-in requires.")
	}
	s := Server{Resource: prm.Resource, Auth: asm}
	switch {
	case scopeOf(challenges) != nil:
		s.Scopes = scopeOf(challenges)
	case len(prm.ScopesSupported) > 0:
		s.Scopes = prm.ScopesSupported
	default:
		s.Scopes = asm.ScopesSupported
	}
	return s, nil
}

// challenge sends an initialize without a token; a server that signs users
// in answers 401 (its WWW-Authenticate challenges, possibly none).
func challenge(ctx context.Context, hc *http.Client, endpoint string) ([]oauthex.Challenge, error) {
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"aiwork-mcp-registry","version":"1.0.0"}}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewBufferString(body))
	if err != nil {
		return nil, fail("The endpoint URL is not valid.")
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := hc.Do(req)
	if err != nil {
		return nil, failed(err, "The server could not be reached: %s.", why(err))
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	if res.StatusCode != http.StatusUnauthorized {
		return nil, fail("The server does not ask for sign-in (it answered %d without a token).", res.StatusCode)
	}
	cs, err := oauthex.ParseWWWAuthenticate(res.Header.Values("WWW-Authenticate"))
	if err != nil {
		return nil, fail("The server's sign-in challenge is malformed.")
	}
	return cs, nil
}

// resourceMetadata reads the Protected Resource Metadata: at the
// challenge's resource_metadata, else the well-known URLs, path-aware
// first (RFC 9728 §3, the MCP spec's order).
func resourceMetadata(ctx context.Context, hc *http.Client, endpoint string, cs []oauthex.Challenge) (*oauthex.ProtectedResourceMetadata, error) {
	var urls []string
	if u := param(cs, "resource_metadata"); u != "" {
		urls = []string{u}
	} else {
		urls = wellKnownPRM(endpoint)
	}
	var last error
	lastURL := ""
	for _, u := range urls {
		for _, resource := range resourceCandidates(endpoint) {
			prm, err := oauthex.GetProtectedResourceMetadata(ctx, u, resource, hc)
			if err == nil {
				return prm, nil
			}
			last, lastURL = err, u
		}
	}
	if last == nil {
		return nil, fail("The server's sign-in metadata could not be read: the endpoint URL is not valid.")
	}
	return nil, failed(last, "The server's sign-in metadata could not be read (%s at %s).", why(last), shownURL(lastURL))
}

// wellKnownPRM answers the well-known Protected Resource Metadata URLs of
// endpoint: with its path inserted, then at the root.
func wellKnownPRM(endpoint string) []string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return nil
	}
	root := *u
	root.Path, root.RawQuery, root.Fragment = "/.well-known/oauth-protected-resource", "", ""
	if p := strings.Trim(u.Path, "/"); p != "" {
		withPath := root
		withPath.Path += "/" + p
		return []string{withPath.String(), root.String()}
	}
	return []string{root.String()}
}

// resourceCandidates are the forms a server may give its resource as: the
// endpoint itself, then without a trailing slash.
func resourceCandidates(endpoint string) []string {
	out := []string{endpoint}
	if t := strings.TrimSuffix(endpoint, "/"); t != endpoint {
		out = append(out, t)
	}
	return out
}

func param(cs []oauthex.Challenge, name string) string {
	for _, c := range cs {
		if c.Scheme == "bearer" && c.Params[name] != "" {
			return c.Params[name]
		}
	}
	return ""
}

func scopeOf(cs []oauthex.Challenge) []string {
	if s := param(cs, "scope"); s != "" {
		return strings.Fields(s)
	}
	return nil
}
