package mcpauth_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"aiwork/shared/mcp"
	"aiwork/shared/mcp/mcpauth"
)

// resource is an in-process OAuth-protected MCP endpoint (/mcp) and its
// authorization server, each branch of discovery set by its fields.
type resource struct {
	challenge string                      // the 401's WWW-Authenticate ("" none); RESOURCE_METADATA is replaced
	prmAt     []string                    // paths that serve the Protected Resource Metadata
	prm       func() (string, []byte)     // content type and body of the PRM (default: valid)
	asMetaAt  string                      // where the AS serves its metadata
	asMeta    map[string]any              // extra or overriding AS metadata fields
	register  func(w http.ResponseWriter) // the registration endpoint's answer (nil: none offered)
	status    int                         // the unauthenticated initialize's status (default 401)
	// discoverStatus is the status of a server/discover without a token
	// (default: status).
	discoverStatus int
	// prmResource is the PRM's resource: a path is on the MCP server's
	// origin, "" the endpoint.
	prmResource string
	// legacyAS serves the AS metadata at the MCP server's own origin, with
	// it as the issuer (the 2025-03-26 layout).
	legacyAS bool

	mcpSrv, asSrv *httptest.Server
	registered    atomic.Int32
}

func (r *resource) endpoint() string { return r.mcpSrv.URL + "/mcp" }

func (r *resource) start(t *testing.T) *resource {
	t.Helper()
	r.asSrv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		switch req.URL.Path {
		case r.asMetaAt:
			meta := map[string]any{"issuer": r.asSrv.URL, "authorization_endpoint": r.asSrv.URL + "/authorize", "token_endpoint": r.asSrv.URL + "/token",
				"response_types_supported": []string{"code"}, "code_challenge_methods_supported": []string{"S256"}, "scopes_supported": []string{"as-scope"}}
			if r.register != nil {
				meta["registration_endpoint"] = r.asSrv.URL + "/register"
			}
			for k, v := range r.asMeta {
				meta[k] = v
			}
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(meta)
		case "/register":
			r.registered.Add(1)
			r.register(w)
		default:
			http.NotFound(w, req)
		}
	}))
	t.Cleanup(r.asSrv.Close)
	r.mcpSrv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if r.legacyAS && req.URL.Path == "/.well-known/oauth-authorization-server" {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"issuer": r.mcpSrv.URL, "authorization_endpoint": r.mcpSrv.URL + "/oauth/authorize",
				"token_endpoint": r.mcpSrv.URL + "/oauth/token", "registration_endpoint": r.mcpSrv.URL + "/oauth/register",
				"response_types_supported": []string{"code"}, "code_challenge_methods_supported": []string{"S256"}})
			return
		}
		for _, p := range r.prmAt {
			if req.URL.Path == p {
				resource := r.endpoint()
				switch {
				case strings.HasPrefix(r.prmResource, "/"):
					resource = r.mcpSrv.URL + r.prmResource
				case r.prmResource != "":
					resource = r.prmResource
				}
				ct, body := "application/json", []byte(`{"resource":"`+resource+`","authorization_servers":["`+r.asSrv.URL+`"],"scopes_supported":["prm-scope"]}`)
				if r.prm != nil {
					ct, body = r.prm()
				}
				w.Header().Set("Content-Type", ct)
				_, _ = w.Write(body)
				return
			}
		}
		if req.URL.Path == "/mcp" {
			if r.challenge != "" {
				w.Header().Set("WWW-Authenticate", strings.ReplaceAll(r.challenge, "RESOURCE_METADATA", r.mcpSrv.URL+"/custom-prm"))
			}
			status := r.status
			if status == 0 {
				status = http.StatusUnauthorized
			}
			if r.discoverStatus != 0 && req.Header.Get("MCP-Protocol-Version") == "2026-07-28" {
				status = r.discoverStatus
			}
			w.WriteHeader(status)
			return
		}
		http.NotFound(w, req)
	}))
	t.Cleanup(r.mcpSrv.Close)
	return r
}

var loopback = mcp.Policy{AllowLoopback: true}.Client()

