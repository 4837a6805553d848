package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"strings"
	"time"
)

// A scenario that hands the client pre-registered credentials
// (MCP_CONFORMANCE_CONTEXT {"client_id", "client_secret", "issuer"?}: the authorization
// server lets no app register) is what an operator meets: an admin sets
// them on the registry entry the user connects through, for the
// authorization server the suite's server names, and the user signs in. The
// admin is the account ADMIN_EMAILS names (the runner sets it), its address
// proven through the local outbox (/dev/mail) as under `make run`.

// conformanceAdmin is the admin account the adapter signs in as.
const (
	conformanceAdminEmail    = "conformance-admin@example.com"
	conformanceAdminPassword = "conformance-admin-password-1"
)

// operatorCredentials are a scenario's pre-registered client, if any, and
// the authorization server it is registered at when the scenario says.
type operatorCredentials struct {
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
	Issuer       string `json:"issuer"`
}

func contextCredentials() (operatorCredentials, bool) {
	var c operatorCredentials
	_ = json.Unmarshal([]byte(os.Getenv("MCP_CONFORMANCE_CONTEXT")), &c)
	return c, c.ClientID != ""
}

// withOperatorClient runs run with the scenario's pre-registered client set
// by an admin on the adapter's registry entry for the authorization server
// the suite's server names, and clears it afterwards (other scenarios
// connect through the same entry). A scenario without credentials runs
// as it is.
func withOperatorClient(ctx context.Context, api, server string, run func() error) error {
	creds, ok := contextCredentials()
	if !ok {
		return run()
	}
	jar, _ := cookiejar.New(nil)
	admin := &adapter{api: strings.TrimRight(api, "/"), server: server, http: &http.Client{Jar: jar, Timeout: 60 * time.Second}}
	if err := admin.signInAsAdmin(ctx); err != nil {
		return fmt.Errorf("sign in as the conformance admin: %w", err)
	}
	issuer := creds.Issuer
	if issuer == "" {
		var err error
		if issuer, err = admin.authorizationServer(ctx); err != nil {
			return fmt.Errorf("the server's authorization server: %w", err)
		}
	}
	client := map[string]any{"client_id": creds.ClientID, "client_secret": creds.ClientSecret, "issuer": issuer}
	if err := admin.setOperatorClient(ctx, client); err != nil {
		return fmt.Errorf("set the operator's client: %w", err)
	}
	logf("an admin set the operator's client %s on %s for %s", creds.ClientID, adapterServerID, issuer)
	defer func() {
		if err := admin.setOperatorClient(context.WithoutCancel(ctx), nil); err != nil {
			logf("clearing the operator's client: %v", err)
		}
	}()
	return run()
}

// signInAsAdmin registers the conformance admin (or signs in when it
// exists) and proves its address with the confirmation link from the local
// outbox, which makes it an admin (ADMIN_EMAILS).
func (a *adapter) signInAsAdmin(ctx context.Context) error {
	var session struct {
		AccessToken string `json:"access_token"`
	}
	err := a.call(ctx, http.MethodPost, "/api/v1/auth/register", map[string]string{
		"email": conformanceAdminEmail, "username": "conformance-admin", "full_name": "Conformance Admin", "password": conformanceAdminPassword,
	}, &session)
	if err != nil {
		if err := a.call(ctx, http.MethodPost, "/api/v1/auth/login", map[string]string{"email": conformanceAdminEmail, "password": conformanceAdminPassword}, &session); err != nil {
			return err
		}
	}
	a.token = session.AccessToken
	isAdmin := func() bool {
		return a.getQuery(ctx, "/api/v1/admin/mcp-servers", url.Values{"limit": {"1"}}, nil) == nil
	}
	if isAdmin() {
		return nil
	}
	var mail []struct {
		Links []string `json:"links"`
	}
	if err := a.getQuery(ctx, "/dev/mail", url.Values{"format": {"json"}, "to": {conformanceAdminEmail}}, &mail); err != nil {
		return fmt.Errorf("the local outbox: %w", err)
	}
	for _, m := range mail { // newest first
		for _, l := range m.Links {
			u, err := url.Parse(l)
			if err != nil || !strings.HasSuffix(u.Path, "/verify-email") || u.Query().Get("token") == "" {
				continue
			}
			if err := a.call(ctx, http.MethodPost, "/api/v1/auth/verify-email", map[string]string{"token": u.Query().Get("token")}, nil); err != nil {
				return err
			}
			if !isAdmin() {
				return errors.New("confirmed, but not an admin (is ADMIN_EMAILS " + conformanceAdminEmail + "?)")
			}
			return nil
		}
	}
	return errors.New("no confirmation link in the local outbox (is ADMIN_EMAILS " + conformanceAdminEmail + "?)")
}

