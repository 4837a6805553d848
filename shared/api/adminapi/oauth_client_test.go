package adminapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/api/apitest"
	"aiwork/shared/domain"
	"aiwork/shared/local/devstack"
	"aiwork/shared/sealing"
	"aiwork/shared/store"
)

type oauthClientJSON struct {
	ClientID  string `json:"client_id"`
	HasSecret bool   `json:"has_secret"`
	Issuer    string `json:"issuer"`
}

type clientServerJSON struct {
	ID          string           `json:"id"`
	Version     int              `json:"version"`
	OAuthClient *oauthClientJSON `json:"oauth_client"`
}

const opSecret = "op-secret-3f9a1c77"

// TestAdminSetsAnOperatorClient: an admin sets a registry entry's OAuth
// client (id, secret, authorization server), replaces the secret and
// clears it; answers say whether there is a secret, never what it is; the
// table holds it only sealed for the operator and the entry, with the key
// the mcp function opens it with; each write has its audit line, and none
// holds the secret; a user who is not an admin is refused; a registry
// sync keeps the client.
func TestAdminSetsAnOperatorClient(t *testing.T) {
	t.Parallel()
	key := bytes.Repeat([]byte{9}, 32)
	s := newStackWith(t, func(c *devstack.Config) { c.MCP.KeyEncryptionKey = key }, 5)
	_, boss := s.admin("boss")
	_, user := s.User("someone")
	ctx := context.Background()
	srv := domain.MCPServer{ID: "listed", Name: "io.example/listed", Title: "Listed", EndpointURL: "https://mcp.example.com/mcp",
		Transport: domain.TransportStreamableHTTP, ModelType: "code", OAuthRequired: true, IsActive: true, Source: "registry"}
	if err := s.St.UpsertMCPServer(ctx, srv); err != nil {
		t.Fatal(err)
	}
	patch := func(token, body string) *clientServerJSON {
		t.Helper()
		w := s.Do("PATCH", admin+"mcp-servers/listed", token, body)
		if strings.Contains(w.Body.String(), opSecret) || strings.Contains(w.Body.String(), "other-secret") {
			t.Fatalf("an answer holds the secret: %s", w.Body)
		}
		if w.Code != http.StatusOK {
			return nil
		}
		out := decode[struct {
			Server clientServerJSON `json:"server"`
		}](t, w, http.StatusOK).Server
		return &out
	}

	got := patch(boss, `{"version":0,"oauth_client":{"client_id":" ops-client ","client_secret":"`+opSecret+`","issuer":"https://auth.example.com"}}`)
	if got == nil || got.OAuthClient == nil || *got.OAuthClient != (oauthClientJSON{ClientID: "ops-client", HasSecret: true, Issuer: "https://auth.example.com"}) {
		t.Fatalf("set: %+v", got)
	}
	stored, err := s.St.GetMCPServer(ctx, "listed")
	if err != nil {
		t.Fatal(err)
	}
	sealer, _ := sealing.NewSealer(key)
	if plain, err := sealer.Open(stored.Operator.SealedSecret, domain.MCPOperatorSealOwner, "listed"); err != nil || plain != opSecret {
		t.Errorf("stored secret opens to %q (%v)", plain, err)
	}
	if _, err := sealer.Open(stored.Operator.SealedSecret, domain.MCPOperatorSealOwner, "another-entry"); err == nil {
		t.Error("the sealed secret opens for another entry")
	}
	item, err := s.St.DB().GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(s.St.Table()), Key: map[string]types.AttributeValue{
		store.AttrPK: &types.AttributeValueMemberS{Value: store.PKMCPServer + "listed"}, store.AttrSK: &types.AttributeValueMemberS{Value: "SERVER"}}})
	if raw, _ := json.Marshal(item); err != nil || strings.Contains(string(raw), opSecret) || !strings.Contains(string(raw), "admin_oauth_client_secret") {
		t.Errorf("the stored item (%v): %s", err, raw)
	}

	// A sync rewrites the listing (its own oauth_client_id included): the
	// admin's client stays.
	if err := s.St.UpsertMCPServer(ctx, srv); err != nil {
		t.Fatal(err)
	}
	list := decode[pageJSON[clientServerJSON]](t, s.Do("GET", admin+"mcp-servers?q=listed", boss, ""), http.StatusOK)
	if len(list.Items) != 1 || list.Items[0].OAuthClient == nil || !list.Items[0].OAuthClient.HasSecret || list.Items[0].OAuthClient.ClientID != "ops-client" {
		t.Fatalf("after a sync: %+v", list.Items)
	}

	// The id alone keeps the secret and the issuer; another secret replaces it.
	got = patch(boss, `{"version":1,"oauth_client":{"client_id":"ops-client-2"}}`)
	if got == nil || *got.OAuthClient != (oauthClientJSON{ClientID: "ops-client-2", HasSecret: true, Issuer: "https://auth.example.com"}) {
		t.Fatalf("id changed: %+v", got)
	}
	got = patch(boss, `{"version":2,"oauth_client":{"client_id":"ops-client-2","client_secret":"other-secret","issuer":""}}`)
	if got == nil || *got.OAuthClient != (oauthClientJSON{ClientID: "ops-client-2", HasSecret: true}) {
		t.Fatalf("secret replaced: %+v", got)
	}
	stored, _ = s.St.GetMCPServer(ctx, "listed")
	if plain, _ := sealer.Open(stored.Operator.SealedSecret, domain.MCPOperatorSealOwner, "listed"); plain != "other-secret" {
		t.Errorf("replaced secret opens to %q", plain)
	}
	got = patch(boss, `{"version":3,"oauth_client":{"client_id":"ops-client-2","client_secret":null}}`)
	if got == nil || *got.OAuthClient != (oauthClientJSON{ClientID: "ops-client-2"}) {
		t.Fatalf("secret cleared: %+v", got)
	}

	// Another role is refused and changes nothing.
	apitest.WantError(t, s.Do("PATCH", admin+"mcp-servers/listed", user, `{"version":4,"oauth_client":null}`), http.StatusForbidden, "Admin access required.")
	apitest.WantError(t, s.Do("GET", admin+"mcp-servers", user, ""), http.StatusForbidden, "Admin access required.")

	got = patch(boss, `{"version":4,"oauth_client":null}`)
	if got == nil || got.OAuthClient != nil {
		t.Fatalf("cleared: %+v", got)
	}
	stored, _ = s.St.GetMCPServer(ctx, "listed")
	if stored.Operator.ClientID != "" || stored.Operator.SealedSecret != nil || stored.Operator.Issuer != "" {
		t.Errorf("stored after clearing: %+v", stored.Operator)
	}

	audit := decode[pageJSON[auditJSON]](t, s.Do("GET", admin+"audit", boss, ""), http.StatusOK)
	raw, _ := json.Marshal(audit)
	if strings.Contains(string(raw), opSecret) || strings.Contains(string(raw), "other-secret") {
		t.Errorf("the audit log holds a secret: %s", raw)
	}
	if len(audit.Items) != 5 || audit.Items[0].Action != "mcp_server.update" || !strings.Contains(string(audit.Items[4].After), `"has_secret":true`) ||
		!strings.Contains(string(audit.Items[0].Before), `"client_id":"ops-client-2"`) || !strings.Contains(string(audit.Items[0].After), `"oauth_client":null`) {
		t.Errorf("audit %s", raw)
	}
}