func discoverFails(t *testing.T, hc *http.Client, r *resource, want string) {
	t.Helper()
	_, err := mcpauth.Discover(context.Background(), hc, r.endpoint())
	var ue *mcpauth.Error
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Discover error = %v, want one saying %q", err, want)
	} else if !asUserError(err, &ue) {
		t.Errorf("Discover error %T is not a user-facing *mcpauth.Error", err)
	}
}

func asUserError(err error, target **mcpauth.Error) bool {
	e, ok := err.(*mcpauth.Error)
	*target = e
	return ok
}

// TestDiscoverBranches: the challenge's resource_metadata and scope; else
// the well-known PRM with the endpoint's path, else at the root (scopes from
// the PRM); the AS metadata by RFC 8414 or OpenID Connect discovery.
func TestDiscoverBranches(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		r         *resource
		wantScope string
	}{
		{"challenge names the metadata and the scope", &resource{challenge: `Bearer resource_metadata="RESOURCE_METADATA", scope="files:read"`,
			prmAt: []string{"/custom-prm"}, asMetaAt: "/.well-known/oauth-authorization-server"}, "files:read"},
		{"no challenge: path-aware well-known", &resource{prmAt: []string{"/.well-known/oauth-protected-resource/mcp"},
			asMetaAt: "/.well-known/oauth-authorization-server"}, "prm-scope"},
		{"no challenge: root well-known", &resource{challenge: `Bearer realm="x"`, prmAt: []string{"/.well-known/oauth-protected-resource"},
			asMetaAt: "/.well-known/oauth-authorization-server"}, "prm-scope"},
		{"OpenID Connect discovery", &resource{prmAt: []string{"/.well-known/oauth-protected-resource"},
			asMetaAt: "/.well-known/openid-configuration"}, "prm-scope"},
		{"initialize answered, discovery refused", &resource{status: http.StatusBadRequest, discoverStatus: http.StatusUnauthorized,
			prmAt: []string{"/.well-known/oauth-protected-resource/mcp"}, asMetaAt: "/.well-known/oauth-authorization-server"}, "prm-scope"},
		// A server that asks for sign-in only when a tool is called.
		{"no 401 at all, well-known metadata", &resource{status: http.StatusOK,
			prmAt: []string{"/.well-known/oauth-protected-resource/mcp"}, asMetaAt: "/.well-known/oauth-authorization-server"}, "prm-scope"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := tc.r.start(t)
			srv, err := mcpauth.Discover(context.Background(), loopback, r.endpoint())
			if err != nil {
				t.Fatal(err)
			}
			if srv.Resource != r.endpoint() || srv.Auth.TokenEndpoint != r.asSrv.URL+"/token" || strings.Join(srv.Scopes, " ") != tc.wantScope {
				t.Errorf("discovered resource %q, token %q, scopes %q; want %q, %q, %q", srv.Resource, srv.Auth.TokenEndpoint, srv.Scopes,
					r.endpoint(), r.asSrv.URL+"/token", tc.wantScope)
			}
		})
	}
}

// TestDiscoverResourceCoveringTheEndpoint: metadata at the root may name
// the server's origin (or a parent path of the endpoint) as its resource;
// that resource is the one signed in for.
func TestDiscoverResourceCoveringTheEndpoint(t *testing.T) {
	t.Parallel()
	for _, named := range []string{"", "/"} {
		r := (&resource{prmAt: []string{"/.well-known/oauth-protected-resource"}, asMetaAt: "/.well-known/oauth-authorization-server",
			prmResource: named}).start(t)
		if named == "" {
			r.prmResource = r.mcpSrv.URL // the origin, as written without a slash
		}
		srv, err := mcpauth.Discover(context.Background(), loopback, r.endpoint())
		if err != nil {
			t.Fatalf("resource %q: %v", r.prmResource, err)
		}
		if want := r.mcpSrv.URL + named; srv.Resource != want {
			t.Errorf("resource = %q, want %q (the metadata's)", srv.Resource, want)
		}
	}
}

