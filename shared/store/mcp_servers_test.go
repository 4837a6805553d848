package store_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

func mcpServer(id, title string) domain.MCPServer {
	return domain.MCPServer{
		ID: id, Name: "com.example/" + id, Title: title, Description: title + " does things",
		EndpointURL: "https://" + id + ".example.com/mcp", Transport: domain.TransportStreamableHTTP,
		ModelType: "documentation", IsActive: true, SupportedFeatures: []string{"tools"},
		WebsiteURL: "https://example.com", Repository: "https://github.com/example/" + id,
		Version: "1.0.0", Source: "seed", UpdatedAt: "2026-01-02T03:04:05Z",
	}
}

func sampleHealth() domain.MCPHealth {
	return domain.MCPHealth{
		Status: domain.HealthUp, CheckedAt: "2026-11-22T12:00:00Z", LatencyMS: 12,
		ProtocolVersion: "2025-06-18", ToolsCount: 2, ToolsHash: "abc123",
		ToolsChangedAt: "2026-11-20T00:00:00Z",
		ServerInfo:     &domain.MCPImplementation{Name: "everything", Title: "Everything", Version: "2026.8.31"},
		Tools: []domain.MCPTool{
			{Name: "echo", Title: "Echo", Description: "Echoes the input", ReadOnly: true},
			{Name: "delete-all", Description: "", Destructive: true},
		},
	}
}

func TestUpsertMCPServerRoundTripAndKeepsHealth(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	want := mcpServer("docs", "Docs")
	want.APIKeyRequired, want.APIKeyHeader, want.OAuthRequired = true, "X-Api-Key", true
	storetest.Must(t, st.UpsertMCPServer(ctx, want), "upsert")

	got, err := st.GetMCPServer(ctx, "docs")
	storetest.Must(t, err, "get")
	want.Health = domain.MCPHealth{Status: domain.HealthUnknown}
	want.ListedActive = want.IsActive // read back: the listing's own is_active
	if got.ChangedAt == "" {
		t.Error("a new server has no changed_at")
	}
	want.ChangedAt = got.ChangedAt
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("new server:\n got %+v\nwant %+v", got, want)
	}

	h := sampleHealth()
	storetest.Must(t, st.SaveMCPHealth(ctx, "docs", h), "save health")

	// A re-seed / sync changes listing fields, clears some, and must keep health.
	next := want
	next.Title, next.Description, next.Version = "Docs v2", "new text", "2.0.0"
	next.WebsiteURL, next.APIKeyHeader, next.SupportedFeatures = "", "", nil
	next.APIKeyRequired, next.OAuthRequired = false, false
	next.Health = domain.MCPHealth{} // what a registry entry carries: nothing
	storetest.Must(t, st.UpsertMCPServer(ctx, next), "re-upsert")

	got, err = st.GetMCPServer(ctx, "docs")
	storetest.Must(t, err, "get after re-upsert")
	next.Health = h
	if got.ChangedAt <= want.ChangedAt {
		t.Errorf("changed listing: changed_at %q, want after %q", got.ChangedAt, want.ChangedAt)
	}
	next.ChangedAt = got.ChangedAt
	if !reflect.DeepEqual(got, next) {
		t.Fatalf("after re-upsert:\n got %+v\nwant %+v", got, next)
	}
}

