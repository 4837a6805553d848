package mcpapi

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"aiwork/shared/auth"
	"aiwork/shared/clip"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/mcp"
	"aiwork/shared/mcp/mcpauth"
	"aiwork/shared/routes"
	"aiwork/shared/store"
)

// Paths of the sign-in to OAuth-protected MCP servers.
const (
	OAuthStartPath    = routes.MCPOAuthStartPath
	OAuthCallbackPath = routes.MCPOAuthCallbackPath
	OAuthMetadataPath = routes.MCPOAuthMetadataPath
	// oauthCookie binds a flow to the browser that started it.
	oauthCookie  = "mcp_oauth_browser"
	oauthFlowTTL = 10 * time.Minute
)

type oauthStartInput struct {
	ServerID    string `json:"server_id"`
	EndpointURL string `json:"endpoint_url"`
	// Scope is what a tool call's server asked for (its tool_signin
	// frame): asked for beside what the sign-in asks for anyway.
	Scope string `json:"scope"`
	// ReturnTo names the page the browser comes back to: "" or
	// "registry", or "chat" (a sign-in a reply paused for). A name, never
	// an address.
	ReturnTo string `json:"return_to"`
	// ConnectionID names the caller's keyless connection whose server
	// asked for sign-in when a tool was called (its tool_signin frame): the
	// sign-in turns that connection into a signed-in one, same id, so the
	// paused reply's call runs again on it.
	ConnectionID string `json:"connection_id"`
}

// Pages a sign-in returns to.
const (
	returnRegistry = "registry"
	returnChat     = "chat"
)

// maxScopeLen bounds the scope a start may add.
const maxScopeLen = 1000

// check validates what the start adds to the server's own sign-in.
func (in oauthStartInput) check() error {
	switch in.ReturnTo {
	case "", returnRegistry, returnChat:
	default:
		return httpx.Invalid("return_to must be registry or chat")
	}
	if len(in.Scope) > maxScopeLen {
		return httpx.Invalid("scope is too long")
	}
	for _, r := range in.Scope {
		// RFC 6749 §3.3 scope-token characters, space-separated.
		if r != ' ' && (r < 0x21 || r > 0x7e || r == '"' || r == '\\') {
			return httpx.Invalid("scope must be space-separated OAuth scope tokens")
		}
	}
	return nil
}

// pendingGrant is what a flow keeps sealed until the callback.
type pendingGrant struct {
	Grant    mcpauth.Grant `json:"grant"`
	Verifier string        `json:"verifier"`
}

