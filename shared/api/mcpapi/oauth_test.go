package mcpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"aiwork/shared/api/apitest"
	"aiwork/shared/api/mcpapi"
	"aiwork/shared/domain"
	"aiwork/shared/local/localmcp/localmcptest"
	"aiwork/shared/store/storetest"
)

const signInServer = "oauth-example"

// newSignInStack is the mcp group with the TypeScript SDK's OAuth example
// server in its registry, on loopback, as make run has it.
func newSignInStack(t *testing.T) *stack {
	t.Helper()
	o := local()
	o.PublicURL = "http://localhost:8080"
	o.ConnectsPerMinute = 100 // the starts count as connects: room for TestSignInStartsConcurrently
	s := newStack(t, o)
	ex := localmcptest.OAuthExample(t)
	s.addServer(domain.MCPServer{ID: signInServer, Title: "OAuth example", EndpointURL: ex.Endpoint, OAuthRequired: true})
	return s
}

// start posts a sign-in start to the OAuth example (startSignIn).
func (s *stack) start(token string) (string, *http.Cookie) { return s.startSignIn(token, signInServer) }

// startSignIn posts a sign-in start for serverID and answers the
// authorization URL and the browser cookie it set.
func (s *stack) startSignIn(token, serverID string) (string, *http.Cookie) {
	s.t.Helper()
	w := apitest.Do(s.h, http.MethodPost, mcpapi.OAuthStartPath, token, `{"server_id":"`+serverID+`"}`, nil)
	got := apitest.Decode[struct {
		AuthorizationURL string `json:"authorization_url"`
	}](s.t, w, http.StatusOK)
	var cookie *http.Cookie
	for _, c := range w.Result().Cookies() {
		if c.Name == "mcp_oauth_browser" {
			cookie = c
		}
	}
	if cookie == nil || !cookie.HttpOnly {
		s.t.Fatalf("start set no HttpOnly browser cookie: %v", w.Result().Cookies())
	}
	return got.AuthorizationURL, cookie
}

// approve opens the authorization page as the browser would (the example
// approves at once) and answers where it sends the browser back.
func approve(t *testing.T, authURL string) *url.URL {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Get(authURL)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	loc, err := url.Parse(res.Header.Get("Location"))
	if res.StatusCode != http.StatusFound || err != nil {
		t.Fatalf("authorization page: %d, Location %q", res.StatusCode, res.Header.Get("Location"))
	}
	return loc
}

// callback delivers the browser's return (with cookie, when given) and
// answers the registry URL it is sent to.
func (s *stack) callback(back *url.URL, cookie *http.Cookie) url.Values {
	s.t.Helper()
	req := httptest.NewRequest(http.MethodGet, mcpapi.OAuthCallbackPath+"?"+back.RawQuery, nil)
	if cookie != nil {
		req.AddCookie(cookie)
	}
	w := httptest.NewRecorder()
	s.h.ServeHTTP(w, req)
	loc, err := url.Parse(w.Header().Get("Location"))
	if w.Code != http.StatusFound || err != nil || loc.Path != "/registry" {
		s.t.Fatalf("callback = %d, Location %q, want a redirect to /registry", w.Code, w.Header().Get("Location"))
	}
	return loc.Query()
}

// TestSignInWithOAuth: discovery, registration, the code flow with PKCE
// and the resource indicator, and the handshake with the token, against
// the SDK's example server; the connection lists its tools and says it is
// signed in; its tokens are in no answer and no item but their sealed one.
func TestSignInWithOAuth(t *testing.T) {
	t.Parallel()
	s := newSignInStack(t)
	_, token := s.user("signin")
	authURL, cookie := s.start(token)
	u, _ := url.Parse(authURL)
	q := u.Query()
	if q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || q.Get("resource") != localmcptest.OAuthExample(t).Endpoint ||
		q.Get("redirect_uri") != "http://localhost:8080"+mcpapi.OAuthCallbackPath || q.Get("scope") != "mcp:tools" {
		t.Errorf("authorization URL %s: want PKCE S256, the resource, our callback and the server's scope", authURL)
	}
	back := approve(t, authURL)
	if got := s.callback(back, cookie); got.Get("connected") != signInServer {
		t.Fatalf("callback sent the browser to %v, want connected=%s", got, signInServer)
	}
	w := s.get(connectionsPath, token)
	var rows []struct {
		ServerID    string `json:"server_id"`
		ToolsCount  int    `json:"tools_count"`
		OAuth       bool   `json:"oauth"`
		NeedsSignIn bool   `json:"needs_sign_in"`
		HasAPIKey   bool   `json:"has_api_key"`
	}
	storetest.Must(t, json.Unmarshal(w.Body.Bytes(), &rows), "connections")
	if len(rows) != 1 || rows[0].ServerID != signInServer || !rows[0].OAuth || rows[0].NeedsSignIn || rows[0].HasAPIKey || rows[0].ToolsCount == 0 {
		t.Fatalf("connections %s: want one signed-in connection with tools", w.Body)
	}
	// Signing in again replaces it: one connection per user and server.
	authURL, cookie = s.start(token)
	if got := s.callback(approve(t, authURL), cookie); got.Get("connected") != signInServer {
		t.Fatalf("second sign-in: %v", got)
	}
	if w := s.get(connectionsPath, token); strings.Count(w.Body.String(), `"connection_id"`) != 1 {
		t.Errorf("after a second sign-in: %s, want one connection", w.Body)
	}
	// The same return again: the state was used.
	if got := s.callback(back, cookie); got.Get("oauth_error") != "state_used" {
		t.Errorf("replayed callback: %v, want state_used", got)
	}
	for _, item := range storetest.ScanAll(t, s.st) {
		for name, v := range item {
			if name == "sealed_api_key" || name == "sealed" {
				continue
			}
			if b, _ := json.Marshal(v); strings.Contains(string(b), "access_token") || strings.Contains(string(b), back.Query().Get("code")) {
				t.Errorf("item attribute %s holds a token or the code", name)
			}
		}
	}
}

