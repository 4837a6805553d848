package localmcp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/oauth2"
)

// signIn registers a client (RFC 7591), authorizes it with PKCE (the demo
// page approves at once) for resource and scope, and exchanges the code;
// it answers the client id and the access token.
func signIn(t *testing.T, registration, authorize, tokenURL, resource, scope string) (clientID, token string) {
	t.Helper()
	clientID, tok := signInToken(t, registration, authorize, tokenURL, resource, scope)
	return clientID, tok.AccessToken
}

// signInToken is signIn answering the whole token.
func signInToken(t *testing.T, registration, authorize, tokenURL, resource, scope string) (string, *oauth2.Token) {
	t.Helper()
	const redirect = "http://localhost:9/callback"
	reg, err := client.Post(registration, "application/json", strings.NewReader(
		`{"client_name":"localmcp test","redirect_uris":["`+redirect+`"],"token_endpoint_auth_method":"none"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Body.Close()
	var registered struct {
		ClientID string `json:"client_id"`
	}
	if err := json.NewDecoder(reg.Body).Decode(&registered); err != nil || reg.StatusCode != http.StatusCreated || registered.ClientID == "" {
		t.Fatalf("registration: %d %+v %v", reg.StatusCode, registered, err)
	}
	conf := &oauth2.Config{
		ClientID:    registered.ClientID,
		RedirectURL: redirect,
		Scopes:      strings.Fields(scope),
		Endpoint:    oauth2.Endpoint{AuthURL: authorize, TokenURL: tokenURL, AuthStyle: oauth2.AuthStyleInParams},
	}
	verifier := oauth2.GenerateVerifier()
	res := oauth2.SetAuthURLParam("resource", resource)
	approved, err := client.Get(conf.AuthCodeURL("state-1", oauth2.S256ChallengeOption(verifier), res))
	if err != nil {
		t.Fatal(err)
	}
	approved.Body.Close()
	back, err := url.Parse(approved.Header.Get("Location"))
	if err != nil || approved.StatusCode != http.StatusFound || back.Query().Get("state") != "state-1" || back.Query().Get("code") == "" {
		t.Fatalf("authorization: %d, Location %q", approved.StatusCode, approved.Header.Get("Location"))
	}
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, client)
	tok, err := conf.Exchange(ctx, back.Query().Get("code"), oauth2.VerifierOption(verifier), res)
	if err != nil {
		t.Fatalf("token: %v", err)
	}
	return registered.ClientID, tok
}
