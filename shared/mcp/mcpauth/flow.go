package mcpauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// Client is the product's identity at one authorization server.
type Client struct {
	ID     string `json:"client_id"`
	Secret string `json:"client_secret,omitempty"` // issued by some registrations
	// Method is how the token endpoint authenticates the client
	// ("none", "client_secret_post", "client_secret_basic").
	Method string `json:"method"`
	// Issuer, on an operator's client given to ClientFor, is the
	// authorization server it is for ("": not known yet, any). A grant
	// keeps its own issuer, so this is never stored.
	Issuer string `json:"-"`
}

// Identity is how the product identifies itself to authorization servers.
type Identity struct {
	// MetadataURL is the product's Client ID Metadata Document, served on
	// an https public URL; "" when the site has none (locally).
	MetadataURL string
	// RedirectURL is the callback every authorization server sends the
	// browser back to.
	RedirectURL string
	ClientName  string
	// Registrations keeps one Dynamic Client Registration per
	// authorization server for the whole site.
	Registrations Registrations
}

// Registrations are the site's clients registered at authorization
// servers, by issuer and redirect URL (the store).
type Registrations interface {
	OAuthClient(ctx context.Context, key string) (Client, bool, error)
	SaveOAuthClient(ctx context.Context, key string, c Client) error
}

// ClientFor is the product's client at srv's authorization server, in the
// MCP spec's order: the operator's pre-registered client for this server
// (configured, when its ID is set), else the metadata document when the
// server takes one, else the site's registration (made once per
// authorization server), else an error naming what the server lacks. An
// operator's client set for another authorization server than srv's is
// refused before anything is sent: its secret goes to no other server (one
// the MCP server moved to included).
func (id Identity) ClientFor(ctx context.Context, hc *http.Client, srv Server, configured Client, serverName string) (Client, error) {
	asm := srv.Auth
	if configured.ID != "" {
		if configured.Issuer != "" && configured.Issuer != asm.Issuer {
			return Client{}, fail("%s", OtherIssuerWords(serverName))
		}
		return preregistered(configured, asm), nil
	}
	if asm.ClientIDMetadataDocumentSupported && strings.HasPrefix(id.MetadataURL, "https://") {
		return Client{ID: id.MetadataURL, Method: "none"}, nil
	}
	if asm.RegistrationEndpoint == "" {
		return Client{}, fail("%s does not let new apps register; ask its owner for a client id", serverName)
	}
	key := asm.Issuer + " " + id.RedirectURL
	if c, ok, err := id.Registrations.OAuthClient(ctx, key); err != nil || ok {
		return c, err
	}
	res, err := oauthex.RegisterClient(ctx, asm.RegistrationEndpoint, &oauthex.ClientRegistrationMetadata{
		RedirectURIs: []string{id.RedirectURL}, TokenEndpointAuthMethod: "none",
		GrantTypes: []string{"authorization_code", "refresh_token"}, ResponseTypes: []string{"code"},
		// A server-side web client (SEP-837): the browser comes back to the
		// site, which keeps the tokens.
		ApplicationType: "web",
		ClientName:      id.ClientName, Scope: strings.Join(srv.Scopes, " "),
	}, hc)
	if err != nil {
		return Client{}, failed(err, "%s refused to register this app (%s at %s).", serverName, registrationWhy(err), shownURL(asm.RegistrationEndpoint))
	}
	c := Client{ID: res.ClientID, Secret: res.ClientSecret, Method: res.TokenEndpointAuthMethod}
	if c.Method == "" {
		c.Method = "none"
		if c.Secret != "" {
			c.Method = "client_secret_basic"
		}
	}
	if err := id.Registrations.SaveOAuthClient(ctx, key, c); err != nil {
		return Client{}, err
	}
	return c, nil
}

// OtherIssuerWords is what a user is told when an operator's client is
// for another authorization server than the one the server names.
func OtherIssuerWords(serverName string) string {
	return serverName + "'s operator client is set for another authorization server; ask the operator to update it"
}

// preregistered is an operator's client as the token endpoint takes it: a
// public client sends its id alone; one with a secret authenticates with
// HTTP Basic (RFC 6749's default), or in the form when the authorization
// server lists client_secret_post and not client_secret_basic.
func preregistered(c Client, asm *oauthex.AuthServerMeta) Client {
	switch m := asm.TokenEndpointAuthMethodsSupported; {
	case c.Secret == "":
		c.Method = "none"
	case slices.Contains(m, "client_secret_post") && !slices.Contains(m, "client_secret_basic"):
		c.Method = "client_secret_post"
	default:
		c.Method = "client_secret_basic"
	}
	return c
}