// TestSignInRefusals: a return without this browser's cookie, with another
// user's or a made-up state, a cancel on the server's page, and a code the
// token endpoint refuses: each ends on the registry saying why, and no
// connection is stored.
func TestSignInRefusals(t *testing.T) {
	t.Parallel()
	s := newSignInStack(t)
	_, token := s.user("refusals")
	_, other := s.user("refusals-other")

	authURL, cookie := s.start(token)
	back := approve(t, authURL)
	if got := s.callback(back, nil); got.Get("oauth_error") != "other_browser" || got.Get("server") != signInServer {
		t.Errorf("no cookie: %v", got)
	}
	// That state was spent by the refused attempt.
	if got := s.callback(back, cookie); got.Get("oauth_error") != "state_used" {
		t.Errorf("after a refused attempt: %v", got)
	}

	otherURL, otherCookie := s.start(other)
	otherBack := approve(t, otherURL)
	if got := s.callback(otherBack, cookie); got.Get("oauth_error") != "other_browser" {
		t.Errorf("another user's state with this browser's cookie: %v", got)
	}
	_ = otherCookie

	forged, _ := url.Parse("/x?code=abc&state=Zm9v.bar")
	if got := s.callback(forged, cookie); got.Get("oauth_error") != "state_used" {
		t.Errorf("made-up state: %v", got)
	}

	authURL, cookie = s.start(token)
	state := mustQuery(t, authURL).Get("state")
	cancelled, _ := url.Parse("/x?error=access_denied&state=" + url.QueryEscape(state))
	if got := s.callback(cancelled, cookie); got.Get("oauth_error") != "access_denied" || got.Get("server") != signInServer || got.Has("detail_id") {
		t.Errorf("cancelled: %v", got)
	}

	authURL, cookie = s.start(token)
	back = approve(t, authURL)
	bad := back.Query()
	bad.Set("code", "not-a-code")
	back.RawQuery = bad.Encode()
	if got := s.callback(back, cookie); got.Get("oauth_error") != "token_refused" ||
		!strings.HasPrefix(s.failureDetail(got, token), "The authorization server refused the sign-in") {
		t.Errorf("refused code: %v, detail %q", got, s.failureDetail(got, token))
	}
	if w := s.get(connectionsPath, token); w.Body.String() != "[]" && !strings.HasPrefix(w.Body.String(), "[]") {
		t.Errorf("connections after refusals: %s, want none", w.Body)
	}
}

// TestSignInStartsConcurrently: 20 starts at once each get their own flow;
// finishing them all leaves one connection.
func TestSignInStartsConcurrently(t *testing.T) {
	t.Parallel()
	s := newSignInStack(t)
	_, token := s.user("concurrent")
	const n = 20
	urls := make([]string, n)
	cookies := make([]*http.Cookie, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { urls[i], cookies[i] = s.start(token) })
	}
	wg.Wait()
	states := map[string]bool{}
	for _, u := range urls {
		states[mustQuery(t, u).Get("state")] = true
	}
	if len(states) != n {
		t.Fatalf("%d distinct states for %d starts", len(states), n)
	}
	for i := range n {
		wg.Go(func() {
			if got := s.callback(approve(t, urls[i]), cookies[i]); got.Get("connected") != signInServer {
				t.Errorf("sign-in %d: %v", i, got)
			}
		})
	}
	wg.Wait()
	if w := s.get(connectionsPath, token); strings.Count(w.Body.String(), `"connection_id"`) != 1 {
		t.Errorf("connections: %s, want one", w.Body)
	}
}