// TestAdminOperatorClientRules: what an operator's client must be.
func TestAdminOperatorClientRules(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	_, boss := s.admin("boss")
	body := mustJSON(map[string]any{"name": "N", "endpoint_url": "https://mcp.example.com/mcp", "model_type": "code", "auth": "oauth",
		"oauth_client": map[string]any{"client_id": "c1", "client_secret": "s1"}})
	created := decode[struct {
		Server clientServerJSON `json:"server"`
	}](t, s.Do("POST", admin+"mcp-servers", boss, body), http.StatusCreated)
	if created.Server.OAuthClient == nil || !created.Server.OAuthClient.HasSecret {
		t.Fatalf("created %+v", created.Server)
	}
	path := admin + "mcp-servers/" + created.Server.ID
	for _, tc := range []struct{ client, detail string }{
		{`{}`, "oauth_client.client_id is required"},
		{`{"client_id":"  "}`, "oauth_client.client_id is required"},
		{`{"client_id":"a b"}`, "oauth_client.client_id must not contain spaces"},
		{`{"client_id":"` + strings.Repeat("x", 201) + `"}`, "oauth_client.client_id must be at most 200 characters"},
		{`{"client_id":"c","client_secret":"line\nbreak"}`, "oauth_client.client_secret must not contain"},
		{`{"client_id":"c","issuer":"ftp://auth.example.com"}`, "oauth_client.issuer must be"},
		{`{"client_id":"c","issuer":"https://auth.example.com/?x=1"}`, "oauth_client.issuer must be"},
		{`{"client_id":"c","issuer":"auth.example.com"}`, "oauth_client.issuer must be"},
	} {
		apitest.WantErrorContaining(t, s.Do("PATCH", path, boss, `{"version":1,"oauth_client":`+tc.client+`}`), http.StatusBadRequest, tc.detail)
	}
}
