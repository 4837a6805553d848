package mcpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"aiwork/shared/api/mcpapi"
	"aiwork/shared/domain"
	"aiwork/shared/mcp/mcpauth"
	"aiwork/shared/store/storetest"
)

// fakeAS is a small authorization server whose every answer a test sets:
// whether it says it names itself in its answers (RFC 9207) and what iss
// it sends, whether it takes registrations, how its token endpoint
// authenticates clients. It records what reached it.
type fakeAS struct {
	advertiseIss bool
	iss          string // "correct" (default), "omit", "wrong", "slash"
	noDCR        bool
	authMethods  []string
	clientID     string // what a registration is given (default "dcr-client")

	srv           *httptest.Server
	mu            sync.Mutex
	registrations []map[string]any
	authorized    []url.Values
	tokenRequests []*http.Request
	tokenForms    []url.Values
}

const fakeToken = "fake-access-token"

func (a *fakeAS) start(t *testing.T) *fakeAS {
	t.Helper()
	a.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		defer a.mu.Unlock()
		switch r.URL.Path {
		case "/.well-known/oauth-authorization-server":
			meta := map[string]any{"issuer": a.srv.URL, "authorization_endpoint": a.srv.URL + "/authorize", "token_endpoint": a.srv.URL + "/token",
				"response_types_supported": []string{"code"}, "code_challenge_methods_supported": []string{"S256"}}
			if !a.noDCR {
				meta["registration_endpoint"] = a.srv.URL + "/register"
			}
			if a.advertiseIss {
				meta["authorization_response_iss_parameter_supported"] = true
			}
			if a.authMethods != nil {
				meta["token_endpoint_auth_methods_supported"] = a.authMethods
			}
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(meta)
		case "/register":
			var body map[string]any
			_ = json.NewDecoder(r.Body).Decode(&body)
			a.registrations = append(a.registrations, body)
			id := a.clientID
			if id == "" {
				id = "dcr-client"
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusCreated)
			_ = json.NewEncoder(w).Encode(map[string]any{"client_id": id, "redirect_uris": body["redirect_uris"], "token_endpoint_auth_method": "none"})
		case "/authorize":
			q := r.URL.Query()
			a.authorized = append(a.authorized, q)
			back, _ := url.Parse(q.Get("redirect_uri"))
			v := url.Values{"code": {"the-code"}, "state": {q.Get("state")}}
			switch a.iss {
			case "", "correct":
				v.Set("iss", a.srv.URL)
			case "wrong":
				v.Set("iss", "https://evil.example.com")
			case "slash":
				v.Set("iss", a.srv.URL+"/")
			}
			back.RawQuery = v.Encode()
			http.Redirect(w, r, back.String(), http.StatusFound)
		case "/token":
			_ = r.ParseForm()
			a.tokenRequests = append(a.tokenRequests, r)
			a.tokenForms = append(a.tokenForms, r.PostForm)
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"access_token": fakeToken, "token_type": "Bearer", "expires_in": 3600})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(a.srv.Close)
	return a
}

func (a *fakeAS) tokenCount() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.tokenRequests)
}

// protected is an MCP server (one tool) that takes fakeAS's token, with its
// Protected Resource Metadata at the path-aware well-known URL naming as
// (which a test may change: the server moved).
type protected struct {
	mu       sync.Mutex
	as       *fakeAS
	endpoint string
	// openInitialize lets an initialize through without a token: the
	// server asks for sign-in on what follows (a 2026-07-28 server may).
	openInitialize bool
}

func (p *protected) moveTo(as *fakeAS) { p.mu.Lock(); p.as = as; p.mu.Unlock() }