// TestDiscoverLegacy: a server with no Protected Resource Metadata is
// signed in to as the 2025-03-26 revision says: the authorization server's
// metadata at the MCP server's origin, else its default endpoints there;
// the resource is the endpoint.
func TestDiscoverLegacy(t *testing.T) {
	t.Parallel()
	r := (&resource{legacyAS: true}).start(t)
	srv, err := mcpauth.Discover(context.Background(), loopback, r.endpoint())
	if err != nil {
		t.Fatal(err)
	}
	if srv.Resource != r.endpoint() || srv.Auth.Issuer != r.mcpSrv.URL || srv.Auth.TokenEndpoint != r.mcpSrv.URL+"/oauth/token" {
		t.Errorf("metadata at the origin: resource %q, issuer %q, token %q", srv.Resource, srv.Auth.Issuer, srv.Auth.TokenEndpoint)
	}
	r = (&resource{}).start(t)
	srv, err = mcpauth.Discover(context.Background(), loopback, r.endpoint())
	if err != nil {
		t.Fatal(err)
	}
	o := r.mcpSrv.URL
	if a := srv.Auth; a.AuthorizationEndpoint != o+"/authorize" || a.TokenEndpoint != o+"/token" || a.RegistrationEndpoint != o+"/register" || srv.Resource != r.endpoint() {
		t.Errorf("no metadata: %+v, resource %q; want the default endpoints at %s", a, srv.Resource, o)
	}
}

// TestDiscoverRefusals: each way a server can fail discovery is said in a
// sentence, and nothing past it is fetched.
func TestDiscoverRefusals(t *testing.T) {
	t.Parallel()
	wellKnown := []string{"/.well-known/oauth-protected-resource"}
	const asPath = "/.well-known/oauth-authorization-server"
	big := make([]byte, 2<<20)
	for i := range big {
		big[i] = ' '
	}
	cases := []struct {
		name string
		r    *resource
		want string
	}{
		{"no 401 and no metadata", &resource{status: http.StatusOK, asMetaAt: asPath}, "does not ask for sign-in"},
		{"no 401, metadata naming another server", &resource{status: http.StatusOK, prmAt: wellKnown, asMetaAt: asPath, prmResource: "/other"}, "names another server"},
		{"the challenge's metadata is missing", &resource{challenge: `Bearer resource_metadata="RESOURCE_METADATA"`, asMetaAt: asPath}, "sign-in metadata could not be read"},
		{"metadata names a sibling path", &resource{prmAt: wellKnown, asMetaAt: asPath, prmResource: "/other"}, "names another server"},
		{"metadata names another host", &resource{prmAt: wellKnown, asMetaAt: asPath, prmResource: "https://evil.example/mcp"}, "names another server"},
		{"metadata is HTML", &resource{prmAt: wellKnown, asMetaAt: asPath, prm: func() (string, []byte) {
			return "text/html", []byte("<!doctype html><p>Welcome")
		}}, "sign-in metadata could not be read"},
		{"metadata too large", &resource{prmAt: wellKnown, asMetaAt: asPath, prm: func() (string, []byte) {
			return "application/json", append(append([]byte(`{"resource":"x",`), big...), '}')
		}}, "sign-in metadata could not be read"},
		{"http authorization server on a public host", &resource{prmAt: wellKnown, asMetaAt: asPath}, "sign-in metadata could not be read"},
		{"no authorization server", &resource{prmAt: wellKnown, asMetaAt: asPath}, "names no authorization server"},
		{"no S256", &resource{prmAt: wellKnown, asMetaAt: asPath, asMeta: map[string]any{"code_challenge_methods_supported": []string{"plain"}}}, "PKCE with S256"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := tc.r
			switch tc.name {
			case "http authorization server on a public host", "no authorization server":
				r.prm = func() (string, []byte) {
					servers := `["http://auth.example.com/"]`
					if tc.name == "no authorization server" {
						servers = `[]`
					}
					return "application/json", []byte(`{"resource":"` + r.endpoint() + `","authorization_servers":` + servers + `}`)
				}
			}
			discoverFails(t, loopback, r.start(t), tc.want)
		})
	}
}

