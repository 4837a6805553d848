package store_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// schemaTools are tools as a handshake hands them over: input schemas
// (kept byte for byte), titles, and each kind of destructive hint.
func schemaTools() []domain.MCPTool {
	return []domain.MCPTool{
		{Name: "echo", Description: "Echoes", ReadOnly: true, DestructiveHintAbsent: true,
			InputSchema: json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`)},
		{Name: "wipe", Title: "Wipe", Description: "Wipes \"all\" <data>", Destructive: true,
			InputSchema: json.RawMessage(`{ "type": "object" }`)},
		{Name: "bare"},
	}
}

// oldToolsItem is a connection as stored before tools_json: its tools a
// list of maps, each schema a string attribute.
func oldToolsItem(uid, cid string) map[string]types.AttributeValue {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	b := func(v bool) types.AttributeValue { return &types.AttributeValueMemberBOOL{Value: v} }
	return map[string]types.AttributeValue{
		"PK": s("USER#" + uid), "SK": s("MCPCONN#" + cid), "id": s(cid), "server_id": s("local-everything"),
		"connected_at": s("2026-11-20T10:00:00Z"), "grant_version": &types.AttributeValueMemberN{Value: "0"},
		"tools": &types.AttributeValueMemberL{Value: []types.AttributeValue{
			&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
				"name": s("echo"), "description": s("Echoes"), "read_only": b(true), "destructive": b(false),
				"destructive_hint_absent": b(true),
				"input_schema":            s(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`),
			}},
			&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
				"name": s("wipe"), "title": s("Wipe"), "description": s("Wipes \"all\" <data>"), "read_only": b(false),
				"destructive": b(true), "input_schema": s(`{ "type": "object" }`),
			}},
			&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
				"name": s("bare"), "read_only": b(false), "destructive": b(false),
			}},
		}},
	}
}

// TestConnectionToolsReadInBothForms: a connection's tools read the same
// whether stored as one JSON string (now) or as a list of maps (before),
// through every read (get, list); a refresh rewrites an old one compactly.
func TestConnectionToolsReadInBothForms(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		store func(t *testing.T, st *store.Store, uid string)
	}{
		{"compact", func(t *testing.T, st *store.Store, uid string) {
			c := mcpConn("c1", "2026-11-20T10:00:00Z", nil)
			c.Tools = schemaTools()
			storetest.Must(t, st.PutMCPConnection(ctx, uid, c), "put")
		}},
		{"list of maps", func(t *testing.T, st *store.Store, uid string) {
			_, err := st.DB().PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(st.Table()), Item: oldToolsItem(uid, "c1")})
			storetest.Must(t, err, "put the old form")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			st := storetest.New(t)
			tc.store(t, st, "alice")
			got, err := st.GetMCPConnection(ctx, "alice", "c1")
			storetest.Must(t, err, "get")
			if want := schemaTools(); !reflect.DeepEqual(got.Tools, want) {
				t.Errorf("get: tools\n got %+v\nwant %+v", got.Tools, want)
			}
			list, err := st.ListMCPConnections(ctx, "alice")
			storetest.Must(t, err, "list")
			if len(list) != 1 || !reflect.DeepEqual(list[0].Tools, schemaTools()) {
				t.Errorf("list: %+v, want the one connection with its tools", list)
			}

			for _, refreshed := range [][]domain.MCPTool{schemaTools()[:1], nil} {
				storetest.Must(t, st.UpdateMCPConnectionTools(ctx, "alice", "c1", refreshed, "2026-11-21T10:00:00Z"), "refresh")
				got, err := st.GetMCPConnection(ctx, "alice", "c1")
				storetest.Must(t, err, "get after the refresh")
				if !reflect.DeepEqual(got.Tools, refreshed) || got.ToolsCheckedAt != "2026-11-21T10:00:00Z" {
					t.Errorf("after a refresh to %d tools: tools %+v checked at %q", len(refreshed), got.Tools, got.ToolsCheckedAt)
				}
				item := storetest.ScanAll(t, st)[0]
				if _, old := item["tools"]; old {
					t.Error("the list of maps is still stored after a refresh")
				}
				if _, ok := item["tools_json"].(*types.AttributeValueMemberS); !ok {
					t.Errorf("tools_json is %T, want one string", item["tools_json"])
				}
			}
		})
	}
}

// TestConnectionToolsKeepTheirViews: a tool's view (MCP Apps: its ui://
// resource) and who may call it are kept with the connection's tools and
// read back as they were, through a put and a refresh.
func TestConnectionToolsKeepTheirViews(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	tools := []domain.MCPTool{
		{Name: "get-time", Description: "Time", ReadOnly: true, UIResourceURI: "ui://get-time/mcp-app.html",
			InputSchema: json.RawMessage(`{"type":"object"}`)},
		{Name: "refresh", UIResourceURI: "ui://get-time/mcp-app.html", Visibility: []string{"app"}},
		{Name: "both", Visibility: []string{"model", "app"}},
		{Name: "plain"},
	}
	c := mcpConn("c1", "2026-11-20T10:00:00Z", nil)
	c.Tools = tools
	storetest.Must(t, st.PutMCPConnection(ctx, "alice", c), "put")
	got, err := st.GetMCPConnection(ctx, "alice", "c1")
	storetest.Must(t, err, "get")
	if !reflect.DeepEqual(got.Tools, tools) {
		t.Errorf("get: tools\n got %+v\nwant %+v", got.Tools, tools)
	}
	refreshed := tools[1:2]
	storetest.Must(t, st.UpdateMCPConnectionTools(ctx, "alice", "c1", refreshed, "2026-11-21T10:00:00Z"), "refresh")
	list, err := st.ListMCPConnections(ctx, "alice")
	storetest.Must(t, err, "list")
	if len(list) != 1 || !reflect.DeepEqual(list[0].Tools, refreshed) {
		t.Errorf("list after a refresh: %+v, want %+v", list, refreshed)
	}
}
