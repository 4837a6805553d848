package mcpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"aiwork/shared/api/apitest"
	"aiwork/shared/api/mcpapi"
	"aiwork/shared/domain"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// setOperatorClient stores an operator's client on the entry as the admin
// route does: its secret sealed for the operator and the entry.
func (s *stack) setOperatorClient(serverID, clientID, secret, issuer string) {
	s.t.Helper()
	ctx := context.Background()
	srv, err := s.st.GetMCPServer(ctx, serverID)
	storetest.Must(s.t, err, "get server")
	srv.Operator = domain.MCPOperatorClient{ClientID: clientID, Issuer: issuer}
	if secret != "" {
		srv.Operator.SealedSecret, err = testSealer.Seal(secret, domain.MCPOperatorSealOwner, serverID)
		storetest.Must(s.t, err, "seal")
	}
	storetest.Must(s.t, s.st.UpdateMCPServer(ctx, srv, srv.AdminVersion, store.AuditEntry{At: time.Now(), Action: "mcp_server.update",
		TargetType: "mcp_server", TargetID: serverID}), "set operator client")
}

// startAt posts a sign-in start for serverID at endpoint ("": the entry's own).
func (s *stack) startAt(token, serverID, endpoint string) *httptest.ResponseRecorder {
	s.t.Helper()
	body, _ := json.Marshal(map[string]string{"server_id": serverID, "endpoint_url": endpoint})
	return apitest.Do(s.h, http.MethodPost, mcpapi.OAuthStartPath, token, string(body), nil)
}

// TestSignInWithTheOperatorsClient: at an authorization server that lets
// no app register, the operator's client signs in: its id on the
// authorization page, its secret at the token endpoint with HTTP Basic, or
// in the form when the server lists only client_secret_post; the first
// sign-in records the authorization server on the entry.
func TestSignInWithTheOperatorsClient(t *testing.T) {
	t.Parallel()
	for _, methods := range [][]string{nil, {"client_secret_basic"}, {"client_secret_post"}} {
		t.Run(strings.Join(append([]string{"methods"}, methods...), " "), func(t *testing.T) {
			t.Parallel()
			as := (&fakeAS{noDCR: true, authMethods: methods}).start(t)
			s, _, token := newFlowStack(t, newProtected(t, as, false).endpoint)
			s.setOperatorClient("fake-oauth", "ops-client", "s3cret:with/odd=chars", "")
			if ret := s.signInTo(token, "fake-oauth"); ret.Get("connected") != "fake-oauth" {
				t.Fatalf("returned %v (%s), want connected", ret, s.failureDetail(ret, token))
			}
			as.mu.Lock()
			defer as.mu.Unlock()
			if len(as.registrations) != 0 || len(as.authorized) != 1 || as.authorized[0].Get("client_id") != "ops-client" {
				t.Fatalf("registrations %v, authorized %v: want the operator's client", as.registrations, as.authorized)
			}
			req, form := as.tokenRequests[0], as.tokenForms[0]
			user, pass, basic := req.BasicAuth()
			if len(methods) == 1 && methods[0] == "client_secret_post" {
				if basic || form.Get("client_id") != "ops-client" || form.Get("client_secret") != "s3cret:with/odd=chars" {
					t.Errorf("token request: basic %v, form %v; want the secret in the form", basic, form)
				}
			} else if !basic || form.Has("client_secret") || decodeBasic(user) != "ops-client" || decodeBasic(pass) != "s3cret:with/odd=chars" {
				t.Errorf("token request: basic %v (%q, %q), form %v; want HTTP Basic", basic, user, pass, form)
			}
			srv, err := s.st.GetMCPServer(context.Background(), "fake-oauth")
			storetest.Must(t, err, "get server")
			if srv.Operator.Issuer != as.srv.URL || srv.Operator.ClientID != "ops-client" {
				t.Errorf("entry's client %+v, want its authorization server recorded", srv.Operator)
			}
		})
	}
}

