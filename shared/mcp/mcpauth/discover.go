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
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
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

// Discover finds how to sign in to the MCP server at endpoint: a request
// without a token refused with 401 (its challenge, or the well-known
// metadata, names the protected resource's metadata), or, for a server
// that answers without a token, well-known metadata it publishes. That
// metadata names the authorization server, whose metadata must offer PKCE
// S256. A server that refuses without a token but publishes no Protected
// Resource Metadata is signed in to as the 2025-03-26 revision says
// (legacy).
func Discover(ctx context.Context, hc *http.Client, endpoint string) (Server, error) {
	challenges, err := challenge(ctx, hc, endpoint)
	if open, ok := err.(*notChallenged); ok {
		// A server may let a connection and its tool list through without
		// a token and ask for sign-in only when one tool is called: its
		// well-known metadata says how to sign in all the same.
		return discoverUnchallenged(ctx, hc, endpoint, open)
	}
	if err != nil {
		return Server{}, err
	}
	return discover(ctx, hc, endpoint, challenges)
}

// discoverUnchallenged is discovery for a server that answered without a
// token: only one that publishes Protected Resource Metadata signs users
// in (the 2025-03-26 fallback would guess an authorization server for
// any server at all).
func discoverUnchallenged(ctx context.Context, hc *http.Client, endpoint string, open *notChallenged) (Server, error) {
	if _, err := resourceMetadata(ctx, hc, endpoint, nil); err != nil {
		if errors.Is(err, errNoResourceMetadata) {
			return Server{}, fail("%s", open.Error())
		}
		return Server{}, err
	}
	return discover(ctx, hc, endpoint, nil)
}