// Grant is a sign-in under way or done: what the token endpoint, refresh
// and revocation need. Kept sealed (it holds the client secret, if any).
type Grant struct {
	Client        Client   `json:"client"`
	Issuer        string   `json:"issuer"`
	AuthURL       string   `json:"auth_url"`
	TokenURL      string   `json:"token_url"`
	RevocationURL string   `json:"revocation_url,omitempty"`
	Resource      string   `json:"resource"`
	Scopes        []string `json:"scopes,omitempty"`
	RedirectURL   string   `json:"redirect_url"`
	// IssInResponse: the authorization server says it names itself in
	// every authorization response (RFC 9207's
	// authorization_response_iss_parameter_supported).
	IssInResponse bool `json:"iss_in_response,omitempty"`
}

// NewGrant is the grant to ask srv's authorization server for.
func NewGrant(srv Server, c Client, redirectURL string) Grant {
	return Grant{Client: c, Issuer: srv.Auth.Issuer, AuthURL: srv.Auth.AuthorizationEndpoint, TokenURL: srv.Auth.TokenEndpoint,
		RevocationURL: srv.Auth.RevocationEndpoint, Resource: srv.Resource, Scopes: srv.Scopes, RedirectURL: redirectURL,
		IssInResponse: srv.Auth.AuthorizationResponseIssParameterSupported}
}

// CheckIssuer holds an authorization response's iss (RFC 9207; present
// tells a missing one from an empty one) to the grant's authorization
// server: one that says it sends iss must send its own issuer; any iss
// that is sent must be that issuer, compared as the strings they are (a
// trailing slash or another case is another issuer). A response from
// another server (a mix-up) is refused before its code is used.
func (g Grant) CheckIssuer(iss string, present bool) error {
	switch {
	case !present && g.IssInResponse:
		return fail("The sign-in's answer did not say which authorization server sent it, which that server promises to, so it was not used.")
	case present && iss != g.Issuer:
		// iss came in the return address, which anyone can write: not repeated.
		return fail("The sign-in's answer named another authorization server than the one it was started with (%s), so it was not used.",
			shownURL(g.Issuer))
	}
	return nil
}

func (g Grant) config() *oauth2.Config {
	style := oauth2.AuthStyleInParams
	if g.Client.Method == "client_secret_basic" {
		style = oauth2.AuthStyleInHeader
	}
	return &oauth2.Config{ClientID: g.Client.ID, ClientSecret: g.Client.Secret, RedirectURL: g.RedirectURL, Scopes: g.Scopes,
		Endpoint: oauth2.Endpoint{AuthURL: g.AuthURL, TokenURL: g.TokenURL, AuthStyle: style}}
}

// AuthCodeURL is where to send the browser: the code flow with PKCE S256
// for verifier, state, and the resource indicator.
func (g Grant) AuthCodeURL(state, verifier string) string {
	return g.config().AuthCodeURL(state, oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("resource", g.Resource))
}

// Exchange trades the code for tokens (PKCE verifier, resource) through hc.
func (g Grant) Exchange(ctx context.Context, hc *http.Client, code, verifier string) (*oauth2.Token, error) {
	ctx = context.WithValue(ctx, oauth2.HTTPClient, hc)
	t, err := g.config().Exchange(ctx, code, oauth2.VerifierOption(verifier), oauth2.SetAuthURLParam("resource", g.Resource))
	if err != nil {
		return nil, failed(err, "%s", tokenRefusal(err))
	}
	return t, nil
}

// ErrReauth: the authorization server no longer accepts the refresh token
// (revoked, expired): the user signs in again.
var ErrReauth = errors.New("sign in again")

// Refresh trades t's refresh token for new tokens; ErrReauth when there is
// none or the server refuses it. Written here rather than through
// x/oauth2's TokenSource, which cannot send the resource parameter the MCP
// spec requires in every token request.
func (g Grant) Refresh(ctx context.Context, hc *http.Client, t *oauth2.Token) (*oauth2.Token, error) {
	if t.RefreshToken == "" {
		return nil, ErrReauth
	}
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {t.RefreshToken}, "resource": {g.Resource}}
	if len(g.Scopes) > 0 {
		form.Set("scope", strings.Join(g.Scopes, " "))
	}
	req, err := g.tokenRequest(ctx, form)
	if err != nil {
		return nil, err
	}
	res, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	if res.StatusCode >= 400 && res.StatusCode < 500 {
		return nil, ErrReauth
	}
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("refresh: status %d", res.StatusCode)
	}
	var out struct {
		AccessToken  string `json:"access_token"`
		TokenType    string `json:"token_type"`
		RefreshToken string `json:"refresh_token"`
		ExpiresIn    int64  `json:"expires_in"`
	}
	if err := json.Unmarshal(body, &out); err != nil || out.AccessToken == "" {
		return nil, fmt.Errorf("refresh: unreadable answer")
	}
	nt := &oauth2.Token{AccessToken: out.AccessToken, TokenType: out.TokenType, RefreshToken: out.RefreshToken}
	if out.ExpiresIn > 0 {
		nt.Expiry = time.Now().Add(time.Duration(out.ExpiresIn) * time.Second)
	}
	if nt.RefreshToken == "" { // not rotated: the old one stays valid
		nt.RefreshToken = t.RefreshToken
	}
	return nt, nil
}

