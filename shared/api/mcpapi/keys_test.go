package mcpapi_test

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/api/apitest"
	"aiwork/shared/domain"
	"aiwork/shared/mcp"
	"aiwork/shared/store/storetest"
)

// TestAPIKeyNeverInClear connects with a key to a server that requires it:
// the key reaches the server as a bearer token, and it is in no answer, no
// log line and no attribute of any table item; the stored sealed bytes open
// only for that user and server.
//
// Not parallel: it replaces the default logger while it runs (parallel tests
// wait until the sequential ones are done).
func TestAPIKeyNeverInClear(t *testing.T) {
	logs := apitest.CaptureLogs(t)

	s := newStack(t, local())
	secret := make([]byte, 16)
	_, _ = rand.Read(secret)
	key := "sk-live-" + hex.EncodeToString(secret)
	last4 := key[len(key)-4:]

	keyed := &bearerKey{key: key}
	s.addServer(domain.MCPServer{ID: "keyed", EndpointURL: sdkServer(t, 3, keyed.wrap), APIKeyRequired: true, APIKeyHeader: ""})
	other := &bearerKey{key: "sk-other-key-of-that-server"}
	s.addServer(domain.MCPServer{ID: "other", EndpointURL: sdkServer(t, 1, other.wrap), APIKeyRequired: true})
	uid, token := s.user("keys")

	noKey := func(what string, b []byte) {
		t.Helper()
		for _, part := range []string{key, hex.EncodeToString(secret)} {
			if bytes.Contains(b, []byte(part)) {
				t.Errorf("%s contains the key: %s", what, b)
				return
			}
		}
	}

	// Pasted with blanks around it: the trimmed key is used.
	w := s.connect(token, map[string]any{"server_id": "keyed", "api_key": "  " + key + "\n"})
	c := apitest.Decode[connectionView](t, w, http.StatusOK)
	noKey("connect answer", w.Body.Bytes())
	if !c.HasAPIKey || c.APIKeyLast4 != last4 || c.ToolsCount != 3 {
		t.Errorf("has_api_key %v, api_key_last4 %q, %d tools; want true, %q, 3", c.HasAPIKey, c.APIKeyLast4, c.ToolsCount, last4)
	}
	if got := keyed.tokens(); len(got) == 0 {
		t.Error("no key reached the server")
	} else {
		for _, tok := range got {
			if tok != key {
				t.Errorf("the server received bearer %q, want the trimmed key", tok)
			}
		}
	}

	// A failure with the key (another server refuses it) is logged: not the key.
	w = s.connect(token, map[string]any{"server_id": "other", "api_key": key})
	apitest.WantError(t, w, http.StatusBadGateway, "The server refused the API key.")
	noKey("key-refused answer", w.Body.Bytes())

	w = s.get(connectionsPath, token)
	rows := apitest.Decode[[]connectionRow](t, w, http.StatusOK)
	noKey("connection list", w.Body.Bytes())
	if len(rows) != 1 || rows[0].ConnectionID != c.ConnectionID || !rows[0].HasAPIKey || rows[0].APIKeyLast4 != last4 {
		t.Errorf("connections = %+v, want %s with has_api_key and last4 %q", rows, c.ConnectionID, last4)
	}

	if !strings.Contains(logs.String(), "mcp connect failed") {
		t.Errorf("the log capture saw no connect failure; logs:\n%s", logs)
	}
	noKey("log output", []byte(logs.String()))

	// Every attribute of every item, nested ones included.
	var sealed [][]byte
	items := storetest.ScanAll(t, s.st)
	for _, item := range items {
		for name, v := range item {
			noKey("item attribute name", []byte(name))
			walkAttr(v, func(b []byte) { noKey("item attribute "+name, b) })
		}
		if b, ok := item["sealed_api_key"].(*types.AttributeValueMemberB); ok {
			sealed = append(sealed, b.Value)
		}
	}
	if len(items) == 0 || len(sealed) != 1 {
		t.Fatalf("scanned %d items with %d sealed keys, want one sealed key", len(items), len(sealed))
	}
	if got, err := testSealer.Open(sealed[0], uid, "keyed"); err != nil || got != key {
		t.Errorf("Open(sealed, user, server) = %q, %v; want the key", got, err)
	}
	for _, ad := range [][2]string{{"someone-else", "keyed"}, {uid, "other"}} {
		if _, err := testSealer.Open(sealed[0], ad[0], ad[1]); !errors.Is(err, mcp.ErrUnseal) {
			t.Errorf("Open with user %q, server %q: %v, want ErrUnseal", ad[0], ad[1], err)
		}
	}
}

// walkAttr calls f with the bytes of every string, number and binary value in v.
func walkAttr(v types.AttributeValue, f func([]byte)) {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		f([]byte(v.Value))
	case *types.AttributeValueMemberN:
		f([]byte(v.Value))
	case *types.AttributeValueMemberB:
		f(v.Value)
	case *types.AttributeValueMemberSS:
		for _, s := range v.Value {
			f([]byte(s))
		}
	case *types.AttributeValueMemberNS:
		for _, s := range v.Value {
			f([]byte(s))
		}
	case *types.AttributeValueMemberBS:
		for _, b := range v.Value {
			f(b)
		}
	case *types.AttributeValueMemberL:
		for _, e := range v.Value {
			walkAttr(e, f)
		}
	case *types.AttributeValueMemberM:
		for k, e := range v.Value {
			f([]byte(k))
			walkAttr(e, f)
		}
	}
}