// changed_at moves when what the registry API serves of an entry changes
// (a listing written with a difference, a deactivation), never on an
// unchanged re-seed or a probe; an item from before changed_at gets one
// at its next upsert.
func TestMCPServerChangedAt(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	changedAt := func(what string) string {
		t.Helper()
		got, err := st.GetMCPServer(ctx, "docs")
		storetest.Must(t, err, what)
		return got.ChangedAt
	}
	srv := mcpServer("docs", "Docs")
	storetest.Must(t, st.UpsertMCPServer(ctx, srv), "upsert")
	first := changedAt("first")
	if first == "" {
		t.Fatal("no changed_at after the first upsert")
	}
	storetest.Must(t, st.UpsertMCPServer(ctx, srv), "same again")
	storetest.Must(t, st.SaveMCPHealth(ctx, "docs", sampleHealth()), "probe")
	if now := changedAt("unchanged"); now != first {
		t.Errorf("an unchanged upsert and a probe moved changed_at from %s to %s", first, now)
	}
	srv.SupportedFeatures = []string{} // stored empty: the same as none
	storetest.Must(t, st.UpsertMCPServer(ctx, srv), "features empty")
	srv.SupportedFeatures = nil
	storetest.Must(t, st.UpsertMCPServer(ctx, srv), "features none")
	srv.SupportedFeatures = []string{"tools"}
	storetest.Must(t, st.UpsertMCPServer(ctx, srv), "features back")
	second := changedAt("features")
	if second <= first {
		t.Errorf("a changed listing left changed_at at %s", second)
	}
	storetest.Must(t, st.SetMCPServerActive(ctx, "docs", false), "deactivate")
	if third := changedAt("deactivated"); third <= second {
		t.Errorf("a deactivation left changed_at at %s", third)
	}

	// An item written before changed_at existed gets one at its next upsert.
	_, err := st.DB().UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String(st.Table()), Key: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: store.PKMCPServer + "docs"}, "SK": &types.AttributeValueMemberS{Value: "SERVER"}},
		UpdateExpression: aws.String("REMOVE changed_at"),
	})
	storetest.Must(t, err, "remove changed_at")
	if got := changedAt("removed"); got != "" {
		t.Fatalf("changed_at %q after its removal (key?)", got)
	}
	storetest.Must(t, st.UpsertMCPServer(ctx, srv), "old item")
	if changedAt("old item") == "" {
		t.Error("an item without changed_at got none at its upsert")
	}
}

func TestSaveMCPHealthRoundTripAndReplace(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	storetest.Must(t, st.UpsertMCPServer(ctx, mcpServer("s1", "One")), "upsert")
	h := sampleHealth()
	storetest.Must(t, st.SaveMCPHealth(ctx, "s1", h), "save health")
	got, err := st.GetMCPServer(ctx, "s1")
	storetest.Must(t, err, "get")
	if !reflect.DeepEqual(got.Health, h) {
		t.Fatalf("health:\n got %+v\nwant %+v", got.Health, h)
	}
	if got.Title != "One" || !got.IsActive {
		t.Errorf("listing changed by health write: %+v", got)
	}

	// A later probe that finds the server down replaces the record: the old
	// tools and server info must not linger.
	down := domain.MCPHealth{Status: domain.HealthDown, CheckedAt: "2026-11-22T12:15:00Z", Error: "connection refused", ToolsHash: "abc123"}
	storetest.Must(t, st.SaveMCPHealth(ctx, "s1", down), "save down")
	got, err = st.GetMCPServer(ctx, "s1")
	storetest.Must(t, err, "get")
	if !reflect.DeepEqual(got.Health, down) {
		t.Fatalf("health after down:\n got %+v\nwant %+v", got.Health, down)
	}

	// The raw item keeps tools as a list of maps and server info as a map.
	storetest.Must(t, st.SaveMCPHealth(ctx, "s1", h), "save health again")
	out, err := st.DB().GetItem(ctx, &dynamodb.GetItemInput{
		TableName: aws.String(st.Table()),
		Key: map[string]types.AttributeValue{
			store.AttrPK: &types.AttributeValueMemberS{Value: "MCP#s1"},
			store.AttrSK: &types.AttributeValueMemberS{Value: "SERVER"},
		},
	})
	storetest.Must(t, err, "raw get")
	tools, ok := out.Item["health_tools"].(*types.AttributeValueMemberL)
	if !ok || len(tools.Value) != 2 {
		t.Fatalf("health_tools = %#v, want a list of 2", out.Item["health_tools"])
	}
	if _, ok := tools.Value[0].(*types.AttributeValueMemberM); !ok {
		t.Errorf("a tool is %T, want a map", tools.Value[0])
	}
	if _, ok := out.Item["health_server_info"].(*types.AttributeValueMemberM); !ok {
		t.Errorf("health_server_info is %T, want a map", out.Item["health_server_info"])
	}
	if gsi, _ := out.Item[store.AttrGSI1PK].(*types.AttributeValueMemberS); gsi == nil || gsi.Value != "MCPSERVERS" {
		t.Errorf("GSI1PK = %#v, want MCPSERVERS", out.Item[store.AttrGSI1PK])
	}
}