// tokenRequest is a form POST to the token endpoint, the client
// authenticated as it registered.
func (g Grant) tokenRequest(ctx context.Context, form url.Values) (*http.Request, error) {
	if g.Client.Method != "client_secret_basic" {
		form.Set("client_id", g.Client.ID)
		if g.Client.Secret != "" {
			form.Set("client_secret", g.Client.Secret)
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, g.TokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if g.Client.Method == "client_secret_basic" {
		req.SetBasicAuth(url.QueryEscape(g.Client.ID), url.QueryEscape(g.Client.Secret))
	}
	return req, nil
}

// Revoke asks the authorization server to revoke t's tokens (RFC 7009),
// when it offers revocation; the refresh token first (it revokes the
// access tokens it issued on most servers).
func (g Grant) Revoke(ctx context.Context, hc *http.Client, t *oauth2.Token) error {
	if g.RevocationURL == "" {
		return nil
	}
	for _, tok := range []struct{ value, hint string }{{t.RefreshToken, "refresh_token"}, {t.AccessToken, "access_token"}} {
		if tok.value == "" {
			continue
		}
		form := url.Values{"token": {tok.value}, "token_type_hint": {tok.hint}, "client_id": {g.Client.ID}}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, g.RevocationURL, strings.NewReader(form.Encode()))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if g.Client.Secret != "" {
			req.SetBasicAuth(url.QueryEscape(g.Client.ID), url.QueryEscape(g.Client.Secret))
		}
		res, err := hc.Do(req)
		if err != nil {
			return err
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return fmt.Errorf("revoke %s: status %d", tok.hint, res.StatusCode)
		}
	}
	return nil
}

// tokenRefusal is a token endpoint's refusal in the product's words: the
// standard error code it named, else its HTTP status, else why it could
// not be asked (its description stays in the log).
func tokenRefusal(err error) string {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		if re.ErrorCode != "" {
			return Refusal(re.ErrorCode)
		}
		if re.Response != nil {
			return fmt.Sprintf("The authorization server refused the sign-in (HTTP %d).", re.Response.StatusCode)
		}
	}
	return fmt.Sprintf("The sign-in could not be finished with the authorization server: %s.", why(err))
}

// registrationWhy is why a registration failed: the RFC 7591 error code
// the server named, else its HTTP status (oauthex says it only in its
// text: "registration failed with status 500 …", a 400 it could not read).
func registrationWhy(err error) string {
	var re *oauthex.ClientRegistrationError
	switch {
	case errors.As(err, &re) && registrationErrorCodes[re.ErrorCode]:
		return "it answered " + re.ErrorCode
	case errors.As(err, &re), strings.Contains(err.Error(), "registration error response"):
		return "HTTP 400"
	}
	if m := registrationStatus.FindStringSubmatch(err.Error()); m != nil {
		return "HTTP " + m[1]
	}
	return why(err)
}

// registrationErrorCodes are RFC 7591 §3.2.2's.
var registrationErrorCodes = map[string]bool{"invalid_redirect_uri": true, "invalid_client_metadata": true,
	"invalid_software_statement": true, "unapproved_software_statement": true}

var registrationStatus = regexp.MustCompile(`with status (\d{3})\b`)

// Sealed is what a connection keeps of a sign-in (sealed with the user's
// keys' sealer): the grant and its tokens.
type Sealed struct {
	Grant Grant         `json:"grant"`
	Token *oauth2.Token `json:"token"`
}

// Encode is the JSON to seal.
func (s Sealed) Encode() string { b, _ := json.Marshal(s); return string(b) }

// DecodeSealed reads what Encode wrote.
func DecodeSealed(plain string) (Sealed, error) {
	var s Sealed
	if err := json.Unmarshal([]byte(plain), &s); err != nil || s.Token == nil {
		return Sealed{}, errors.New("sealed oauth grant unreadable")
	}
	return s, nil
}

// Fresh reports whether the access token is still good for a minute.
func (s Sealed) Fresh(now time.Time) bool {
	return s.Token.AccessToken != "" && (s.Token.Expiry.IsZero() || s.Token.Expiry.After(now.Add(time.Minute)))
}

// HasScopes reports whether the grant asked for every scope in want.
func (s Sealed) HasScopes(want []string) bool {
	for _, w := range want {
		if !slices.Contains(s.Grant.Scopes, w) {
			return false
		}
	}
	return true
}