// oauthStart discovers how to sign in to the server, picks the product's
// client there, stores the flow (state, PKCE verifier) for the caller and
// answers the authorization URL; a cookie binds the flow to this browser.
func (s *Service) oauthStart(w http.ResponseWriter, r *http.Request) error {
	var in oauthStartInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	if err := in.check(); err != nil {
		return err
	}
	uid, _ := auth.UserID(r.Context())
	srv, endpoint, err := s.admit(r, uid, admission{serverID: in.ServerID, override: in.EndpointURL})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.connectTimeout)
	defer cancel()
	found, err := mcpauth.Discover(ctx, s.client, endpoint)
	if err != nil {
		return oauthError(r.Context(), err)
	}
	redirect := httpx.PublicURL(r, s.publicURL) + OAuthCallbackPath
	identity := mcpauth.Identity{MetadataURL: s.metadataURL(r), RedirectURL: redirect, ClientName: clientName,
		Registrations: registrations{s}}
	upgrade, err := s.upgradedConnection(r.Context(), uid, in.ConnectionID, srv.ID, endpoint)
	if err != nil {
		return err
	}
	prevConn, prev, hadSignIn := s.previousSignIn(r.Context(), uid, srv.ID, endpoint)
	if hadSignIn && prev.Grant.Issuer != "" && prev.Grant.Issuer != found.Auth.Issuer {
		// The server moved to another authorization server: its client and
		// tokens there are not used here (ClientFor registers with the new
		// one, once per authorization server).
		slog.InfoContext(r.Context(), "mcp sign-in: the server's authorization server changed; signing in with the new one",
			"server", srv.ID, "from", prev.Grant.Issuer, "to", found.Auth.Issuer)
	}
	configured, err := s.operatorClient(ctx, srv, endpoint, found)
	if err != nil {
		return err
	}
	client, err := identity.ClientFor(ctx, s.client, found, configured, displayName(srv))
	if err != nil {
		return oauthError(r.Context(), err)
	}
	// The scope the server asked for when it last refused this user's
	// sign-in for lack of it (403 insufficient_scope).
	found.Scopes = addScopes(found.Scopes, prevConn.SignInScope)
	if hadSignIn && prev.Grant.Issuer == found.Auth.Issuer {
		// Signing in again keeps what the last sign-in had (SEP-2350: the
		// union of what was granted and what the server asks for now).
		found.Scopes = addScopes(found.Scopes, strings.Join(prev.Grant.Scopes, " "))
	}
	found.Scopes = addScopes(found.Scopes, in.Scope)
	grant := mcpauth.NewGrant(found, client, redirect)
	if err := s.policy.CheckURL(grant.TokenURL); err != nil {
		return httpx.Invalid("The server's token endpoint is not allowed: " + err.Error())
	}
	authURL, err := url.Parse(grant.AuthURL)
	if err != nil || !(authURL.Scheme == "https" || authURL.Scheme == "http" && s.policy.AllowLoopback && isLoopbackHost(authURL.Hostname())) {
		return httpx.Invalid("The server's authorization page must be an https address.")
	}
	verifier, nonce, browser := oauth2.GenerateVerifier(), randomToken(), randomToken()
	sealed, err := s.sealer.Seal(mustJSON(pendingGrant{Grant: grant, Verifier: verifier}), uid, srv.ID)
	if err != nil {
		return err
	}
	if err := s.st.PutMCPOAuthFlow(r.Context(), uid, hash(nonce), store.MCPOAuthFlow{
		ServerID: srv.ID, EndpointURL: endpoint, Sealed: sealed, BrowserHash: hash(browser), SessionID: auth.SessionID(r.Context()),
		Expires: time.Now().Add(oauthFlowTTL), ReturnTo: in.ReturnTo, ConnectionID: upgrade,
	}); err != nil {
		return err
	}
	http.SetCookie(w, &http.Cookie{Name: oauthCookie, Value: browser, Path: routes.MCPOAuthPrefix, MaxAge: int(oauthFlowTTL.Seconds()),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: strings.HasPrefix(redirect, "https://")})
	state := base64.RawURLEncoding.EncodeToString([]byte(uid)) + "." + nonce
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"authorization_url": grant.AuthCodeURL(state, verifier), "scopes": grant.Scopes})
	return nil
}