func newProtected(t *testing.T, as *fakeAS, openInitialize bool) *protected {
	t.Helper()
	p := &protected{as: as, openInitialize: openInitialize}
	key := &bearerKey{key: fakeToken}
	mcpHandler := sdkHandler(t, 1)
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/.well-known/oauth-protected-resource/mcp":
			p.mu.Lock()
			asURL := p.as.srv.URL
			p.mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"resource": srv.URL + "/mcp", "authorization_servers": []string{asURL}})
		case "/mcp":
			if p.openInitialize && r.Header.Get("Authorization") == "" && r.Method == http.MethodPost {
				body, _ := io.ReadAll(r.Body)
				if strings.Contains(string(body), `"method":"initialize"`) {
					w.Header().Set("Content-Type", "application/json")
					_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"send server/discover"}}`))
					return
				}
				r.Body = io.NopCloser(bytes.NewReader(body))
			}
			key.metadata = srv.URL + "/.well-known/oauth-protected-resource/mcp"
			key.wrap(mcpHandler).ServeHTTP(w, r)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	p.endpoint = srv.URL + "/mcp"
	return p
}

// signInTo runs a sign-in to serverID as the browser would and answers the
// registry address it ends at.
func (s *stack) signInTo(token, serverID string) url.Values {
	s.t.Helper()
	authURL, cookie := s.startSignIn(token, serverID)
	return s.callback(approve(s.t, authURL), cookie)
}

func newFlowStack(t *testing.T, endpoint string) (s *stack, uid, token string) {
	t.Helper()
	o := local()
	o.PublicURL = "http://localhost:8080"
	s = newStack(t, o)
	s.addServer(domain.MCPServer{ID: "fake-oauth", Title: "Fake", EndpointURL: endpoint, OAuthRequired: true})
	uid, token = s.user("flow")
	return s, uid, token
}

// TestSignInChecksTheIssuer: RFC 9207. An answer from an authorization
// server that says it names itself must name it; any iss sent must be the
// issuer exactly as its metadata writes it; a refused answer's code is
// never exchanged, and the user is told why in the product's words.
func TestSignInChecksTheIssuer(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		advertise bool
		iss       string
		ok        bool
	}{
		{"advertised and sent", true, "correct", true},
		{"neither advertised nor sent", false, "omit", true},
		{"sent without being advertised", false, "correct", true},
		{"advertised but missing", true, "omit", false},
		{"another issuer", true, "wrong", false},
		{"another issuer, not advertised", false, "wrong", false},
		{"the issuer with a trailing slash", true, "slash", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			as := (&fakeAS{advertiseIss: tc.advertise, iss: tc.iss}).start(t)
			s, _, token := newFlowStack(t, newProtected(t, as, false).endpoint)
			ret := s.signInTo(token, "fake-oauth")
			if tc.ok {
				if ret.Get("connected") != "fake-oauth" {
					t.Fatalf("returned %v, want connected", ret)
				}
				return
			}
			if ret.Get("oauth_error") != mcpapi.SignInRefused {
				t.Fatalf("returned %v, want %s", ret, mcpapi.SignInRefused)
			}
			if n := as.tokenCount(); n != 0 {
				t.Errorf("the code was exchanged %d times after a refused answer", n)
			}
			detail := s.failureDetail(ret, token)
			if !strings.Contains(detail, "authorization server") || strings.Contains(detail, "evil") {
				t.Errorf("detail %q: want the product's sentence, without the iss it was sent", detail)
			}
		})
	}
}

// TestSignInRegistersAsAWebApp: dynamic registration says what the
// product is (SEP-837): a server-side web application.
func TestSignInRegistersAsAWebApp(t *testing.T) {
	t.Parallel()
	as := (&fakeAS{}).start(t)
	s, _, token := newFlowStack(t, newProtected(t, as, false).endpoint)
	if ret := s.signInTo(token, "fake-oauth"); ret.Get("connected") == "" {
		t.Fatalf("returned %v", ret)
	}
	if len(as.registrations) != 1 || as.registrations[0]["application_type"] != "web" {
		t.Errorf("registrations %v: want one with application_type web", as.registrations)
	}
}

// TestSignInAfterTheServerMovedItsAuthorizationServer: when the metadata
// names a new authorization server, signing in again registers there and
// never shows it the old server's client; the grant kept is the new one's.
func TestSignInAfterTheServerMovedItsAuthorizationServer(t *testing.T) {
	t.Parallel()
	as1 := (&fakeAS{clientID: "as1-client"}).start(t)
	as2 := (&fakeAS{clientID: "as2-client"}).start(t)
	p := newProtected(t, as1, true)
	s, uid, token := newFlowStack(t, p.endpoint)
	if ret := s.signInTo(token, "fake-oauth"); ret.Get("connected") == "" {
		t.Fatalf("first sign-in: %v", ret)
	}
	p.moveTo(as2)
	if ret := s.signInTo(token, "fake-oauth"); ret.Get("connected") == "" {
		t.Fatalf("sign-in after the move: %v", ret)
	}
	if len(as2.registrations) != 1 {
		t.Errorf("%d registrations at the new server, want 1", len(as2.registrations))
	}
	for _, q := range as2.authorized {
		if q.Get("client_id") != "as2-client" {
			t.Errorf("the new server was shown client %q", q.Get("client_id"))
		}
	}
	conns, err := s.st.ListMCPConnections(context.Background(), uid)
	storetest.Must(t, err, "connections")
	if len(conns) != 1 {
		t.Fatalf("%d connections, want 1", len(conns))
	}
	plain, err := testSealer.Open(conns[0].SealedAPIKey, uid, conns[0].ServerID)
	storetest.Must(t, err, "open grant")
	sealed, err := mcpauth.DecodeSealed(plain)
	if err != nil || sealed.Grant.Issuer != as2.srv.URL || sealed.Grant.Client.ID != "as2-client" {
		t.Errorf("kept grant %+v (%v), want the new server's", sealed.Grant, err)
	}
}