func TestMCPServerUnknownIDs(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	if _, err := st.GetMCPServer(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("GetMCPServer(unknown) = %v, want ErrNotFound", err)
	}
	if err := st.SetMCPServerActive(ctx, "nope", false); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("SetMCPServerActive(unknown) = %v, want ErrNotFound", err)
	}
	if err := st.SaveMCPHealth(ctx, "nope", sampleHealth()); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("SaveMCPHealth(unknown) = %v, want ErrNotFound", err)
	}
	// None of the refused writes may leave an item behind.
	if _, err := st.GetMCPServer(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a refused write created the item: %v", err)
	}
	list, err := st.ListMCPServers(ctx)
	storetest.Must(t, err, "list")
	if len(list) != 0 {
		t.Errorf("empty table lists %d servers", len(list))
	}
}

func TestListMCPServersOrderAndInactive(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	// Display names in mixed case; "beta" twice so the id breaks the tie; one
	// without a title sorts by its registry name.
	servers := []domain.MCPServer{
		mcpServer("z1", "beta"), mcpServer("a1", "Charlie"), mcpServer("m1", "alpha"),
		mcpServer("b0", "Beta"), mcpServer("n1", ""),
	}
	for _, s := range servers {
		storetest.Must(t, st.UpsertMCPServer(ctx, s), "upsert "+s.ID)
	}
	storetest.Must(t, st.SetMCPServerActive(ctx, "a1", false), "deactivate")

	list, err := st.ListMCPServers(ctx)
	storetest.Must(t, err, "list")
	var ids []string
	for _, s := range list {
		ids = append(ids, s.ID)
	}
	// alpha, beta#b0, beta#z1, charlie, com.example/n1
	want := []string{"m1", "b0", "z1", "a1", "n1"}
	if !reflect.DeepEqual(ids, want) {
		t.Fatalf("order = %v, want %v", ids, want)
	}
	for _, s := range list {
		if s.IsActive != (s.ID != "a1") {
			t.Errorf("%s: is_active = %v", s.ID, s.IsActive)
		}
	}

	// Reactivating and renaming moves the item in the listing.
	storetest.Must(t, st.SetMCPServerActive(ctx, "a1", true), "reactivate")
	renamed := mcpServer("a1", "Aardvark")
	storetest.Must(t, st.UpsertMCPServer(ctx, renamed), "rename")
	list, err = st.ListMCPServers(ctx)
	storetest.Must(t, err, "list")
	if list[0].ID != "a1" || !list[0].IsActive || len(list) != 5 {
		t.Errorf("after rename: first = %+v (of %d), want a1 active first of 5", list[0], len(list))
	}
}

func TestListMCPServersPaginates(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	// Big descriptions push the listing past one 1 MB query page.
	big := make([]byte, 40_000)
	for i := range big {
		big[i] = 'x'
	}
	const n = 40
	for i := range n {
		s := mcpServer("p"+string(rune('a'+i/26))+string(rune('a'+i%26)), "")
		s.Description = string(big)
		storetest.Must(t, st.UpsertMCPServer(ctx, s), "upsert")
	}
	list, err := st.ListMCPServers(ctx)
	storetest.Must(t, err, "list")
	if len(list) != n {
		t.Fatalf("listed %d servers, want %d", len(list), n)
	}
	for i := 1; i < n; i++ {
		if list[i-1].Name >= list[i].Name {
			t.Fatalf("not sorted at %d: %s then %s", i, list[i-1].Name, list[i].Name)
		}
	}
}

func TestMCPSyncState(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	got, err := st.MCPSyncState(ctx)
	if err != nil || got != "" {
		t.Fatalf("fresh state = %q, %v; want empty", got, err)
	}
	storetest.Must(t, st.SetMCPSyncState(ctx, "2026-11-22T12:00:00Z"), "set")
	storetest.Must(t, st.SetMCPSyncState(ctx, "2026-11-22T18:00:00Z"), "set again")
	got, err = st.MCPSyncState(ctx)
	if err != nil || got != "2026-11-22T18:00:00Z" {
		t.Fatalf("state = %q, %v; want the last one", got, err)
	}
}