// The client metadata document names its own URL as client_id and the
// callback as its one redirect URI.
func TestClientMetadataDocument(t *testing.T) {
	t.Parallel()
	s := newSignInStack(t)
	var doc struct {
		ClientID     string   `json:"client_id"`
		RedirectURIs []string `json:"redirect_uris"`
		AuthMethod   string   `json:"token_endpoint_auth_method"`
	}
	doc = apitest.Decode[struct {
		ClientID     string   `json:"client_id"`
		RedirectURIs []string `json:"redirect_uris"`
		AuthMethod   string   `json:"token_endpoint_auth_method"`
	}](t, s.get(mcpapi.OAuthMetadataPath, ""), http.StatusOK)
	if doc.ClientID != "http://localhost:8080"+mcpapi.OAuthMetadataPath || len(doc.RedirectURIs) != 1 ||
		doc.RedirectURIs[0] != "http://localhost:8080"+mcpapi.OAuthCallbackPath || doc.AuthMethod != "none" {
		t.Errorf("document %+v", doc)
	}
}

// An operator who publishes the document elsewhere (a site not on https)
// sets its URL: the served document names it as its client_id.
func TestClientMetadataDocumentPublishedElsewhere(t *testing.T) {
	t.Parallel()
	o := local()
	o.PublicURL = "http://localhost:8080"
	o.ClientMetadataURL = "https://docs.example.com/aiwork/client-metadata.json"
	s := newStack(t, o)
	doc := apitest.Decode[struct {
		ClientID     string   `json:"client_id"`
		RedirectURIs []string `json:"redirect_uris"`
	}](t, s.get(mcpapi.OAuthMetadataPath, ""), http.StatusOK)
	if doc.ClientID != o.ClientMetadataURL || len(doc.RedirectURIs) != 1 || doc.RedirectURIs[0] != "http://localhost:8080"+mcpapi.OAuthCallbackPath {
		t.Errorf("document %+v, want client_id %s and this site's callback", doc, o.ClientMetadataURL)
	}
}

func mustQuery(t *testing.T, raw string) url.Values {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.Query()
}

// TestSignInAgainAsksForTheWiderScope: a connection the server refused
// for lack of a scope shows Sign in again, and the next sign-in asks for
// that scope beside the server's own; after it the connection is whole.
func TestSignInAgainAsksForTheWiderScope(t *testing.T) {
	t.Parallel()
	s := newSignInStack(t)
	uid, token := s.user("wider")
	authURL, cookie := s.start(token)
	if got := s.callback(approve(t, authURL), cookie); got.Get("connected") != signInServer {
		t.Fatalf("sign-in: %v", got)
	}
	conns, err := s.st.ListMCPConnections(context.Background(), uid)
	storetest.Must(t, err, "connections")
	if len(conns) != 1 {
		t.Fatalf("%d connections, want 1", len(conns))
	}
	storetest.Must(t, s.st.MarkMCPConnectionNeedsSignIn(context.Background(), uid, conns[0].ID, "mcp:tools mcp:admin"), "mark")
	if w := s.get(connectionsPath, token); !strings.Contains(w.Body.String(), `"needs_sign_in":true`) {
		t.Fatalf("connections %s: want needs_sign_in", w.Body)
	}
	authURL, cookie = s.start(token)
	u, _ := url.Parse(authURL)
	if got := u.Query().Get("scope"); got != "mcp:tools mcp:admin" {
		t.Errorf("sign in again asks for scope %q, want %q", got, "mcp:tools mcp:admin")
	}
	if got := s.callback(approve(t, authURL), cookie); got.Get("connected") != signInServer {
		t.Fatalf("sign in again: %v", got)
	}
	if w := s.get(connectionsPath, token); strings.Contains(w.Body.String(), `"needs_sign_in":true`) || strings.Count(w.Body.String(), `"connection_id"`) != 1 {
		t.Errorf("after signing in again: %s, want one whole connection", w.Body)
	}
}

// TestSignInEndsWithTheSession: a logout, or the account deleted, between
// the start and the browser's return stores nothing, and says why.
func TestSignInEndsWithTheSession(t *testing.T) {
	t.Parallel()
	s := newSignInStack(t)
	for _, end := range []string{"logout", "account deleted"} {
		uid, token := s.user("ended")
		authURL, cookie := s.start(token)
		back := approve(t, authURL)
		if end == "logout" {
			_, err := s.st.EndSessions(context.Background(), uid)
			storetest.Must(t, err, "logout")
		} else {
			storetest.Must(t, s.st.DeleteUser(context.Background(), uid), "delete account")
		}
		got := s.callback(back, cookie)
		if got.Get("oauth_error") == "" || got.Get("connected") != "" {
			t.Errorf("%s mid-flow: %v, want an error", end, got)
		}
		conns, err := s.st.ListMCPConnections(context.Background(), uid)
		storetest.Must(t, err, "connections")
		if len(conns) != 0 {
			t.Errorf("%s mid-flow: %d connections stored", end, len(conns))
		}
		if end == "logout" && got.Get("oauth_error") != "signed_out" {
			t.Errorf("logout mid-flow: %v, want signed_out", got)
		}
	}
}