// TestDiscoverFollowsTheOutboundRules: a resource_metadata naming the
// cloud metadata address is refused by the outbound client, and said so.
func TestDiscoverFollowsTheOutboundRules(t *testing.T) {
	t.Parallel()
	var fetched atomic.Bool
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/mcp" {
			fetched.Store(true)
		}
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="https://169.254.169.254/latest/meta-data/"`)
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer ts.Close()
	_, err := mcpauth.Discover(context.Background(), loopback, ts.URL+"/mcp")
	if err == nil || !strings.Contains(err.Error(), "sign-in metadata could not be read") {
		t.Fatalf("Discover = %v, want the metadata refused", err)
	}
	if !strings.Contains(err.Error(), "non-public address") && !strings.Contains(err.Error(), "private") {
		t.Errorf("the refusal does not say why: %v", err)
	}
	if fetched.Load() {
		t.Error("something past the challenge was fetched from the server")
	}
}

type memRegistrations struct{ m map[string]mcpauth.Client }

func (g memRegistrations) OAuthClient(_ context.Context, key string) (mcpauth.Client, bool, error) {
	c, ok := g.m[key]
	return c, ok, nil
}

func (g memRegistrations) SaveOAuthClient(_ context.Context, key string, c mcpauth.Client) error {
	g.m[key] = c
	return nil
}

// TestClientFor: the metadata document when the AS takes one and the site
// is on https; else one registration per AS, reused; a refused
// registration and a server without registration say so; an operator's
// client id is used when nothing else is offered.
func TestClientFor(t *testing.T) {
	t.Parallel()
	ok := func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"client_id":"registered-1","redirect_uris":["https://site.example/api/v1/mcp-oauth/callback"]}`))
	}
	refused := func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"error":"invalid_client_metadata"}`))
	}
	discover := func(r *resource) mcpauth.Server {
		r.prmAt, r.asMetaAt = []string{"/.well-known/oauth-protected-resource"}, "/.well-known/oauth-authorization-server"
		srv, err := mcpauth.Discover(context.Background(), loopback, r.start(t).endpoint())
		if err != nil {
			t.Fatal(err)
		}
		return srv
	}
	id := func(metadataURL string) mcpauth.Identity {
		return mcpauth.Identity{MetadataURL: metadataURL, RedirectURL: "https://site.example/api/v1/mcp-oauth/callback", ClientName: "Test",
			Registrations: memRegistrations{m: map[string]mcpauth.Client{}}}
	}
	ctx := context.Background()

	cimd := &resource{register: ok, asMeta: map[string]any{"client_id_metadata_document_supported": true}}
	srv := discover(cimd)
	if c, err := id("https://site.example/api/v1/mcp-oauth/client-metadata.json").ClientFor(ctx, loopback, srv, mcpauth.Client{}, "S"); err != nil || c.ID != "https://site.example/api/v1/mcp-oauth/client-metadata.json" {
		t.Errorf("metadata document: %+v %v", c, err)
	}
	if c, err := id("").ClientFor(ctx, loopback, srv, mcpauth.Client{}, "S"); err != nil || c.ID != "registered-1" {
		t.Errorf("no https site: want the registration, got %+v %v", c, err)
	}

	reg := &resource{register: ok}
	srv = discover(reg)
	site := id("")
	for range 3 {
		if c, err := site.ClientFor(ctx, loopback, srv, mcpauth.Client{}, "S"); err != nil || c.ID != "registered-1" || c.Method != "none" {
			t.Fatalf("registration: %+v %v", c, err)
		}
	}
	if n := reg.registered.Load(); n != 1 {
		t.Errorf("%d registrations for three sign-ins, want 1", n)
	}

	srv = discover(&resource{register: refused})
	if _, err := id("").ClientFor(ctx, loopback, srv, mcpauth.Client{}, "Sentry"); err == nil || !strings.Contains(err.Error(), "Sentry refused to register this app") {
		t.Errorf("refused registration: %v", err)
	}

	srv = discover(&resource{})
	if _, err := id("").ClientFor(ctx, loopback, srv, mcpauth.Client{}, "Linear"); err == nil || err.Error() != "Linear does not let new apps register; ask its owner for a client id" {
		t.Errorf("no registration: %v", err)
	}
	if c, err := id("").ClientFor(ctx, loopback, srv, mcpauth.Client{ID: "ops-client"}, "Linear"); err != nil || c.ID != "ops-client" {
		t.Errorf("operator's client id: %+v %v", c, err)
	}
}

// TestClientForPreregistered: an operator's client comes first, before the
// metadata document and a registration (the MCP spec's order); with a
// secret it authenticates as the authorization server says: HTTP Basic,
// or in the form when only client_secret_post is listed.
func TestClientForPreregistered(t *testing.T) {
	t.Parallel()
	ok := func(w http.ResponseWriter) {
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"client_id":"registered-1"}`))
	}
	cases := []struct {
		methods    []string
		secret     string
		wantMethod string
	}{
		{nil, "s3cret", "client_secret_basic"},
		{[]string{"client_secret_basic"}, "s3cret", "client_secret_basic"},
		{[]string{"client_secret_post"}, "s3cret", "client_secret_post"},
		{[]string{"client_secret_post", "client_secret_basic"}, "s3cret", "client_secret_basic"},
		{[]string{"client_secret_basic"}, "", "none"},
	}
	for _, tc := range cases {
		r := (&resource{register: ok, prmAt: []string{"/.well-known/oauth-protected-resource"}, asMetaAt: "/.well-known/oauth-authorization-server",
			asMeta: map[string]any{"client_id_metadata_document_supported": true, "token_endpoint_auth_methods_supported": tc.methods}}).start(t)
		srv, err := mcpauth.Discover(context.Background(), loopback, r.endpoint())
		if err != nil {
			t.Fatal(err)
		}
		site := mcpauth.Identity{MetadataURL: "https://site.example/cimd.json", RedirectURL: "https://site.example/cb", ClientName: "Test",
			Registrations: memRegistrations{m: map[string]mcpauth.Client{}}}
		c, err := site.ClientFor(context.Background(), loopback, srv, mcpauth.Client{ID: "ops", Secret: tc.secret}, "S")
		if err != nil || c.ID != "ops" || c.Secret != tc.secret || c.Method != tc.wantMethod {
			t.Errorf("methods %v: client %+v (%v), want ops with %s", tc.methods, c, err, tc.wantMethod)
		}
		if n := r.registered.Load(); n != 0 {
			t.Errorf("registered %d times beside an operator's client", n)
		}
	}
}