// authorizationServer is the issuer of the authorization server the
// suite's server names, as an operator reads it: the server's Protected
// Resource Metadata, then that server's own metadata.
func (a *adapter) authorizationServer(ctx context.Context) (string, error) {
	u, err := url.Parse(a.server)
	if err != nil {
		return "", err
	}
	var prm struct {
		AuthorizationServers []string `json:"authorization_servers"`
	}
	origin := u.Scheme + "://" + u.Host
	path := strings.TrimRight(u.Path, "/")
	if err := a.getJSON(ctx, []string{origin + "/.well-known/oauth-protected-resource" + path, origin + "/.well-known/oauth-protected-resource"}, &prm); err != nil {
		return "", err
	}
	if len(prm.AuthorizationServers) == 0 {
		return "", errors.New("the protected resource metadata names no authorization server")
	}
	as, err := url.Parse(prm.AuthorizationServers[0])
	if err != nil {
		return "", err
	}
	asOrigin, asPath := as.Scheme+"://"+as.Host, strings.TrimRight(as.Path, "/")
	var meta struct {
		Issuer string `json:"issuer"`
	}
	if err := a.getJSON(ctx, []string{asOrigin + "/.well-known/oauth-authorization-server" + asPath, asOrigin + "/.well-known/openid-configuration" + asPath,
		asOrigin + asPath + "/.well-known/openid-configuration"}, &meta); err != nil {
		return "", err
	}
	if meta.Issuer == "" {
		return "", errors.New("the authorization server's metadata names no issuer")
	}
	return meta.Issuer, nil
}

// getQuery GETs path?query from the product as the signed-in user and
// decodes a 2xx answer into out (nil: not read).
func (a *adapter) getQuery(ctx context.Context, path string, query url.Values, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.api+path+"?"+query.Encode(), nil)
	if err != nil {
		return err
	}
	if a.token != "" {
		req.Header.Set("Authorization", "Bearer "+a.token)
	}
	res, err := a.http.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode/100 != 2 {
		return fmt.Errorf("GET %s: HTTP %d", path, res.StatusCode)
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(res.Body).Decode(out)
}

// getJSON decodes the first of urls that answers 200.
func (a *adapter) getJSON(ctx context.Context, urls []string, out any) error {
	for _, u := range urls {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return err
		}
		res, err := a.http.Do(req)
		if err != nil {
			return err
		}
		ok := res.StatusCode == http.StatusOK
		if ok {
			err = json.NewDecoder(res.Body).Decode(out)
		}
		res.Body.Close()
		if ok {
			return err
		}
	}
	return fmt.Errorf("none of %v answered", urls)
}

// setOperatorClient writes "oauth_client" (nil clears it) on the adapter's
// registry entry at the version read, reading again when another admin's
// write came first.
func (a *adapter) setOperatorClient(ctx context.Context, client map[string]any) error {
	for range 3 {
		version, err := a.entryVersion(ctx)
		if err != nil {
			return err
		}
		body := map[string]any{"version": version, "oauth_client": client}
		res, err := a.send(ctx, http.MethodPatch, "/api/v1/admin/mcp-servers/"+adapterServerID, body)
		if err != nil {
			return err
		}
		res.Body.Close()
		switch res.StatusCode {
		case http.StatusOK:
			return nil
		case http.StatusConflict:
			continue
		default:
			return fmt.Errorf("PATCH %s: HTTP %d", adapterServerID, res.StatusCode)
		}
	}
	return errors.New("the entry kept changing")
}

// entryVersion is the admin version of the adapter's registry entry.
func (a *adapter) entryVersion(ctx context.Context) (int, error) {
	cursor := ""
	for {
		var page struct {
			Items []struct {
				ID      string `json:"id"`
				Version int    `json:"version"`
			} `json:"items"`
			NextCursor string `json:"next_cursor"`
		}
		q := url.Values{"limit": {"100"}}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		if err := a.getQuery(ctx, "/api/v1/admin/mcp-servers", q, &page); err != nil {
			return 0, err
		}
		for _, s := range page.Items {
			if s.ID == adapterServerID {
				return s.Version, nil
			}
		}
		if page.NextCursor == "" {
			return 0, fmt.Errorf("no registry entry %s", adapterServerID)
		}
		cursor = page.NextCursor
	}
}