// oauthCallback finishes a flow: the state names the user and their flow
// (single use, this browser's, not expired); the code is exchanged, the
// handshake runs with the token, and the connection (one per user and
// server) keeps the sealed tokens. The browser goes back to the registry
// either way, with what happened: a code the page has its own message for,
// the server's registry id and, when there is more to say, the id of a
// detail kept for this user (signInReturn), never a text.
func (s *Service) oauthCallback(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	ret := signInReturn{s: s, w: w, r: r}
	uidPart, nonce, ok := strings.Cut(q.Get("state"), ".")
	uidBytes, err := base64.RawURLEncoding.DecodeString(uidPart)
	if !ok || err != nil || nonce == "" || len(nonce) > 100 {
		ret.failed("", SignInInvalidState)
		return
	}
	uid := string(uidBytes)
	flow, err := s.st.TakeMCPOAuthFlow(r.Context(), uid, hash(nonce))
	if errors.Is(err, store.ErrFlowUnknown) {
		ret.failed("", SignInUsed)
		return
	}
	if err != nil {
		slog.ErrorContext(r.Context(), "mcp oauth callback", "err", err)
		ret.failed("", SignInServerError)
		return
	}
	ret.page = flow.ReturnTo
	cookie, _ := r.Cookie(oauthCookie)
	switch {
	case cookie == nil || hash(cookie.Value) != flow.BrowserHash:
		ret.failed(flow.ServerID, SignInOtherBrowser)
		return
	case time.Now().After(flow.Expires):
		ret.failed(flow.ServerID, SignInExpired)
		return
	case !s.sessionLive(r.Context(), uid, flow.SessionID):
		ret.failed(flow.ServerID, SignInSignedOut)
		return
	}
	p, err := s.openPending(uid, flow)
	if err != nil {
		slog.ErrorContext(r.Context(), "mcp oauth pending grant", "server", flow.ServerID, "err", err)
		ret.failed(flow.ServerID, SignInServerError)
		return
	}
	// RFC 9207: the answer must come from the authorization server the
	// flow was started with, error answers included.
	if err := p.Grant.CheckIssuer(q.Get("iss"), q.Has("iss")); err != nil {
		slog.InfoContext(r.Context(), "mcp oauth answer from another issuer", "server", flow.ServerID, "issuer", p.Grant.Issuer,
			"iss", clip.Runes(q.Get("iss"), 200))
		ret.explained(uid, flow.ServerID, SignInRefused, err.Error())
		return
	}
	switch {
	case q.Get("error") == "access_denied":
		ret.failed(flow.ServerID, SignInCancelled)
		return
	case q.Get("error") != "":
		// The server's own description is a text the product does not
		// repeat: the log has it.
		slog.InfoContext(r.Context(), "mcp oauth refused", "server", flow.ServerID,
			"error", clip.Runes(q.Get("error"), 100), "description", clip.Runes(q.Get("error_description"), 300))
		ret.explained(uid, flow.ServerID, SignInRefused, mcpauth.Refusal(q.Get("error")))
		return
	}
	if err := s.finishSignIn(r.Context(), uid, flow, p, q.Get("code")); err != nil {
		var ue *mcpauth.Error
		var me *mcp.Error
		switch {
		case errors.As(err, &ue):
			slog.InfoContext(r.Context(), "mcp oauth token refused", "server", flow.ServerID, "err", ue.Detail, "cause", ue.Unwrap())
			ret.explained(uid, flow.ServerID, SignInTokenRefused, ue.Detail)
		case errors.As(err, &me):
			slog.InfoContext(r.Context(), "mcp oauth handshake failed", "server", flow.ServerID, "err", me.Detail, "cause", me.Unwrap())
			ret.explained(uid, flow.ServerID, SignInHandshakeFailed, me.Detail)
		default:
			slog.ErrorContext(r.Context(), "mcp oauth finish", "server", flow.ServerID, "err", err)
			ret.failed(flow.ServerID, SignInServerError)
		}
		return
	}
	ret.connected(flow.ServerID)
}

// sessionLive reports whether the session that started a flow is still
// open: a logout or a deleted account mid-flow stores nothing.
func (s *Service) sessionLive(ctx context.Context, uid, sid string) bool {
	if sid == "" {
		return true // a token without a server-side session (tests, a deployment without sessions)
	}
	live, err := s.st.SessionLive(ctx, uid, sid)
	if err != nil {
		slog.ErrorContext(ctx, "mcp oauth callback session", "err", err)
	}
	return live
}

// openPending opens what the flow keeps sealed until the callback.
func (s *Service) openPending(uid string, flow store.MCPOAuthFlow) (pendingGrant, error) {
	var p pendingGrant
	plain, err := s.sealer.Open(flow.Sealed, uid, flow.ServerID)
	if err != nil {
		return p, err
	}
	err = json.Unmarshal([]byte(plain), &p)
	return p, err
}

