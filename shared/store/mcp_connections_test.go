package store_test

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// clearKey stands for a user's API key; only a sealed form may be stored.
const clearKey = "sk-live-CLEAR-KEY-1234"

func mcpConn(id, at string, sealed []byte) domain.MCPConnection {
	c := domain.MCPConnection{
		ID: id, ServerID: "local-everything", ServerName: "Everything", EndpointURL: "http://127.0.0.1:3001/mcp",
		Transport: domain.TransportStreamableHTTP, ModelType: "reference", ProtocolVersion: "2025-06-18",
		ServerInfo: domain.MCPImplementation{Name: "mcp-servers/everything", Version: "2026.8.31"},
		Tools: []domain.MCPTool{
			{Name: "echo", Description: "Echoes", ReadOnly: true},
			{Name: "get-env", Title: "Env", Description: "Prints the environment"},
		},
		ConnectedAt: at,
	}
	if sealed != nil {
		c.SealedAPIKey, c.APIKeyLast4 = sealed, "1234"
	}
	return c
}

func TestMCPConnectionsPutListDelete(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	// A stand-in for a sealed key: opaque bytes, including ones that are not UTF-8.
	sealed := []byte{0x00, 0xff, 0x10, 'n', 'o', 'n', 'c', 'e', 0x80}
	c1 := mcpConn("c1", "2026-11-22T12:00:00Z", nil)
	c2 := mcpConn("c2", "2026-11-22T12:00:00.5Z", sealed) // fractions must not break the order
	// An override's host is kept beside its endpoint.
	c2.EndpointURL, c2.EndpointHost = "http://127.0.0.1:18101/mcp", "127.0.0.1:18101"
	c3 := mcpConn("c3", "2026-11-22T11:00:00Z", nil)
	c3.Tools, c3.ServerInfo = nil, domain.MCPImplementation{}
	for _, c := range []domain.MCPConnection{c1, c2, c3} {
		storetest.Must(t, st.PutMCPConnection(ctx, "alice", c), "put "+c.ID)
	}
	storetest.Must(t, st.PutMCPConnection(ctx, "bob", mcpConn("b1", "2026-11-22T13:00:00Z", nil)), "put bob's")
	// Other items under the user's key must not show up as connections.
	storetest.Must(t, st.PutChatConnection(ctx, "alice", domain.ChatConnection{ID: "llm1", Name: "GPT", CreatedAt: "2026-11-22T10:00:00Z"}), "llm connection")

	if err := st.PutMCPConnection(ctx, "alice", c1); err == nil {
		t.Error("putting an existing connection id again succeeded, want a refusal")
	}

	list, err := st.ListMCPConnections(ctx, "alice")
	storetest.Must(t, err, "list")
	want := []domain.MCPConnection{c2, c1, c3}
	if !reflect.DeepEqual(list, want) {
		t.Fatalf("list:\n got %+v\nwant %+v", list, want)
	}
	if !bytes.Equal(list[0].SealedAPIKey, sealed) {
		t.Errorf("sealed key changed in storage: %x", list[0].SealedAPIKey)
	}

	// Another user's id is not found, and stays in place.
	if err := st.DeleteMCPConnection(ctx, "alice", "b1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deleting bob's connection as alice = %v, want ErrNotFound", err)
	}
	if err := st.DeleteMCPConnection(ctx, "alice", "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deleting an unknown connection = %v, want ErrNotFound", err)
	}
	storetest.Must(t, st.DeleteMCPConnection(ctx, "alice", "c1"), "delete c1")
	if err := st.DeleteMCPConnection(ctx, "alice", "c1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deleting c1 twice = %v, want ErrNotFound", err)
	}

	list, err = st.ListMCPConnections(ctx, "alice")
	storetest.Must(t, err, "list after delete")
	if len(list) != 2 || list[0].ID != "c2" || list[1].ID != "c3" {
		t.Errorf("after delete: %+v, want c2, c3", list)
	}
	bobs, err := st.ListMCPConnections(ctx, "bob")
	storetest.Must(t, err, "bob's list")
	if len(bobs) != 1 || bobs[0].ID != "b1" {
		t.Errorf("bob's connections = %+v, want b1 untouched", bobs)
	}
	none, err := st.ListMCPConnections(ctx, "carol")
	if err != nil || none == nil || len(none) != 0 {
		t.Errorf("a user without connections: %v, %v; want an empty list", none, err)
	}
}

// TestMCPConnectionItemsHoldNoClearKey scans the whole table: the sealed key
// is binary, and the clear key appears in no attribute of any item.
func TestMCPConnectionItemsHoldNoClearKey(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	// What shared/mcp's sealer does is out of this package; any opaque
	// transformation stands in for it here.
	sealed := []byte("nonce|" + strings.Map(func(r rune) rune { return r + 1 }, clearKey))
	c := mcpConn("c1", "2026-11-22T12:00:00Z", sealed)
	c.APIKeyLast4 = clearKey[len(clearKey)-4:]
	storetest.Must(t, st.PutMCPConnection(ctx, "alice", c), "put")

	out, err := st.DB().Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(st.Table())})
	storetest.Must(t, err, "scan")
	if len(out.Items) != 1 {
		t.Fatalf("scan found %d items, want 1", len(out.Items))
	}
	item := out.Items[0]
	if _, ok := item["sealed_api_key"].(*types.AttributeValueMemberB); !ok {
		t.Errorf("sealed_api_key is %T, want binary", item["sealed_api_key"])
	}
	var generic map[string]any
	storetest.Must(t, attributevalue.UnmarshalMap(item, &generic), "unmarshal")
	walk(generic, func(v string) {
		if strings.Contains(v, clearKey) {
			t.Errorf("an attribute holds the clear key: %q", v)
		}
	})
	for name := range item {
		if strings.Contains(strings.ToLower(name), "api_key") && name != "sealed_api_key" && name != "api_key_last4" {
			t.Errorf("unexpected key attribute %q", name)
		}
	}
}

// walk calls f with every string and byte slice (as text) inside v.
func walk(v any, f func(string)) {
	switch v := v.(type) {
	case string:
		f(v)
	case []byte:
		f(string(v))
	case map[string]any:
		for _, x := range v {
			walk(x, f)
		}
	case []any:
		for _, x := range v {
			walk(x, f)
		}
	}
}