// decodeBasic undoes RFC 6749's form-encoding of Basic credentials.
func decodeBasic(s string) string {
	v, err := url.QueryUnescape(s)
	if err != nil {
		return s
	}
	return v
}

// TestOperatorClientGoesToNoOtherAuthorizationServer: once its
// authorization server is known (recorded at the first sign-in, or set by
// an admin), a server that moves to another one gets no sign-in with the
// operator's client: the user is told to ask the operator, and nothing
// reaches the new server.
func TestOperatorClientGoesToNoOtherAuthorizationServer(t *testing.T) {
	t.Parallel()
	as1 := (&fakeAS{noDCR: true}).start(t)
	as2 := (&fakeAS{}).start(t)
	p := newProtected(t, as1, false)
	s, _, token := newFlowStack(t, p.endpoint)
	s.setOperatorClient("fake-oauth", "ops-client", "s3cret", "")
	if ret := s.signInTo(token, "fake-oauth"); ret.Get("connected") == "" {
		t.Fatalf("first sign-in: %v", ret)
	}
	p.moveTo(as2)
	apitest.WantError(t, s.startAt(token, "fake-oauth", ""), http.StatusBadGateway,
		"Fake's operator client is set for another authorization server; ask the operator to update it")

	// An admin's issuer holds from the first sign-in on.
	s.setOperatorClient("fake-oauth", "ops-client", "s3cret", as1.srv.URL+"/")
	p.moveTo(as1)
	apitest.WantError(t, s.startAt(token, "fake-oauth", ""), http.StatusBadGateway,
		"Fake's operator client is set for another authorization server; ask the operator to update it")
	as2.mu.Lock()
	defer as2.mu.Unlock()
	if len(as2.registrations)+len(as2.authorized)+len(as2.tokenRequests) != 0 {
		t.Errorf("the other authorization server was reached: %v %v %d", as2.registrations, as2.authorized, len(as2.tokenRequests))
	}
}

// TestOperatorClientAtAUsersOwnEndpoint: a user's endpoint under the entry
// signs in with the operator's client only at the authorization server it
// is for; elsewhere as without it (a registration), never recording
// another authorization server on the entry.
func TestOperatorClientAtAUsersOwnEndpoint(t *testing.T) {
	t.Parallel()
	entryAS := (&fakeAS{noDCR: true}).start(t)
	usersAS := (&fakeAS{clientID: "registered"}).start(t)
	s, _, token := newFlowStack(t, newProtected(t, entryAS, false).endpoint)
	own := newProtected(t, usersAS, false).endpoint
	for _, issuer := range []string{"", entryAS.srv.URL} {
		s.setOperatorClient("fake-oauth", "ops-client", "s3cret", issuer)
		w := s.startAt(token, "fake-oauth", own)
		got := apitest.Decode[struct {
			AuthorizationURL string `json:"authorization_url"`
		}](t, w, http.StatusOK)
		if q := mustQuery(t, got.AuthorizationURL); q.Get("client_id") != "registered" {
			t.Errorf("issuer %q: the user's server was shown client %q, want its own registration", issuer, q.Get("client_id"))
		}
		srv, err := s.st.GetMCPServer(context.Background(), "fake-oauth")
		storetest.Must(t, err, "get server")
		if srv.Operator.Issuer != issuer {
			t.Errorf("entry's issuer %q after a sign-in elsewhere, want %q", srv.Operator.Issuer, issuer)
		}
	}
	// At the authorization server it is for, the client is used there too.
	s.setOperatorClient("fake-oauth", "ops-client", "s3cret", usersAS.srv.URL)
	got := apitest.Decode[struct {
		AuthorizationURL string `json:"authorization_url"`
	}](t, s.startAt(token, "fake-oauth", own), http.StatusOK)
	if q := mustQuery(t, got.AuthorizationURL); q.Get("client_id") != "ops-client" {
		t.Errorf("client %q at the operator client's own authorization server", q.Get("client_id"))
	}
}