func discover(ctx context.Context, hc *http.Client, endpoint string, challenges []oauthex.Challenge) (Server, error) {
	prm, err := resourceMetadata(ctx, hc, endpoint, challenges)
	if errors.Is(err, errNoResourceMetadata) {
		return legacy(ctx, hc, endpoint, challenges)
	}
	if err != nil {
		return Server{}, err
	}
	if len(prm.AuthorizationServers) == 0 {
		return Server{}, fail("The server names no authorization server to sign in with.")
	}
	asm, err := authServer(ctx, hc, prm.AuthorizationServers[0])
	if err != nil {
		return Server{}, err
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

// legacy is the 2025-03-26 discovery, for a server with no Protected
// Resource Metadata: the authorization server is at the MCP server's
// origin, and the resource is the endpoint.
func legacy(ctx context.Context, hc *http.Client, endpoint string, challenges []oauthex.Challenge) (Server, error) {
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" {
		return Server{}, fail("The endpoint URL is not valid.")
	}
	origin := u.Scheme + "://" + u.Host
	asm, err := authServer(ctx, hc, origin)
	if err != nil {
		return Server{}, err
	}
	s := Server{Resource: endpoint, Auth: asm, Scopes: scopeOf(challenges)}
	if s.Scopes == nil {
		s.Scopes = asm.ScopesSupported
	}
	return s, nil
}

// authServer reads the metadata of the authorization server at issuer
// (RFC 8414, then OpenID Connect discovery). One that publishes none has
// the default endpoints /authorize, /token and /register under it, as the
// 2025-03-26 revision says (PKCE is sent to it all the same).
func authServer(ctx context.Context, hc *http.Client, issuer string) (*oauthex.AuthServerMeta, error) {
	asm, err := sdkauth.GetAuthServerMetadata(ctx, issuer, hc)
	if err != nil {
		return nil, failed(err, "The server's authorization server could not be read (%s at %s).", why(err), shownURL(issuer))
	}
	if asm == nil {
		base := strings.TrimSuffix(issuer, "/")
		return &oauthex.AuthServerMeta{Issuer: issuer, AuthorizationEndpoint: base + "/authorize", TokenEndpoint: base + "/token",
			RegistrationEndpoint: base + "/register", CodeChallengeMethodsSupported: []string{"S256"}}, nil
	}
	if !slices.Contains(asm.CodeChallengeMethodsSupported, "S256") {
		return nil, fail("The server's authorization server does not offer PKCE with S256, which sign-in requires.")
	}
	return asm, nil
}

// probes are what a request without a token asks, in turn, until one is
// refused with 401: initialize, then server/discover (a 2026-07-28 server
// may answer initialize but not discovery without a token).
var probes = []struct{ version, body string }{
	{"", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"aiwork-mcp-registry","version":"1.0.0"}}}`},
	{"2026-07-28", `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`},
}

// challenge sends requests without a token; a server that signs users in
// answers 401 (its WWW-Authenticate challenges, possibly none).
func challenge(ctx context.Context, hc *http.Client, endpoint string) ([]oauthex.Challenge, error) {
	status := 0
	for _, p := range probes {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewBufferString(p.body))
		if err != nil {
			return nil, fail("The endpoint URL is not valid.")
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if p.version != "" {
			req.Header.Set("MCP-Protocol-Version", p.version)
		}
		res, err := hc.Do(req)
		if err != nil {
			return nil, failed(err, "The server could not be reached: %s.", why(err))
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
		res.Body.Close()
		if res.StatusCode == http.StatusUnauthorized {
			cs, err := oauthex.ParseWWWAuthenticate(res.Header.Values("WWW-Authenticate"))
			if err != nil {
				return nil, fail("The server's sign-in challenge is malformed.")
			}
			return cs, nil
		}
		if status == 0 || res.StatusCode/100 == 2 {
			status = res.StatusCode
		}
	}
	return nil, &notChallenged{status: status}
}

// notChallenged: every probe was answered without a 401.
type notChallenged struct{ status int }

func (e *notChallenged) Error() string {
	return fmt.Sprintf("The server does not ask for sign-in (it answered %d without a token).", e.status)
}

// errNoResourceMetadata: no well-known Protected Resource Metadata URL
// answered (each a 4xx): the server predates RFC 9728.
var errNoResourceMetadata = errors.New("no protected resource metadata")

// resourceMetadata reads the Protected Resource Metadata: at the
// challenge's resource_metadata, else the well-known URLs, path-aware
// first (RFC 9728 §3, the MCP spec's order). Its resource must be the
// endpoint or cover it (resourceCovers).
func resourceMetadata(ctx context.Context, hc *http.Client, endpoint string, cs []oauthex.Challenge) (*oauthex.ProtectedResourceMetadata, error) {
	var urls []string
	named := param(cs, "resource_metadata")
	if named != "" {
		urls = []string{named}
	} else {
		urls = wellKnownPRM(endpoint)
	}
	var last error
	lastURL, absent := "", named == ""
	for _, u := range urls {
		for _, resource := range resourceCandidates(endpoint) {
			prm, err := oauthex.GetProtectedResourceMetadata(ctx, u, resource, hc)
			if got, ok := otherResource(err); ok && resourceCovers(got, endpoint) {
				prm, err = oauthex.GetProtectedResourceMetadata(ctx, u, got, hc)
			}
			if err == nil {
				return prm, nil
			}
			last, lastURL = err, u
			if m := badStatus.FindStringSubmatch(err.Error()); m == nil || m[1][0] != '4' {
				absent = false
			}
		}
	}
	if last == nil {
		return nil, fail("The server's sign-in metadata could not be read: the endpoint URL is not valid.")
	}
	if absent {
		return nil, errNoResourceMetadata
	}
	return nil, failed(last, "The server's sign-in metadata could not be read (%s at %s).", why(last), shownURL(lastURL))
}

// mismatch is oauthex's refusal of a metadata document naming another
// resource than the one asked for (its text is all it gives).
var mismatch = regexp.MustCompile(`got metadata resource ("(?:[^"\\]|\\.)*")`)

// otherResource is the resource a refused metadata document named.
func otherResource(err error) (string, bool) {
	if err == nil {
		return "", false
	}
	m := mismatch.FindStringSubmatch(err.Error())
	if m == nil {
		return "", false
	}
	got, uerr := strconv.Unquote(m[1])
	return got, uerr == nil && got != ""
}

// resourceCovers reports whether resource names the MCP server at
// endpoint: the same scheme and host, and a path that is the endpoint's or
// one of its parents (a server's metadata may name its origin, RFC 9728's
// root document, as the resource of every endpoint under it). Another
// host, a sibling path or a query is another resource.
func resourceCovers(resource, endpoint string) bool {
	r, err1 := url.Parse(resource)
	e, err2 := url.Parse(endpoint)
	if err1 != nil || err2 != nil || r.RawQuery != "" || r.Fragment != "" || r.User != nil ||
		!strings.EqualFold(r.Scheme, e.Scheme) || !strings.EqualFold(r.Host, e.Host) {
		return false
	}
	rp, ep := strings.TrimSuffix(r.EscapedPath(), "/"), strings.TrimSuffix(e.EscapedPath(), "/")
	return rp == "" || rp == ep || strings.HasPrefix(ep, rp+"/")
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
