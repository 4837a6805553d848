package adminapi

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"aiwork/shared/domain"
	"aiwork/shared/httpx"
)

// An operator's pre-registered OAuth client on a registry entry, for
// servers whose authorization server lets no app register: its id, its
// secret (sealed with MCP_KEY_ENCRYPTION_KEY for the entry, answered by no
// route, only whether there is one), and the authorization server it is
// for (the secret is sent to no other; the first sign-in records it when
// the admin leaves it empty).

// Rules of an operator's client.
const (
	MaxClientID     = 200
	MaxClientSecret = 1000
	MaxIssuer       = 2000
)

// clearable is a JSON field told apart three ways: absent (Set false),
// null (Null), or a value.
type clearable[T any] struct {
	Set, Null bool
	Value     T
}

func (c *clearable[T]) UnmarshalJSON(b []byte) error {
	c.Set = true
	if string(b) == "null" {
		c.Null = true
		return nil
	}
	return json.Unmarshal(b, &c.Value)
}

// oauthClientInput is "oauth_client" on a server's create or update:
// client_id is required; client_secret absent keeps the stored one, null
// or "" clears it, a string sets or replaces it; issuer absent keeps it,
// "" clears it.
type oauthClientInput struct {
	ClientID *string           `json:"client_id"`
	Secret   clearable[string] `json:"client_secret"`
	Issuer   clearable[string] `json:"issuer"`
}

type oauthClientView struct {
	ClientID  string `json:"client_id"`
	HasSecret bool   `json:"has_secret"`
	Issuer    string `json:"issuer"`
}

// presentOAuthClient is what any answer says of an operator's client:
// never its secret.
func presentOAuthClient(c domain.MCPOperatorClient) *oauthClientView {
	if c.ClientID == "" {
		return nil
	}
	return &oauthClientView{ClientID: c.ClientID, HasSecret: len(c.SealedSecret) > 0, Issuer: c.Issuer}
}

// applyOAuthClient sets, replaces or clears srv's operator client as in
// says (nothing when in has no oauth_client), the secret sealed for srv.
func (s *Service) applyOAuthClient(in clearable[oauthClientInput], srv *domain.MCPServer) error {
	if !in.Set {
		return nil
	}
	if in.Null {
		srv.Operator = domain.MCPOperatorClient{}
		return nil
	}
	c := in.Value
	next := srv.Operator
	if c.ClientID == nil || strings.TrimSpace(*c.ClientID) == "" {
		return httpx.Invalid("oauth_client.client_id is required (null clears the client)")
	}
	id := strings.TrimSpace(*c.ClientID)
	if err := plainText("oauth_client.client_id", id, MaxClientID); err != nil {
		return err
	}
	next.ClientID = id
	switch {
	case !c.Secret.Set:
	case c.Secret.Null || c.Secret.Value == "":
		next.SealedSecret = nil
	default:
		if err := plainText("oauth_client.client_secret", c.Secret.Value, MaxClientSecret); err != nil {
			return err
		}
		if s.opts.Sealer == nil {
			return httpx.Errorf(httpx.CodeUnavailable, "A client secret cannot be kept here: MCP_KEY_ENCRYPTION_KEY is not set.")
		}
		sealed, err := s.opts.Sealer.Seal(c.Secret.Value, domain.MCPOperatorSealOwner, srv.ID)
		if err != nil {
			return err
		}
		next.SealedSecret = sealed
	}
	if c.Issuer.Set {
		iss := strings.TrimSpace(c.Issuer.Value)
		if iss != "" {
			if err := checkIssuer(iss); err != nil {
				return err
			}
		}
		next.Issuer = iss
	}
	srv.Operator = next
	return nil
}

// plainText holds a client id or secret to one line of printable text.
func plainText(field, v string, limit int) error {
	switch {
	case utf8.RuneCountInString(v) > limit:
		return httpx.Invalid(fmt.Sprintf("%s must be at most %d characters", field, limit))
	case strings.IndexFunc(v, func(r rune) bool { return unicode.IsControl(r) || unicode.IsSpace(r) }) >= 0:
		return httpx.Invalid(field + " must not contain spaces or control characters")
	}
	return nil
}

// checkIssuer: an authorization server's issuer is an https URL with no
// query or fragment (RFC 8414; http for a local one, which the outbound
// rules judge at sign-in); it is compared exactly as written.
func checkIssuer(iss string) error {
	u, err := url.Parse(iss)
	if len(iss) > MaxIssuer || err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || strings.Contains(iss, "#") {
		return httpx.Invalid("oauth_client.issuer must be the authorization server's issuer as its metadata writes it: an https:// (or local http://) URL without query or fragment")
	}
	return nil
}