// TestClientForOperatorIssuer: an operator's client is for one
// authorization server. At that one (or when none is recorded yet) it is
// used; at another, the sign-in stops before anything is sent there, with
// the product's sentence, and registers nowhere.
func TestClientForOperatorIssuer(t *testing.T) {
	t.Parallel()
	ok := func(w http.ResponseWriter) {
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"client_id":"registered-1"}`))
	}
	r := (&resource{register: ok, prmAt: []string{"/.well-known/oauth-protected-resource"}, asMetaAt: "/.well-known/oauth-authorization-server"}).start(t)
	srv, err := mcpauth.Discover(context.Background(), loopback, r.endpoint())
	if err != nil {
		t.Fatal(err)
	}
	site := mcpauth.Identity{RedirectURL: "https://site.example/cb", ClientName: "Test", Registrations: memRegistrations{m: map[string]mcpauth.Client{}}}
	for _, issuer := range []string{"", srv.Auth.Issuer} {
		c, err := site.ClientFor(context.Background(), loopback, srv, mcpauth.Client{ID: "ops", Secret: "s3cret", Issuer: issuer}, "S")
		if err != nil || c.ID != "ops" || c.Secret != "s3cret" {
			t.Errorf("issuer %q: client %+v (%v), want the operator's", issuer, c, err)
		}
	}
	for _, other := range []string{"https://old-auth.example", srv.Auth.Issuer + "/"} {
		c, err := site.ClientFor(context.Background(), loopback, srv, mcpauth.Client{ID: "ops", Secret: "s3cret", Issuer: other}, "S")
		if err == nil || err.Error() != "S's operator client is set for another authorization server; ask the operator to update it" || c.Secret != "" {
			t.Errorf("client for %s: %+v, %v; want the refusal", other, c, err)
		}
	}
	if n := r.registered.Load(); n != 0 {
		t.Errorf("registered %d times beside an operator's client", n)
	}
}