// finishSignIn exchanges code, handshakes with the token and stores the
// connection with the sealed grant.
func (s *Service) finishSignIn(ctx context.Context, uid string, flow store.MCPOAuthFlow, p pendingGrant, code string) error {
	srv, err := s.st.GetMCPServer(ctx, flow.ServerID)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, s.connectTimeout)
	defer cancel()
	tok, err := p.Grant.Exchange(ctx, s.client, code, p.Verifier)
	if err != nil {
		return err
	}
	res, err := mcp.Handshake(ctx, s.client, mcp.Target{Endpoint: flow.EndpointURL, Transport: srv.Transport, APIKey: tok.AccessToken, KeyHeader: "Authorization"})
	var me *mcp.Error
	if errors.As(err, &me) && me.Rejected() {
		// A token just issued and refused: the server may have moved to
		// another authorization server meanwhile; the next sign-in goes there.
		if found, derr := mcpauth.Discover(ctx, s.client, flow.EndpointURL); derr == nil && found.Auth.Issuer != p.Grant.Issuer {
			slog.InfoContext(ctx, "mcp sign-in: the server's authorization server changed during the sign-in", "server", srv.ID,
				"from", p.Grant.Issuer, "to", found.Auth.Issuer)
			return &mcp.Error{Kind: me.Kind, Detail: displayName(srv) + " now signs in with another authorization server: sign in again."}
		}
	}
	if err != nil {
		return err
	}
	sealed, err := s.sealer.Seal(mcpauth.Sealed{Grant: p.Grant, Token: tok}.Encode(), uid, srv.ID)
	if err != nil {
		return err
	}
	now := time.Now().UTC().Format(time.RFC3339Nano)
	return s.st.ReplaceMCPConnection(ctx, uid, domain.MCPConnection{
		ID: cmp.Or(flow.ConnectionID, signInConnectionID(uid, srv.ID, flow.EndpointURL)), ServerID: srv.ID, ServerName: displayName(srv), EndpointURL: flow.EndpointURL,
		EndpointHost: overriddenHost(flow.EndpointURL, srv.EndpointURL), Transport: res.Transport, ModelType: srv.ModelType,
		ProtocolVersion: res.ProtocolVersion, ServerInfo: res.ServerInfo, Tools: res.Tools,
		SealedAPIKey: sealed, APIKeyHeader: "Authorization", ConnectedAt: now, ToolsCheckedAt: now, OAuth: true,
	})
}

// revokeSignIn revokes a signed-in connection's tokens at its server
// before the connection is deleted (best effort: a server that is down
// keeps tokens that are deleted here anyway).
func (s *Service) revokeSignIn(ctx context.Context, uid, cid string) {
	c, err := s.st.GetMCPConnection(ctx, uid, cid)
	if err != nil || !c.OAuth {
		return
	}
	plain, err := s.sealer.Open(c.SealedAPIKey, uid, c.ServerID)
	if err != nil {
		return
	}
	sealed, err := mcpauth.DecodeSealed(plain)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := sealed.Grant.Revoke(ctx, s.client, sealed.Token); err != nil {
		slog.InfoContext(ctx, "mcp sign-in not revoked", "server", c.ServerID, "err", err)
	}
}

// previousSignIn is the user's last sign-in to this server and endpoint:
// its connection (zero when there is none) and its grant, when there is
// one that can be read.
func (s *Service) previousSignIn(ctx context.Context, uid, serverID, endpoint string) (domain.MCPConnection, mcpauth.Sealed, bool) {
	c, err := s.st.GetMCPConnection(ctx, uid, signInConnectionID(uid, serverID, endpoint))
	if err != nil {
		return domain.MCPConnection{}, mcpauth.Sealed{}, false
	}
	if !c.OAuth || len(c.SealedAPIKey) == 0 {
		return c, mcpauth.Sealed{}, false
	}
	plain, err := s.sealer.Open(c.SealedAPIKey, uid, c.ServerID)
	if err != nil {
		return c, mcpauth.Sealed{}, false
	}
	sealed, err := mcpauth.DecodeSealed(plain)
	return c, sealed, err == nil
}

// upgradedConnection answers the id of the keyless connection a sign-in
// turns into a signed-in one ("" when the start names none, or names a
// connection that is signed in already: its sign-in replaces it anyway).
// It must be the caller's, to the server and endpoint signed in to; one
// that holds an API key is not signed in over.
func (s *Service) upgradedConnection(ctx context.Context, uid, id, serverID, endpoint string) (string, error) {
	if id == "" {
		return "", nil
	}
	c, err := s.st.GetMCPConnection(ctx, uid, id)
	if errors.Is(err, store.ErrNotFound) {
		return "", httpx.NotFound("Connection not found. Connect again.")
	}
	if err != nil {
		return "", err
	}
	switch {
	case c.ServerID != serverID || c.EndpointURL != endpoint:
		return "", httpx.Invalid("connection_id names a connection to another server.")
	case c.OAuth:
		return "", nil
	case len(c.SealedAPIKey) > 0:
		return "", httpx.Invalid("This connection uses an API key: disconnect it before signing in to its server.")
	}
	return c.ID, nil
}

// addScopes is scopes and the space-separated more, each once, in order.
func addScopes(scopes []string, more string) []string {
	out := slices.Clone(scopes)
	for _, sc := range strings.Fields(more) {
		if !slices.Contains(out, sc) {
			out = append(out, sc)
		}
	}
	return out
}

// signInConnectionID is one signed-in connection per user, server and
// endpoint: signing in again replaces it.
func signInConnectionID(uid, serverID, endpoint string) string {
	sum := sha256.Sum256([]byte(uid + "\x00" + serverID + "\x00" + endpoint))
	return "oauth-" + hex.EncodeToString(sum[:12])
}

// clientName is the product as authorization servers show it.
const clientName = "AIWork MCP Registry"

// clientMetadata serves the product's Client ID Metadata Document: its
// client_id is the URL it is published at (this document's, unless the
// operator publishes it elsewhere).
func (s *Service) clientMetadata(w http.ResponseWriter, r *http.Request) error {
	base := httpx.PublicURL(r, s.publicURL)
	httpx.WriteJSON(w, http.StatusOK, map[string]any{
		"client_id": cmp.Or(s.clientMetadataURL, base+OAuthMetadataPath), "client_name": clientName, "client_uri": base,
		"redirect_uris": []string{base + OAuthCallbackPath}, "grant_types": []string{"authorization_code", "refresh_token"},
		"response_types": []string{"code"}, "token_endpoint_auth_method": "none",
	})
	return nil
}

// metadataURL is where the document is published: the operator's
// setting, else its own URL when the site is served on https (an
// authorization server fetches it), else "".
func (s *Service) metadataURL(r *http.Request) string {
	if s.clientMetadataURL != "" {
		return s.clientMetadataURL
	}
	base := httpx.PublicURL(r, s.publicURL)
	if !strings.HasPrefix(base, "https://") {
		return ""
	}
	return base + OAuthMetadataPath
}

// registrations keep the site's client per authorization server, sealed.
type registrations struct{ s *Service }

func (g registrations) OAuthClient(ctx context.Context, key string) (mcpauth.Client, bool, error) {
	blob, ok, err := g.s.st.OAuthClientRegistration(ctx, hash(key))
	if err != nil || !ok {
		return mcpauth.Client{}, false, err
	}
	plain, err := g.s.sealer.Open(blob, "site", key)
	if err != nil {
		return mcpauth.Client{}, false, nil // unreadable (key replaced): register again
	}
	var c mcpauth.Client
	if err := json.Unmarshal([]byte(plain), &c); err != nil {
		return mcpauth.Client{}, false, nil
	}
	return c, true, nil
}

func (g registrations) SaveOAuthClient(ctx context.Context, key string, c mcpauth.Client) error {
	blob, err := g.s.sealer.Seal(mustJSON(c), "site", key)
	if err != nil {
		return err
	}
	return g.s.st.PutOAuthClientRegistration(ctx, hash(key), blob)
}

// oauthError maps a sign-in start's failure to its answer: the product's
// sentence (mcpauth.Error, mcp.Error); the Go error under it goes to the
// log only.
func oauthError(ctx context.Context, err error) error {
	var ue *mcpauth.Error
	if errors.As(err, &ue) {
		slog.InfoContext(ctx, "mcp oauth start failed", "err", ue.Detail, "cause", ue.Unwrap())
		return &httpx.Error{Code: httpx.CodeUpstream, Detail: ue.Detail}
	}
	return clientError(err)
}

func randomToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

func hash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func isLoopbackHost(h string) bool {
	return h == "localhost" || h == "127.0.0.1" || h == "::1"
}
